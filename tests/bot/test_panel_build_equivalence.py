"""A panel is the same however much the bot remembers (issue 29, a move's processor time):
every panel of a seeded random game in each real game, in the three languages, every page
(and a menu's pick kept until Confirm), built as the bot builds them (one live game through
the states, every line, style and rendered word it keeps kept) is the panel built from
nothing (a fresh live game for each state, every message rendered afresh).

Against an older tree: `python bench/move_cpu.py --digest` in each (see its docstring).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from meeple_hall import games
from meeple_hall.bot.live_game import LiveGame
from meeple_hall.bot.panel_clicks import model_game
from meeple_hall.bot.panels import build_panel, pages, uses_confirm
from meeple_hall.games.core import catalogues
from meeple_hall.games.testing import random_game
from tests.bot.conftest import LANGUAGES, REAL_GAMES

PLAYERS = 3
SEED = 1
SAMPLED = 30  # states of each game, spread over the whole game


def sampled_states(game_id: str, seed: int = SEED) -> list[tuple[int, Any]]:
    """About SAMPLED states of a random game (with their move numbers), from its setup to
    its end, each with a decision pending."""
    engine = games.get(game_id)
    states = random_game(engine, PLAYERS, seed)
    stride = max(1, len(states) // SAMPLED)
    return [(seq, s) for seq, s in enumerate(states) if seq % stride == 0 and engine.decisions(s)]


def every_panel(game: LiveGame) -> Iterator[str]:
    """Every pending decision's panel in the game's state: each language, each page, and a
    confirmed menu's first option picked; what Discord is sent (text and components)."""
    for decision in game.decisions():
        for locale in LANGUAGES:
            variants = [{"page": page} for page in range(pages(decision))]
            if uses_confirm(decision):
                variants.append({"picked": frozenset({decision.options[0].id})})
            for variant in variants:
                content, view = build_panel(game, decision.seat, decision, locale, **variant)
                shown = {"content": content, "components": view.to_components()}
                yield json.dumps(shown, sort_keys=True, ensure_ascii=False)


def as_the_bot_builds_them(game_id: str) -> list[str]:
    """One live game moved through the sampled states, as the bot's is move after move."""
    engine = games.get(game_id)
    (_, first), *_ = sampled = sampled_states(game_id)
    game = model_game(engine, first, PLAYERS)
    shown: list[str] = []
    for seq, state in sampled:
        game.state, game.seq = state, seq
        shown += every_panel(game)
    return shown


def from_nothing(game_id: str) -> list[str]:
    """A fresh live game for each sampled state."""
    engine = games.get(game_id)
    shown: list[str] = []
    for seq, state in sampled_states(game_id):
        shown += every_panel(model_game(engine, state, PLAYERS, seq=seq))
    return shown


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_a_panel_is_the_same_whatever_the_bot_remembers(game_id, monkeypatch):
    kept = as_the_bot_builds_them(game_id)
    # every message rendered afresh, as before the rendered words were kept
    monkeypatch.setattr(catalogues, "_render_msg", catalogues._render_fresh)
    fresh = from_nothing(game_id)
    assert len(kept) == len(fresh) > 3 * SAMPLED
    for one, other in zip(kept, fresh, strict=True):
        assert one == other
