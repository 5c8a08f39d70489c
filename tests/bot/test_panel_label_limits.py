"""No clipped button or menu line (issue 29): every panel of real positions, built as the bot
builds it (`build_panel`) in en, zh-TW and ja, shows each line's whole label, a button's
within Discord's 80 characters and a menu line's within 100. A panel of ten lines or fewer
shows buttons only where every label fits one; a longer label makes the panel a menu
(`panels.as_buttons`), where Discord clipped it at 80 before: a Coffee Traders plantation
with its row's farm, "Level 2 in Guatemala: row 2, space 1, from space 2 below, then a farm
in Indonesia" (81-99 characters in English, within a menu line's 100), on a plantation
panel of 4-10 lines.

The positions are Coffee Traders games at 2 to 5 players, played at random but planting and
selling more often than not (what makes the longest lines: a row of the player board
emptied, coffee to deliver), every pending decision's panel."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from meeple_hall import games
from meeple_hall.bot import presenters
from meeple_hall.bot.live_game import LiveGame
from meeple_hall.bot.panel_clicks import model_game
from meeple_hall.bot.panels import (
    BUTTON_LABEL_MAX,
    MAX_BUTTONS,
    MENU_LABEL_MAX,
    Line,
    ShownStyle,
    line_styles,
    offered_lines,
)
from meeple_hall.bot.panels import build_panel as build
from meeple_hall.bot.presenters import OptionStyle
from meeple_hall.games import Action, Decision, Option
from meeple_hall.games.testing import random_choices, random_game
from tests.bot.conftest import LANGUAGES

SELLING = ("bar", "buy")  # what a Sell turn takes where it can
# The games played, by players (each game's every panel in three languages: about 6 s of
# processor time): each reaches a plantation whose line takes its row's farm,
# 81-82 characters in English, on a panel of six lines (buttons before, clipped at 80).
SEEDS = {2: (4,), 3: (26,), 4: (19,), 5: (6,)}


def busy_playout(game_id: str, players: int, seed: int) -> Iterator[Any]:
    """Each state of a game with a decision pending: random answers, except that a Work turn
    adds a plantation seven times in ten where it may (rows of the player board empty, and a
    plantation's line takes the row's farm), and a Sell turn delivers or buys four times in
    five where it can (the Sell phase's folded lines come only where players hold coffee)."""
    engine = games.get(game_id)
    rng = random.Random(seed)
    state = engine.new(players, seed)
    while pending := engine.decisions(state):
        yield state
        decision = rng.choice(pending)
        planting = [o.id for o in decision.options if o.id == "plant"]
        selling = [o.id for o in decision.options if o.fields.get("action") in SELLING]
        if planting and rng.random() < 0.7:
            choices: tuple[str, ...] = (planting[0],)
        elif decision.kind in ("sell", "sell_second") and selling and rng.random() < 0.8:
            choices = (rng.choice(selling),)
        else:
            choices = tuple(random_choices(decision, rng))
        state = engine.apply(state, Action(decision.seat, choices))


def shown_labels(view: Any) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """A panel's option buttons (custom_id, label) and menu lines (value, label)."""
    buttons, lines = [], []
    for row in view.to_components():
        for item in row["components"]:
            if item["type"] == 2 and ":o:" in item.get("custom_id", ""):
                buttons.append((item["custom_id"], item.get("label", "")))
            elif item["type"] == 3:
                lines += [(o["value"], o["label"]) for o in item["options"]]
    return buttons, lines


def too_long(game: LiveGame, decision: Decision, locale: str) -> list[str]:
    """What the decision's panel in `locale` shows clipped or past Discord's limits."""
    _, view = build(game, decision.seat, decision, locale)
    lines = offered_lines(game, decision.seat, decision)
    styles: dict[str, ShownStyle] = line_styles(game.table.game, lines, locale)
    buttons, menu = shown_labels(view)
    wrong = []
    if buttons:  # a button for every line, in the lines' order
        for (custom_id, label), line in zip(buttons, lines, strict=True):
            whole = styles[line.value].label or ""
            if label != whole or len(label) > BUTTON_LABEL_MAX:
                wrong.append(f"button {custom_id}: {whole!r} ({len(whole)})")
    for value, label in menu:
        whole = (styles[value].label or "") if value in styles else label
        if label != whole or len(label) > MENU_LABEL_MAX:
            wrong.append(f"menu line {value}: {whole!r} ({len(whole)})")
    return wrong


# Each player count is a few thousand panels in three languages (about 6 s of processor time):
# the default run keeps 2 players (it fails there too without the rule), the rest are slow.
@pytest.mark.parametrize(
    "players", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 4, 5))]
)
def test_no_coffee_panel_clips_a_label_in_any_language(players):
    engine = games.get("coffee")
    wrong: list[str] = []
    for seed in SEEDS[players]:
        game: LiveGame | None = None
        for seq, state in enumerate(busy_playout("coffee", players, seed)):
            if game is None:
                game = model_game(engine, state, players)
            game.state, game.seq = state, seq
            for decision in game.decisions():
                for locale in LANGUAGES:
                    wrong += [
                        f"{players}p seed {seed} move {seq} {locale} {w}"
                        for w in too_long(game, decision, locale)
                    ]
    assert not wrong, "\n".join(wrong[:20])


class LongWords:
    """Coffee Traders' presenter, but one option of each decision worded past a button's 80
    characters (and within a menu line's 100) in every language."""

    def __init__(self, presenter: Any, long: str) -> None:
        self._presenter = presenter
        self.long = long

    def option_style(self, decision: Decision, option: Option) -> OptionStyle | None:
        style = self._presenter.option_style(decision, option) or OptionStyle()
        if option.id != decision.options[0].id:
            return style
        return OptionStyle(self.long, style.emoji, style.description)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._presenter, name)


def a_panel_of_buttons(engine: Any) -> tuple[Any, Decision, list[Line]]:
    """The first panel of a few single answers in a random 3-player game."""
    for state in random_game(engine, 3, 1):
        for decision in engine.decisions(state):
            if decision.max_choices == 1:
                game = model_game(engine, state, 3)
                lines = offered_lines(game, decision.seat, decision)
                if 1 < len(lines) <= MAX_BUTTONS:
                    return state, decision, lines
    raise AssertionError("no panel of buttons")


def test_a_label_too_long_for_a_button_makes_the_panel_a_menu(monkeypatch):
    """A panel of a few single answers (buttons) one of whose labels passes 80 characters is
    a menu, every label whole; the same panel with short labels keeps its buttons."""
    engine = games.get("coffee")
    state, decision, lines = a_panel_of_buttons(engine)
    game = model_game(engine, state, 3)
    for locale in LANGUAGES:
        buttons, menu = shown_labels(build(game, decision.seat, decision, locale)[1])
        assert len(buttons) == len(lines) and not menu

    long = "A" * (BUTTON_LABEL_MAX + 5)
    monkeypatch.setattr(
        presenters, "_FOUND", {"coffee": LongWords(presenters.for_game("coffee"), long)}
    )
    for locale in LANGUAGES:
        game = model_game(engine, state, 3)  # nothing kept from the panels before
        buttons, menu = shown_labels(build(game, decision.seat, decision, locale)[1])
        assert not buttons
        assert len(menu) == len(lines) and (decision.options[0].id, long) in menu
        assert not too_long(game, decision, locale)
