"""What the simulated people do, each step through SimCord's public surface only: slash
commands, clicks and menus as a member, forged and stale clicks on copies of messages, and
a moderator deleting messages. The bot's own objects are only read (to know whose turn it
is), never called."""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING, Any

import discord

from meeple_hall import games
from meeple_hall.bot.i18n import t
from meeple_hall.games.testing import random_turn_tokens

from .world import Player, Server

if TYPE_CHECKING:
    from .run import Sim

# Options a table may be opened with: no clock, reminders only, a clock that times out;
# unrated (casual, where /hint is given).
TABLE_SETTINGS = (
    "remind=8h",
    "",
    "clock=24h",
    "clock=12h timeout=resign",
    "remind=24h",
    "rated=no",
    "rated=no remind=8h",
)
MOST_TOKENS = 12  # typed tokens in one /move


# -- reading what people see -------------------------------------------------------------
def raw_components(message: Any, kind: int) -> list[dict]:
    """A message's buttons (kind 2) or menus (3) as Discord sends them, whether the message
    is SimCord's stored one (dicts) or discord.py's (objects)."""
    rows = [row if isinstance(row, dict) else row.to_dict() for row in message.components or []]
    return [c for row in rows for c in row.get("components", []) if c.get("type") == kind]


def button_id(message: Any, label: str) -> str | None:
    for button in raw_components(message, 2):
        if button.get("label") == label and button.get("custom_id"):
            return button["custom_id"]
    return None


def stored(env: Any, channel_id: int, message_id: int) -> Any:
    return env.backend.get_message(channel_id, message_id)


def replied(result: Any) -> str:
    """Everything a command or click answered with, as one text."""
    texts = [getattr(result.response, "content", None) or ""]
    texts += [getattr(m, "content", None) or "" for m in getattr(result, "followups", [])]
    return "\n".join(texts)


# -- the world's first day ------------------------------------------------------------------
async def settle_in(sim: Sim) -> None:
    """Each server's language set (by command, where the server chose so), each player's
    /settings language, quiet hours and closed DMs."""
    for server in sim.world.servers:
        channel = server.channels[0]
        if server.set_by_command:
            await server.moderator.slash(channel, "settings", server_language=server.language)
        for player in server.players:
            if player.language is not None:
                await player.member.slash(channel, "settings", language=player.language)
            if player.behaviour == "quiet":
                await player.member.slash(channel, "settings", quiet_hours="22-07", utc_offset="+0")
            if player.behaviour == "dms_closed":
                sim.env.inject_error(
                    "POST",
                    f"/channels/{player.member.user.dm_channel.id}/messages",
                    status=403,
                    code=50007,
                    message="Cannot send messages to this user",
                    times=None,
                )


async def come_back(sim: Sim) -> None:
    """After a restart the bot loads a game on its first use: for each game in play that it
    has not loaded, a seated player looks at it (/hand), as players do."""
    for server in sim.world.servers:
        for channel in server.table_channels():
            if sim.live(channel.id) is not None:
                continue
            table = await sim.bot.store.open_table_in(channel.id)
            if table is None or table.status.value != "active":
                continue
            seated = [server.player(s.user_id) for s in table.seats if s.user_id]
            present = [p for p in seated if p is not None]
            if present:
                await sim.rng.choice(present).member.slash(channel, "hand")


# -- lobbies --------------------------------------------------------------------------------
def table_shape(rng: random.Random, game_id: str) -> tuple[int, int]:
    """(humans, AI seats): every player count of the game, Village solo (against Karla)
    and Coffee Traders at 2 (against André) included."""
    engine = games.get(game_id)
    seats = rng.randint(engine.min_players, min(engine.max_players, 4))
    if seats == 1:
        return 1, 0
    ai = rng.choice((0, 0, 1)) if seats > 2 else 0
    return seats - ai, ai


