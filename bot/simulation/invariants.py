"""The season's invariants, one named function each, checked after every step. Each
returns what it found wrong (an empty list when all holds); `check_all` runs them all.

They read the store, the bot's live games (never changing them) and what SimCord recorded
as delivered: every message in every channel and DM, each version of it once."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from meeple_hall import games
from meeple_hall.bot import snapshots
from meeple_hall.bot.i18n import game_name, t
from meeple_hall.bot.ratings import rebuild
from meeple_hall.bot.store import TableStatus
from meeple_hall.games.core.contract import Action
from meeple_hall.games.core.undo import standing

from . import pictures, tournament_checks
from .world import Player

if TYPE_CHECKING:
    from .run import Sim

# A notice may be late (Discord failed; bot/delivery.py retries after 1, 5, 15 minutes,
# then every 15), never lost: one missing after this long is.
GRACE = timedelta(minutes=50)
QUIET = (22, 7)  # the quiet hours the quiet players set, in UTC
SECRET_ID = re.compile(r"^[A-Z]{1,3}\d{1,3}[a-z]?$")


# -- what was delivered -------------------------------------------------------------------------
@dataclass(frozen=True)
class Delivery:
    """One version of one bot message, and who may see it (None: everyone in the channel)."""

    channel_id: int
    message: Any  # SimCord's stored message
    viewer: int | None
    is_dm: bool

    def words(self) -> str:
        """What the reader reads: content, embeds, labels and menu lines."""
        m = self.message
        parts = [m.content or ""]
        for embed in m.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [(embed.get("footer") or {}).get("text") or ""]
            parts += [(embed.get("author") or {}).get("name") or ""]
            for f in embed.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
        for c in components(m):
            parts += [c.get("label") or "", c.get("placeholder") or ""]
            parts += [o.get("label") or "" for o in c.get("options") or []]
            parts += [o.get("description") or "" for o in c.get("options") or []]
        return "\n".join(p for p in parts if p)

    def everything(self) -> str:
        """The words and what the client holds unseen: custom ids and option values."""
        ids = [c.get("custom_id") or "" for c in components(self.message)]
        ids += [
            o.get("value") or "" for c in components(self.message) for o in c.get("options") or []
        ]
        return "\n".join([self.words(), *ids])


def components(message: Any) -> Iterator[dict]:
    for row in message.components or []:
        if isinstance(row, dict):
            yield from row.get("components", [])


def new_deliveries(sim: Sim) -> list[Delivery]:
    """Bot messages (or new versions of them) since the last check."""
    seen: dict[int, tuple] = sim.memory.setdefault("seen", {})
    people = {p.id for p in sim.world.players()} | {s.moderator.id for s in sim.world.servers}
    dm_owner = {p.member.user.dm_channel.id: p.id for p in sim.world.players()}
    out = []
    for channel_id, messages in sim.env.backend.messages.items():
        for message in list(messages.values()):
            if message.author_id in people:
                continue
            version = (message.edited_timestamp, message.content, len(message.embeds))
            if seen.get(message.id) == version:
                continue
            seen[message.id] = version
            if channel_id in dm_owner:
                out.append(Delivery(channel_id, message, dm_owner[channel_id], True))
            elif message.is_ephemeral:
                user = ((message.interaction_metadata or {}).get("user") or {}).get("id")
                out.append(Delivery(channel_id, message, int(user) if user else None, False))
            else:
                out.append(Delivery(channel_id, message, None, False))
    return out


# -- 1. exactly once ---------------------------------------------------------------------------
async def tables(sim: Sim) -> list[Any]:
    found = []
    for server in sim.world.servers:
        found += await sim.bot.store.guild_tables(server.guild.id)
    return [t for t in found if t.status is not TableStatus.LOBBY and t.started_at is not None]


async def exactly_once(sim: Sim) -> list[str]:
    """Every acknowledged move is in the log once, in order; the live state is the log
    replayed; the latest snapshot is the log replayed to its move."""
    problems = []
    checked: dict[int, tuple] = sim.memory.setdefault("replayed", {})
    store = sim.bot.store
    for table in await tables(sim):
        entries = await store.actions(table.id)
        game = sim.bot.manager.get(table.id)
        key = (len(entries), id(game), game.seq if game else None, table.status)
        if checked.get(table.id) == key:
            continue
        checked[table.id] = key
        problems += log_in_order(table.id, entries)
        problems += ledger_agrees(sim, table.id, entries)
        engine = games.get(table.game)
        if game is not None and table.status is TableStatus.ACTIVE:
            if game.seq != len(entries):
                problems.append(
                    f"table {table.id}: live at move {game.seq}, log has {len(entries)}"
                )
            elif not snapshots.same_game(
                engine, game.state, snapshots.replayed(engine, table, entries)
            ):
                problems.append(f"table {table.id}: the live state is not its log replayed")
        snapshot = await store.latest_snapshot(table.id)
        if (
            snapshot is not None
            and snapshot.seq
            and not snapshots.snapshot_agrees(engine, table, snapshot, entries)
        ):
            problems.append(f"table {table.id}: snapshot at move {snapshot.seq} is not the replay")
    return problems


def log_in_order(table_id: int, entries: list[Any]) -> list[str]:
    seqs = [e.seq for e in entries]
    if seqs != list(range(1, len(seqs) + 1)):
        return [f"table {table_id}: log numbers {seqs[:5]}… are not 1, 2, 3 …"]
    return []


def ledger_agrees(sim: Sim, table_id: int, entries: list[Any]) -> list[str]:
    """No move the bot acknowledged to a player is missing from the log (a chained line
    counts with its first). A move applied whose every reply Discord lost is in the log
    unacknowledged; each command's moves are checked against what was typed as it runs
    (actions.play_turn), so none is there twice."""
    logged = Counter(e.user_id for e in entries if e.user_id is not None and not e.chained)
    users = set(logged) | {u for (tid, u) in sim.acked if tid == table_id}
    return [
        f"table {table_id}: user {u} was acknowledged {sim.acked[(table_id, u)]} moves, "
        f"the log has {logged[u]}"
        for u in sorted(users)
        if logged[u] < sim.acked[(table_id, u)]
    ]


# -- 2. progress -------------------------------------------------------------------------------
async def progress(sim: Sim) -> list[str]:
    """Every game in play awaits a human with a deadline or a reminder scheduled, or an AI
    seat that has moved by the time a step has settled; a game paused (its channel
    deleted) is exempt until it is reopened, and in play again once it is; every
    tournament round ends (tournament_checks.rounds_end)."""
    problems = []
    scheduler = sim.bot.clocks.scheduler
    reopened: dict[int, int] = sim.memory.get("reopened", {})
    for table in await tables(sim):
        if table.status is not TableStatus.ACTIVE:
            continue
        if table.id in reopened and (
            table.paused_at is not None or table.channel_id != reopened[table.id]
        ):
            problems.append(
                f"table {table.id}: reopened in channel {reopened[table.id]}, still paused "
                f"(in channel {table.channel_id})"
            )
            del reopened[table.id]
        if table.paused_at is not None:
            continue
        game = sim.bot.manager.get(table.id)
        awaiting = [d.seat for d in game.decisions()] if game else list(table.awaiting or ())
        humans = [s for s in awaiting if not table.seats[s].ai]
        if awaiting and not humans:
            problems.append(f"table {table.id}: only AI seats {awaiting} awaited, none moved")
        elif humans and not any(scheduler.when((table.id, s)) for s in humans):
            problems.append(
                f"table {table.id} ({table.game}): seats {humans} awaited at move "
                f"{game.seq if game else '?'} with no deadline or reminder scheduled"
            )
    return problems + await tournament_checks.rounds_end(sim)


# -- 3. secrets --------------------------------------------------------------------------------
def leaves(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from leaves(v, key)
    elif isinstance(value, str):
        yield key, value


def hidden_ids(game: Any, seat: int) -> set[str]:
    """The ids of things only this seat sees: in its view, nowhere in the spectator's."""
    public = {v for _, v in leaves(game.view(None))}
    return {
        v
        for k, v in leaves(game.view(seat))
        if k == "id" and SECRET_ID.match(v) and v not in public
    }


