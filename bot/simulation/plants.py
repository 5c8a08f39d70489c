"""Bugs the simulator plants in the bot from outside, to prove each invariant can fail:
each is a monkeypatch of one bot class or function, applied at the season's start and
undone at its end. The bot's own code has no switch for them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meeple_hall.bot import display, pairing, review, rulebook
from meeple_hall.bot.clocks import ClockService
from meeple_hall.bot.cogs import hint, play
from meeple_hall.bot.delivery import TRIES, Redelivery
from meeple_hall.bot.live import TableManager
from meeple_hall.bot.render import TablePictures, encode_png, pool
from meeple_hall.bot.store import TableStatus
from meeple_hall.bot.tournaments import Tournaments

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


def mention_taken_back(sim: Sim) -> Undo:
    """The table, shown again at the same move right after a post (as when the AI's word on
    a move comes in while its post goes out), is edited with no content: the post's mention
    is taken back (finding 9, as the bot did). (The plant closes every player's DMs, so
    that the mention is each turn's notice.)"""
    original = display.TableDisplay.publish

    async def publish(self: display.TableDisplay, game: Any) -> None:
        posted_before = game.table.table_message_id
        await original(self, game)
        if game.table.table_message_id != posted_before:
            self._dirty.add(game.id)  # shown again, in place

    for player in sim.world.players():
        player.behaviour = "dms_closed"
    undo_publish = patch(display.TableDisplay, "publish", publish)
    undo_line = patch(
        display.TableDisplay, "_mention_kept", lambda self, game, acting, locale: {"content": None}
    )

    def undo() -> None:
        undo_publish()
        undo_line()

    return undo


def move_path() -> tuple[Any, str]:
    """Where one seat's move is applied and logged once: `CommitPath.apply_once` since
    bot/live.py was split into smaller modules (`TableManager._apply_once` before)."""
    try:
        from meeple_hall.bot.commits import CommitPath
    except ImportError:
        return TableManager, "_apply_once"
    return CommitPath, "apply_once"


def apply_twice(sim: Sim) -> Undo:
    """One player's move, when the decision after it offers the same answer, is applied
    and logged a second time."""
    owner, name = move_path()
    original = getattr(owner, name)
    doubled: list[int] = []

    async def apply_once(self: Any, game: Any, actions: Any, user_id: Any, folded: Any) -> None:
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

    return patch(owner, name, apply_once)


def dms_in_english(sim: Sim) -> Undo:
    """Every DM is written in English, whatever its reader chose."""
    return patch(display.TableDisplay, "dm_locale", lambda self, prefs, table: "en")


def secret_in_picture(sim: Sim) -> Undo:
    """The table picture is drawn from the first seat's view, secrets and all."""

    async def latest(self: TablePictures, game: Any) -> tuple[int, bytes]:
        seq = game.seq
        data = await pool.run_latest(game.table.game, encode_png, lambda: (game.view(0),))
        return seq, self._keep(game.id, seq, data)

    return patch(TablePictures, "latest", latest)


def pair_someone_twice(sim: Sim) -> Undo:
    """A round's first seated player is also given a bye in it."""
    original = Tournaments._pair

    async def pair(self: Tournaments, tournament: Any, round_no: int) -> pairing.Pairing:
        paired = await original(self, tournament, round_no)
        if not paired.tables:
            return paired
        return dataclasses.replace(paired, byes=(*paired.byes, paired.tables[0][0]))

    sim.memory["often"] = "organise"
    return patch(Tournaments, "_pair", pair)


def standings_forget_leavers(sim: Sim) -> Undo:
    """A player who dropped out (or was knocked out) vanishes from the standings."""
    original = Tournaments.standings

    async def ranked(self: Tournaments, tournament: Any) -> Any:
        playing = set(tournament.playing())
        return [s for s in await original(self, tournament) if s.user_id in playing]

    sim.memory["often"] = "organise"
    return patch(Tournaments, "standings", ranked)


def round_left_opening(sim: Sim) -> Undo:
    """A round's tables are opened, but the round is never marked as playing."""

    async def open_round(self: Tournaments, tournament: Any, round_no: int) -> None:
        rows = await self.store.tournament_tables(tournament.id, round_no)
        for row in rows:
            if row.state != "void":
                await self.open_table(tournament, row)

    sim.memory["often"] = "organise"
    return patch(Tournaments, "_open_round", open_round)


def reopen_keeps_it_paused(sim: Sim) -> Undo:
    """`/reopen` moves the game in the store, but the live game is not told: it stays
    paused where it is played (no table message, no clock)."""
    sim.memory["often"] = "delete_channel"
    return patch(TableManager, "note_table", lambda self, table: None)


def hint_in_rated_game(sim: Sim) -> Undo:
    """`/hint` is given in every game, rated and tournament games too."""

    async def anywhere(store: Any, table: Any) -> None:
        return None

    sim.memory["often"] = "hint"
    return patch(hint, "check_casual", anywhere)


def secret_in_hint(sim: Sim) -> Undo:
    """A hint's text names the next seat's hidden tiles."""
    original = hint.suggestion

    def suggestion(game: Any, seat: int, given: Any, locale: str) -> str:
        text = original(game, seat, given, locale)
        other = (seat + 1) % len(game.table.seats)
        return " ".join([text, *sorted(invariants.hidden_ids(game, other))])

    sim.memory["often"] = "hint"
    sim.memory["needed_game"] = "keyflower"  # the game with hidden tiles (winter tiles)
    sim.memory["table_options"] = "rated=no"  # casual tables, where hints are given
    return patch(hint, "suggestion", suggestion)


def rules_in_english(sim: Sim) -> Undo:
    """A rulebook topic is always shown in English, whatever its reader's language."""
    original = rulebook.topic_text
    sim.memory["often"] = "rules"
    return patch(rulebook, "topic_text", lambda found, locale: original(found, "en"))


def decision_picture_of_another_seat(sim: Sim) -> Undo:
    """A decision panel's picture is drawn from the next seat's view, secrets and all."""
    original = play.draw_decision

    def draw(game: Any, seat: int, decision: Any, table_first: Any) -> Any:
        return original(game, (seat + 1) % len(game.table.seats), decision, table_first)

    sim.memory["often"] = "rules"
    return patch(play, "draw_decision", draw)


def secret_in_review(sim: Sim) -> Undo:
    """A review ends with the ids of the tiles every seat held hidden at the game's start,
    whoever reads it: in Keyflower the winter tiles dealt, of which those a player never
    put in stay unrevealed. (The plant has the players sit at Keyflower tables, the game
    with id-shaped secrets, so that such games end and are reviewed.)"""
    original = review.review_content

    def content(told: Any, result: Any, turns: Any) -> str:
        start, engine = told.line.state_at(0), told.line.engine
        seats = range(len(told.table.seats))
        dealt = set().union(*(invariants.ids_in(engine.view(start, seat)) for seat in seats))
        hidden = dealt - invariants.ids_in(engine.view(start, None))
        return " ".join([original(told, result, turns), *sorted(hidden)])

    sim.memory["often"] = "sitting"
    sim.memory["needed_game"] = "keyflower"
    return patch(review, "review_content", content)


# name -> (the invariant that must catch it, what it does, the plant)
PLANTS: dict[str, tuple[str, str, Callable[[Sim], Undo]]] = {
    "drop_reminder": ("progress", "drop one reminder", drop_reminder),
    "secret_in_caption": ("secrets", "show one secret in a caption", secret_in_caption),
    "skip_notice_after_fault": ("notices", "skip notices after a fault", skip_notice_after_fault),
    "mention_taken_back": (
        "notices",
        "take a turn's mention back when the table is edited",
        mention_taken_back,
    ),
    "apply_twice": ("exactly_once", "apply one move twice", apply_twice),
    "dms_in_english": ("language", "write every DM in English", dms_in_english),
    "secret_in_picture": (
        "secrets",
        "draw the table picture from a seat's view",
        secret_in_picture,
    ),
    "pair_someone_twice": ("community", "seat a player twice in a round", pair_someone_twice),
    "standings_forget_leavers": (
        "community",
        "leave players who dropped out off the standings",
        standings_forget_leavers,
    ),
    "round_left_opening": ("progress", "never mark a round as playing", round_left_opening),
    "reopen_keeps_it_paused": (
        "progress",
        "keep a reopened game paused",
        reopen_keeps_it_paused,
    ),
    "hint_in_rated_game": ("hints", "give /hint in rated games", hint_in_rated_game),
    "secret_in_hint": ("secrets", "name another seat's hidden tiles in a hint", secret_in_hint),
    "rules_in_english": ("language", "show the rulebook in English", rules_in_english),
    "decision_picture_of_another_seat": (
        "secrets",
        "draw a panel's picture from another seat's view",
        decision_picture_of_another_seat,
    ),
    "secret_in_review": (
        "secrets",
        "name hidden tiles the game never revealed in a review",
        secret_in_review,
    ),
}


def apply(name: str, sim: Sim) -> Undo:
    return PLANTS[name][2](sim)
