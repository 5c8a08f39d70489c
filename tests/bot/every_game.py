"""Helpers for bot tests that run on every game (the test rule, README "Contributing"):
what a test may say of any game without knowing its rules."""

from __future__ import annotations

import random
from dataclasses import dataclass

from meeple_hall import games
from meeple_hall.bot import table_settings
from meeple_hall.games.testing import random_choices


@dataclass(frozen=True)
class Choosable:
    """Something a lobby lets the host choose: a game's option, or for a game without any,
    a table setting (both are typed in `/new options:` and offered in the lobby's menus)."""

    name: str
    choices: tuple[str, ...]
    default: str
    is_setting: bool

    @property
    def other(self) -> str:
        """A choice that is not the default."""
        return next(c for c in self.choices if c != self.default)


def first_choosable(game_id: str) -> Choosable:
    options = games.get(game_id).options
    if options:
        first = options[0]
        return Choosable(first.id, tuple(c.id for c in first.choices), first.default, False)
    setting = table_settings.declared()[0]
    return Choosable(setting.id, setting.choices, setting.default, True)


def seats_needed(game_id: str) -> int:
    return games.get(game_id).min_players


def typed(game, seat: int, rng: random.Random | None = None) -> str:
    """A legal answer to the seat's current decision, as one `/move` token."""
    decision = game.decision_for(seat)
    assert decision is not None, f"seat {seat} has nothing to decide"
    return ",".join(random_choices(decision, rng or random.Random(seat))) or "none"


def acting_seat(game) -> int:
    """The first human seat the game awaits."""
    return next(d.seat for d in game.decisions() if not game.table.seats[d.seat].ai)


def lobby_menu_value(raw_lobby, name: str, value: str) -> tuple[str, str]:
    """The custom_id of the lobby menu that offers `name=value`, and the value to pick in
    it: the option's own menu, or a line of a shared one ("More options")."""
    from tests.bot.conftest import selects

    for menu in selects(raw_lobby):
        offered = [o["value"] for o in menu["options"]]
        if menu["custom_id"].endswith(f":opt:{name}") and value in offered:
            return menu["custom_id"], value
        if ":opts" in menu["custom_id"] and f"{name}={value}" in offered:
            return menu["custom_id"], f"{name}={value}"
    raise AssertionError(f"no lobby menu offers {name}={value}")