def named(ids: set[str], text: str) -> list[str]:
    """The ids the text names (as whole tokens), sorted."""
    return sorted(i for i in ids if re.search(rf"(?<![A-Za-z0-9]){i}(?![A-Za-z0-9])", text))


def picture_ids(sim: Sim, delivery: Delivery) -> set[str]:
    """The ids of things in the views the message's pictures were drawn from."""
    return {
        v
        for view in pictures.views_shown(sim, delivery.message)
        for k, v in leaves(view)
        if k == "id"
    }


def secrets(sim: Sim, fresh: list[Delivery]) -> list[str]:
    """No text, component or picture another user can see holds a seat's hidden ids (a
    picture by the view it was drawn from: pictures.py)."""
    problems = []
    for game in sim.live_games():
        cid = game.table.channel_id
        mine = [
            d
            for d in fresh
            if d.channel_id == cid or (d.is_dm and f"<#{cid}>" in d.message.content)
        ]
        if not mine:
            continue
        for seat, held in enumerate(game.table.seats):
            hidden = hidden_ids(game, seat)
            for delivery in mine:
                if delivery.viewer is not None and delivery.viewer == held.user_id:
                    continue
                shown = named(hidden, delivery.everything())
                drawn = sorted(hidden & picture_ids(sim, delivery))
                who = "everyone" if delivery.viewer is None else f"user {delivery.viewer}"
                if shown:
                    problems.append(
                        f"table {game.id} seat {seat}: {shown} shown to {who} in message "
                        f"{delivery.message.id}"
                    )
                if drawn:
                    problems.append(
                        f"table {game.id} seat {seat}: {drawn} drawn in a picture shown to "
                        f"{who} in message {delivery.message.id}"
                    )
    return problems


