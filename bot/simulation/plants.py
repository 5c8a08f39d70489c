"""Bugs the simulator plants in the bot from outside, to prove each invariant can fail:
each is a monkeypatch of one bot class or function, applied at the season's start and
undone at its end. The bot's own code has no switch for them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meeple_hall.bot import display
from meeple_hall.bot.clocks import ClockService
from meeple_hall.bot.commits import CommitPath
from meeple_hall.bot.delivery import TRIES, Redelivery
from meeple_hall.bot.store import TableStatus

from . import invariants

if TYPE_CHECKING:
    from .run import Sim

Undo = Callable[[], None]


def patch(owner: Any, name: str, replacement: Any) -> Undo:
    original = getattr(owner, name)
    setattr(owner, name, replacement)
    return lambda: setattr(owner, name, original)


def drop_reminder(sim: Sim) -> Undo:
    """The first wait armed for an awaited seat is not scheduled at all."""
    original = ClockService._schedule
    dropped: list[Any] = []

    def schedule(self: ClockService, key: Any) -> None:
        row = self.rows.get(key)
        if not dropped and row is not None and row.since is not None:
            dropped.append(key)
            self.scheduler.at(key, None)
            return
        original(self, key)

    return patch(ClockService, "_schedule", schedule)


def secret_in_caption(sim: Sim) -> Undo:
    """The table's caption (its embed) names one of the first seat's hidden tiles."""
    original = display.table_embed

    def embed(game: Any, locale: str, notes: Any = None) -> Any:
        shown = original(game, locale, notes)
        hidden = sorted(invariants.hidden_ids(game, 0))
        if hidden:
            shown.description = f"{shown.description or ''}\n{hidden[0]}"
        return shown

    return patch(display, "table_embed", embed)


def skip_notice_after_fault(sim: Sim) -> Undo:
    """A turn DM that failed on a Discord error is never sent again. (The plant makes sure
    such an error happens: every player's DMs fail on every try for a while.)"""
    original = Redelivery.again

    def again(self: Redelivery, key: Any) -> None:
        if isinstance(key, tuple) and key[0] == "dm":
            return  # the planted bug: forgotten
        original(self, key)

    for player in sim.world.players():
        if player.behaviour != "dms_closed":
            sim.env.inject_error(
                "POST",
                f"/channels/{player.member.user.dm_channel.id}/messages",
                status=503,
                times=10 * TRIES,
            )
    return patch(Redelivery, "again", again)


def apply_twice(sim: Sim) -> Undo:
    """One player's move, when the decision after it offers the same answer, is applied
    and logged a second time."""
    original = CommitPath.apply_once
    doubled: list[int] = []

    async def apply_once(
        self: CommitPath, game: Any, actions: Any, user_id: Any, folded: Any
    ) -> None:
        await original(self, game, actions, user_id, folded)
        if (
            doubled
            or user_id is None
            or len(actions) != 1
            or game.table.status is not TableStatus.ACTIVE
        ):
            return
        action = actions[0]
        follows = game.decision_for(action.seat)
        offered = {o.id for o in follows.options} if follows else set()
        if follows is not None and set(action.choices) <= offered and action.choices:
            doubled.append(game.id)
            await original(self, game, actions, user_id, folded)

    return patch(CommitPath, "apply_once", apply_once)


def dms_in_english(sim: Sim) -> Undo:
    """Every DM is written in English, whatever its reader chose."""
    return patch(display.TableDisplay, "dm_locale", lambda self, prefs, table: "en")


# name -> (the invariant that must catch it, what it does, the plant)
PLANTS: dict[str, tuple[str, str, Callable[[Sim], Undo]]] = {
    "drop_reminder": ("progress", "drop one reminder", drop_reminder),
    "secret_in_caption": ("secrets", "show one secret in a caption", secret_in_caption),
    "skip_notice_after_fault": ("notices", "skip notices after a fault", skip_notice_after_fault),
    "apply_twice": ("exactly_once", "apply one move twice", apply_twice),
    "dms_in_english": ("language", "write every DM in English", dms_in_english),
}


def apply(name: str, sim: Sim) -> Undo:
    return PLANTS[name][2](sim)