async def open_table(sim: Sim, server: Server, channel: Any) -> None:
    """A player opens a lobby in a free channel; others join (one of them may leave and
    another take the seat); AI seats are added; the host starts."""
    rng = sim.rng
    game_id = sim.next_game()
    humans, ai = table_shape(rng, game_id)
    people = rng.sample(server.players, humans)
    host = people[0]
    options = sim.memory.get("table_options") or rng.choice(TABLE_SETTINGS)
    extra = {"options": options} if options else {}
    await host.member.slash(channel, "new", game=game_id, **extra)
    lang = server.language
    lobby = newest_with(channel, t(lang, "lobby.join"))
    if lobby is None:  # the lobby's post failed: the host calls it off
        await host.member.slash(channel, "cancel")
        return
    if rng.random() < 0.2:
        leaver = rng.choice([p for p in server.players if p not in people])
        await leaver.member.click(lobby, label=t(lang, "lobby.join"))
        await leaver.member.click(channel_message(channel, lobby.id), label=t(lang, "lobby.leave"))
    for player in people[1:]:
        await player.member.click(channel_message(channel, lobby.id), label=t(lang, "lobby.join"))
    for _ in range(ai):
        await add_ai(host.member, channel_message(channel, lobby.id), lang, host.reads(server))
    await host.member.click(channel_message(channel, lobby.id), label=t(lang, "lobby.start"))
    game = sim.live(channel.id)
    if game is not None:
        sim.count_table(game_id)


def newest_with(channel: Any, label: str) -> Any:
    """The newest message in the channel with a button so labelled."""
    return next((m for m in reversed(channel.history()) if button_id(m, label)), None)


def channel_message(channel: Any, message_id: int) -> Any:
    return next(m for m in reversed(channel.history()) if m.id == message_id)


async def add_ai(member: Any, lobby: Any, lang: str, reader: str) -> None:
    """Add AI, then the random level (the quickest to think)."""
    asked = await member.click(lobby, label=t(lang, "lobby.add_ai"))
    levels = [b for b in raw_components(asked.response, 2) if b["custom_id"].endswith(":ai:random")]
    if levels:
        await member.click(asked.response, custom_id=levels[0]["custom_id"])


# -- moves ----------------------------------------------------------------------------------
def plan_tokens(game: Any, seat: int, rng: random.Random, most: int = MOST_TOKENS) -> list[str]:
    """`/move` tokens for the seat's next decisions, random legal answers worked out on a
    copy of the state, until another seat is asked."""
    return random_turn_tokens(game.engine, game.state, seat, rng, most)


def acknowledged_tokens(reply: str, tokens: list[str], lang: str) -> int:
    """How many of the typed tokens the bot said it applied."""
    if t(lang, "move.applied", moves=" ".join(tokens)) in reply:
        return len(tokens)
    for done in range(len(tokens) - 1, 0, -1):
        if t(lang, "move.partial", done=" ".join(tokens[:done])) in reply:
            return done
    return 0


async def play_turn(sim: Sim, game: Any, seat: int, player: Player) -> None:
    """The seat's player types their next decisions with /move; what the log gained from
    it is checked against what was typed and acknowledged."""
    channel = sim.world.channel(game.table.channel_id)
    tokens = plan_tokens(game, seat, sim.rng)
    if not tokens:
        return
    before = game.seq
    result = await player.member.slash(channel, "move", text=" ".join(tokens))
    done = acknowledged_tokens(replied(result), tokens, player.language or "en")
    sim.acknowledge(game.id, player.id, done)
    logged = await sim.bot.store.actions(game.id, after=before)
    mine = [e.choices for e in logged if e.user_id == player.id and not e.chained]
    typed = [tuple(token.split(",")) for token in tokens]
    if not same_moves(mine, typed[: done or len(mine)]):
        sim.note(
            "exactly_once", f"table {game.id}: /move {typed} acknowledged {done}, logged {mine}"
        )


def same_moves(logged: list[tuple[str, ...]], typed: list[tuple[str, ...]]) -> bool:
    """Whether the moves logged are the moves typed, in order. `none` is typed both for an
    empty choice and for an option whose id is `none` (Village has one)."""
    return len(logged) == len(typed) and all(
        done == wanted or (wanted == ("none",) and done == ())
        for done, wanted in zip(logged, typed, strict=True)
    )


async def bad_move(sim: Sim, game: Any, player: Player) -> None:
    """Text that is no move: refused, nothing changes."""
    channel = sim.world.channel(game.table.channel_id)
    text = sim.rng.choice(("zzz", "bid nowhere 99", "", "🎲" * 5, "x" * 300))
    await player.member.slash(channel, "move", text=text or " ")
    sim.acknowledge(game.id, player.id, 0)