def ids_in(view: Any) -> set[str]:
    """The secret-like ids (tiles, cards) a view holds."""
    return {v for k, v in leaves(view) if k == "id" and SECRET_ID.match(v)}


async def never_revealed(sim: Sim, table_id: int) -> dict[int, set[str]]:
    """By seat, the ids the seat held hidden at some moment of an ended game that the game
    never revealed: in the spectators' view at no moment, the end included. (A seat's own
    view at the end reveals nothing to the others: a game ended early, by a resignation
    or an abandonment, ends with every hand still in it.)"""
    known: dict[int, dict[int, set[str]]] = sim.memory.setdefault("never_revealed", {})
    if table_id in known:
        return known[table_id]
    table = await sim.bot.store.get_table(table_id)
    engine = games.get(table.game)
    seats = range(len(table.seats))
    state = engine.new(len(table.seats), table.seed, table.options)
    held: dict[int, set[str]] = {seat: set() for seat in seats}
    public: set[str] = set()
    for entry in [None, *standing(await sim.bot.store.actions(table_id))]:
        if entry is not None:
            state = engine.apply(state, Action(entry.seat, tuple(entry.choices)))
        shown = ids_in(engine.view(state, None))
        public |= shown
        for seat in seats:
            held[seat] |= ids_in(engine.view(state, seat)) - shown
    known[table_id] = {seat: ids - public for seat, ids in held.items()}
    return known[table_id]


async def review_secrets(sim: Sim, fresh: list[Delivery]) -> list[str]:
    """A review (the messages the simulated players' Review clicks were answered with) shows
    no seat's secret that the ended game never revealed, but to that seat's own player."""
    reviews: dict[int, tuple[int, int]] = sim.memory.get("reviews", {})
    problems = []
    for delivery in fresh:
        if delivery.message.id not in reviews:
            continue
        table_id, reader = reviews[delivery.message.id]
        table = await sim.bot.store.get_table(table_id)
        for seat, kept in (await never_revealed(sim, table_id)).items():
            shown = named(kept, delivery.everything())
            if shown and table.seats[seat].user_id != reader:
                problems.append(
                    f"table {table_id} seat {seat}: {shown}, never revealed, shown in its "
                    f"review to user {reader} (message {delivery.message.id})"
                )
    return problems


