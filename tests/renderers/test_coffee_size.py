"""Coffee Traders' table picture stays under 60 KiB at every player count (issue 29 item 5),
sent as the bot sends it (`bot/render.flat_png`).

Each count's busiest table is the largest picture found in random games (seeds 0-39 at 5
players, 0-29 at 2-4; every other move of the last quarter, and the end): late in period III,
when the plantations, Coffee Bars, contracts and company boards are fullest. Measured with
the encoder of 27 November 2026: 51.7 KiB at 5 players, 48.3 at 4, 43.3 at 3 and 42.9 at 2
against André; 64.7, 59.3, 54.7 and 53.5 KiB before the text's edges kept one shade
(`coffee.TEXT_EDGE`) and the boards' columns lay on whole pixels (`coffee.columns`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeple_hall import games
from meeple_hall.bot.render import MAX_PICTURE_BYTES, flat_png
from meeple_hall.games.coffee import engine
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices, random_game
from meeple_hall.renderers import coffee

# players: (seed, moves) of the busiest table found
BUSIEST = {2: (1, 133), 3: (21, 250), 4: (11, 281), 5: (26, 369)}


def view_after(players: int, seed: int, moves: int) -> dict[str, Any]:
    """The spectator's view after `moves` moves of a seeded random game."""
    rng = random.Random(seed)
    state = engine.new(players, seed)
    for _ in range(moves):
        decision = rng.choice(engine.decisions(state))
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    return engine.view(state, None)


@pytest.mark.parametrize("players", sorted(BUSIEST))
def test_the_busiest_table_is_under_60_kib(players: int) -> None:
    view = view_after(players, *BUSIEST[players])
    assert view["period"] == 3 and (view["andre"] is not None) == (players == 2)
    size = len(flat_png(coffee.render(view)))
    assert size <= MAX_PICTURE_BYTES == 60 * 1024, f"{size / 1024:.1f} KiB"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_5_player_table_is_under_60_kib_at_every_stage(seed: int) -> None:
    """bench/game_figures.py's 5-player games (issue 29 item 5: "at every stage"): the table
    when period II begins, half-way, three quarters in and at the end, as the bot encodes
    it. Measured 27 November 2026 (session 14): 45.3-51.4 KiB over seeds 1-3; with every
    shade of a glyph's edge (`coffee.TEXT_EDGE` undone) each seed passes 60 KiB half-way or
    three quarters in (60.1, 60.0 and 61.1 KiB)."""
    states = random_game(games.get("coffee"), 5, seed)
    period_two = next(index for index, state in enumerate(states) if state.period == 2)
    for index in (period_two, len(states) // 2, 3 * len(states) // 4, len(states) - 1):
        view = engine.view(states[index], None)
        size = len(flat_png(coffee.render(view)))
        assert size <= MAX_PICTURE_BYTES, f"move {index}: {size / 1024:.1f} KiB"


@pytest.mark.parametrize(("value", "size"), [("48", 46), ("1/2", 15), ("7", 11)])
def test_a_glyph_s_edge_keeps_one_shade(value: str, size: int) -> None:
    """Type, its edge and nothing else: the shades FreeType gives an edge were nearly all of
    a table's bytes in its text."""
    _, _, mask = coffee.glyphs(value, size)
    assert {value for value, count in enumerate(mask.histogram()) if count} == {0, 128, 255}
