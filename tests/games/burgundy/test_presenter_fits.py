"""A die's panel line ("Die 4: Take Castle from depot 4") goes to a menu whole where it fits
one in every language (else the die's words go to the description): told from the lengths of
its two parts and the template's (bot/presenters/burgundy._fits_with_die), the same answer as
rendering it."""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot.presenters import MENU_LABEL_MAX, fits
from meeple_hall.bot.presenters import burgundy as presenter
from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.turn import die_label
from meeple_hall.games.burgundy.words import m
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices


def rendered_fits(die: object, move: object) -> bool:
    return fits(m("label.with_die", die=die, move=move), MENU_LABEL_MAX)


def moves_of_a_game() -> list[object]:
    """The labels of the actions and tiles offered in a seeded game (what follows a die)."""
    rng, state, found = random.Random(7), engine.new(4, 7), []
    for _ in range(300):
        pending = engine.decisions(state)
        if not pending:
            break
        found += [o.label for d in pending for o in d.options if d.kind != "die"]
        decision = pending[0]
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    return found


def test_a_line_fits_as_it_would_rendered() -> None:
    dice = [die_label(6, 6, 0), die_label(1, 3, 2), die_label(2, 1, 0), "Die"]
    # words near the limit (a plain text is shown as it is), then a game's labels
    moves: list[object] = ["x" * n for n in range(80, 101)] + ["字" * n for n in range(80, 101)]
    moves += moves_of_a_game()
    answers = {(die, move): rendered_fits(die, move) for die in dice for move in moves}
    assert {presenter._fits_with_die(die, move) for die, move in answers} == {True, False}
    assert [presenter._fits_with_die(d, mv) for d, mv in answers] == list(answers.values())


def test_a_template_it_cannot_measure_is_rendered(monkeypatch: pytest.MonkeyPatch) -> None:
    """A template that says a part twice (or formats it) is not told by its length."""
    presenter._with_die_extra.cache_clear()
    monkeypatch.setattr(presenter, "entry", lambda lang, key: "{die} {die}: {move}")
    try:
        assert presenter._with_die_extra("en") is None
        calls: list[object] = []
        monkeypatch.setattr(presenter, "fits", lambda text, most: calls.append(text) or True)
        assert presenter._fits_with_die("Die", "x" * 99)
        assert calls == [m("label.with_die", die="Die", move="x" * 99)]
    finally:
        presenter._with_die_extra.cache_clear()