# -- 4. language -------------------------------------------------------------------------------
KANA = re.compile(r"[\u3040-\u30fa\u30fc-\u30ff]")  # not ・ (U+30FB), a joiner in every language
HAN = re.compile(r"[\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"\b[A-Za-z]{4,}\b")
# Not words of the text's language: mentions, code, links, and the languages' own names
# (a /settings answer names the language chosen in that language).
NOT_WORDS = re.compile(r"<[^>]*>|`[^`]*`|https?://\S+|\*\*|[_~|]|English|繁體中文|日本語")


def language_of_text(text: str) -> str | None:
    """en, ja or zh-TW, as far as the text tells (None: no words to tell by)."""
    text = NOT_WORDS.sub(" ", text)
    if KANA.search(text):
        return "ja"
    if HAN.search(text):
        return "zh-TW"
    return "en" if LATIN_WORD.search(text) else None


def expected_language(sim: Sim, delivery: Delivery) -> str:
    if delivery.viewer is not None:
        player = sim.world.player(delivery.viewer)
        return (player.language if player else None) or "en"
    return sim.server_language(delivery.channel_id)


def language(sim: Sim, fresh: list[Delivery]) -> list[str]:
    """Every text a user sees is in the language the rules give them: theirs (/settings)
    for replies and DMs, the server's for posts."""
    problems = []
    # names are no words of a language: the players', and the tournaments' (a default
    # name is made in the server's language, and kept whoever reads it)
    names = {p.member.user.name for p in sim.world.players()}
    names |= sim.memory.get("tournament_names", set())
    for delivery in fresh:
        text = delivery.words()
        for name in names:
            text = text.replace(name, " ")
        found = language_of_text(text)
        wanted = expected_language(sim, delivery)
        if found is not None and found != wanted:
            problems.append(
                f"message {delivery.message.id} to "
                f"{'everyone' if delivery.viewer is None else delivery.viewer} is in {found}, "
                f"not {wanted}: {clip(text)!r}"
            )
    return problems


def clip(text: str, most: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= most else text[: most - 1] + "…"


# -- 5. notices --------------------------------------------------------------------------------
def quiet_at(player: Player, moment: datetime) -> bool:
    start, end = QUIET
    return player.behaviour == "quiet" and (moment.hour >= start or moment.hour < end)


def turn_dms(sim: Sim, player: Player, game: Any) -> frozenset[int]:
    """The turn DMs the player holds for this game's channel (their message ids)."""
    lang = player.language or "en"
    cid = game.table.channel_id
    head = t(
        lang,
        "dm.your_turn",
        game=game_name(lang, game.table.game),
        channel=cid,
        prompt="\0",
        link="",
    )
    head = head.split("\0")[0]
    channel = sim.env.backend.messages.get(player.member.user.dm_channel.id, {})
    return frozenset(m.id for m in channel.values() if m.content.startswith(head))


def mentions(sim: Sim, player: Player, game: Any) -> frozenset[int]:
    """The messages of the game's channel that mention the player (their ids: a message
    deleted since, as a table message a moderator deleted, takes no later one's place)."""
    channel = sim.env.backend.messages.get(game.table.channel_id, {})
    return frozenset(m.id for m in channel.values() if f"<@{player.id}>" in (m.content or ""))


NONE_YET: tuple[frozenset, frozenset] = (frozenset(), frozenset())


def notices(sim: Sim, fresh: list[Delivery]) -> list[str]:
    """Every turn change reaches the awaited player (a DM; a mention in the channel when
    their DMs are closed or it is their quiet time) and the table message shows the game
    as it stands, possibly late, never lost."""
    now = sim.env.now()
    note_shown(sim, fresh)
    pending: dict[tuple[int, int], tuple] = sim.memory.setdefault("notices", {})
    before: set = sim.memory.setdefault("awaited", set())
    counted: dict[tuple[int, int], tuple[frozenset, frozenset]] = sim.memory.setdefault("told", {})
    awaited_now, counts = set(), {}
    problems = []
    games = sim.live_games()
    for game in games:
        for held in game.table.seats:
            player = sim.world.player(held.user_id) if held.user_id else None
            if player is not None:
                counts[(game.id, player.id)] = (
                    turn_dms(sim, player, game),
                    mentions(sim, player, game),
                )
        for decision in game.decisions():
            held = game.table.seats[decision.seat]
            player = sim.world.player(held.user_id) if held.user_id and not held.ai else None
            if player is None:
                continue
            key = (game.id, decision.seat)
            awaited_now.add(key)
            if key not in before:  # told since the last check, or to be told
                pending[key] = (now, player, game, *counted.get((game.id, player.id), NONE_YET))
        problems += table_shown(sim, game, now)
    # A game the bot has not loaded since it restarted (it loads a game on its first use)
    # is awaited as it was: nothing changes it before it is loaded again. Without this, a
    # seat awaited all along would count as newly awaited, owed a turn DM, once loaded.
    loaded = {game.id for game in games}
    awaited_now |= {key for key in before if key[0] not in loaded}
    for key in list(pending):
        since, player, game, dms, said = pending[key]
        by_channel = player.behaviour == "dms_closed" or quiet_at(player, since)
        told = counts.get((game.id, player.id), NONE_YET)
        reached = bool(told[1] - said) if by_channel else bool(told[0] - dms)
        if key not in awaited_now or reached:
            del pending[key]
        elif now - since > GRACE:
            del pending[key]
            problems.append(
                f"table {game.id} seat {key[1]}: awaited since {since:%d %H:%M}, "
                f"{'no mention in the channel' if by_channel else 'no turn DM'} after {GRACE}"
            )
    sim.memory["awaited"], sim.memory["told"] = awaited_now, counts
    return problems


def note_shown(sim: Sim, fresh: list[Delivery]) -> None:
    """Remember the latest move each table's message has shown (its footer: table number,
    then move number), whatever became of that message since."""
    shown: dict[int, int] = sim.memory.setdefault("shown", {})
    for delivery in fresh:
        for embed in delivery.message.embeds:
            numbers = re.findall(r"\d+", (embed.get("footer") or {}).get("text") or "")
            if len(numbers) >= 2:
                table, move = int(numbers[0]), int(numbers[-1])
                shown[table] = max(shown.get(table, 0), move)


def table_shown(sim: Sim, game: Any, now: datetime) -> list[str]:
    """A table message has shown the live move (after GRACE at one move)."""
    since: dict[int, tuple[int, datetime]] = sim.memory.setdefault("since", {})
    told: dict[int, int] = sim.memory.setdefault("late", {})
    seq, first = since.get(game.id, (None, now))
    if seq != game.seq:
        since[game.id] = (game.seq, now)
        return []
    if now - first <= GRACE or told.get(game.id) == seq:
        return []
    if sim.memory.get("shown", {}).get(game.id, -1) < game.seq:
        told[game.id] = game.seq
        return [f"table {game.id}: no table message showed move {game.seq} after {GRACE}"]
    return []


# -- 6. community ------------------------------------------------------------------------------
async def community(sim: Sim) -> list[str]:
    """Ratings equal their rebuild from the results; every finished game has one result
    row per seat; each tournament's standings equal their recomputation from the results
    and its pairings are valid (tournament_checks)."""
    problems = []
    store = sim.bot.store
    for server in sim.world.servers:
        for game_id in games.ids():
            rows = await store.results_since(game=game_id, guild_id=server.guild.id)
            if not rows:
                continue
            unrated = frozenset(
                await store.tables_with_setting(game=game_id, name="rated", value="no")
            )
            truth = rebuild(rows, unrated)
            book = await sim.bot.ratings.book(game_id, server.guild.id)
            for user, rating in truth.players.items():
                kept = book.players.get(user)
                if kept is None or (kept.mu, kept.sigma, kept.games) != (
                    rating.mu,
                    rating.sigma,
                    rating.games,
                ):
                    problems.append(
                        f"{game_id} on server {server.guild.id}: rating of {user} is not "
                        "its rebuild"
                    )
    for table in await tables(sim):
        if table.status is TableStatus.FINISHED:
            rows = [
                r
                for r in await store.results(game=table.game, guild_id=table.guild_id)
                if r.table_id == table.id
            ]
            if len(rows) != len(table.seats):
                problems.append(
                    f"table {table.id}: {len(rows)} result rows for {len(table.seats)} seats"
                )
    for tournament in await tournament_checks.all_tournaments(sim):
        problems += await tournament_checks.standings_agree(sim, tournament)
        problems += await tournament_checks.pairings_valid(sim, tournament)
    return problems


async def check_all(sim: Sim) -> list[tuple[str, list[str]]]:
    fresh = new_deliveries(sim)
    return [
        ("exactly_once", await exactly_once(sim)),
        ("progress", await progress(sim)),
        ("secrets", secrets(sim, fresh) + await review_secrets(sim, fresh)),
        ("language", language(sim, fresh)),
        ("notices", notices(sim, fresh)),
        ("community", await community(sim)),
    ]