async def stale_click(sim: Sim, game: Any, player: Player) -> None:
    """Take turn on an older table message (kept as the client still showed it)."""
    channel = sim.world.channel(game.table.channel_id)
    label = t(sim.server_language(channel.id), "table.take_turn")
    old = [m for m in channel.history() if button_id(m, label)]
    if len(old) < 2:
        return
    shown = sim.rng.choice(old[:-1])
    from simcord.actors import _component_interaction

    as_it_was = stored(sim.env, channel.id, shown.id)
    await _component_interaction(
        player.member, as_it_was, {"custom_id": button_id(shown, label), "component_type": 2}
    )


async def forged_click(sim: Sim, game: Any, player: Player) -> None:
    """A custom id made up by a client, as if on the newest bot message in the channel."""
    channel = sim.world.channel(game.table.channel_id)
    last = channel.last_message
    if last is None:
        return
    shown = copy.deepcopy(stored(sim.env, channel.id, last.id))
    if not shown.components or not shown.components[0].get("components"):
        return
    forged = sim.rng.choice(
        (f"t:{game.id}:999999:turn", f"t:{game.id + 1000}:1:turn", "l:0:join", "x" * 90)
    )
    shown.components[0]["components"][0]["custom_id"] = forged
    from simcord.actors import _component_interaction

    await _component_interaction(player.member, shown, {"custom_id": forged, "component_type": 2})


async def open_panel(sim: Sim, game: Any, player: Player) -> Any:
    """Take turn on the table message: the player's decision panel (None: no table shown,
    or no panel came)."""
    channel = sim.world.channel(game.table.channel_id)
    table_id = game.table.table_message_id
    shown = next((m for m in reversed(channel.history()) if m.id == table_id), None)
    label = t(sim.server_language(channel.id), "table.take_turn")
    take = button_id(shown, label) if shown is not None and table_id else None
    if take is None:
        return None
    opened = await player.member.click(shown, custom_id=take)
    return opened.response


async def double_click(sim: Sim, game: Any, seat: int, player: Player) -> None:
    """Take turn, then the same option button clicked twice on the same panel, the second
    before the client saw the first's answer."""
    panel = await open_panel(sim, game, player)
    if panel is None:
        return
    options = [b for b in raw_components(panel, 2) if ":o:" in b.get("custom_id", "")]
    if not options:
        return
    custom_id = sim.rng.choice(options)["custom_id"]
    from simcord.actors import _component_interaction

    data = {"custom_id": custom_id, "component_type": 2}
    before = game.seq
    # SimCord settles one interaction at a time (two dispatched together never settle), so
    # the second click is the same panel as the client still showed it, after the first.
    as_it_was = copy.deepcopy(stored(sim.env, panel.channel_id, panel.id))
    for _ in range(2):
        await _component_interaction(player.member, as_it_was, data)
    logged = await sim.bot.store.actions(game.id, after=before)
    mine = [e for e in logged if e.user_id == player.id and not e.chained]
    sim.acknowledge(game.id, player.id, len(mine[:1]))
    if len(mine) > 1:
        sim.note(
            "exactly_once",
            f"table {game.id}: one option clicked twice at once, {len(mine)} moves logged",
        )


async def resign(sim: Sim, game: Any, player: Player) -> None:
    channel = sim.world.channel(game.table.channel_id)
    asked = await player.member.slash(channel, "resign")
    label = t(player.language or "en", "resign.yes")
    if asked.response is not None and button_id(asked.response, label):
        await player.member.click(asked.response, label=label)


async def go_away(sim: Sim, player: Player, channel: Any) -> None:
    await player.member.slash(channel, "away", days=sim.rng.randint(1, 3))


async def delete_table_message(sim: Sim, server: Server, game: Any) -> None:
    """A moderator deletes the table message (it is posted again)."""
    channel = sim.world.channel(game.table.channel_id)
    message_id = game.table.table_message_id
    shown = next((m for m in channel.history() if m.id == message_id), None)
    if shown is not None:
        try:
            await server.moderator.delete(shown)
        except discord.HTTPException:
            return
