"""Buttons on old messages survive upgrades and restarts: every custom_id format the bot has
ever sent is a public format. Each family's ids are written here by hand, the way the bot
wrote them before its component families had typed templates (f-strings, not the builders
of bot/components.py), put on a message and clicked through discord.py's real dispatch
(SimCord); each must reach its own handler and do what it always did."""

from __future__ import annotations

import copy
import random

import pytest

from meeple_hall.bot.components import FAMILIES, UnknownId, family_of
from meeple_hall.bot.i18n import t
from meeple_hall.bot.live_game import decision_hash
from meeple_hall.bot.panels import uses_confirm
from meeple_hall.bot.refusals import NoUndo
from meeple_hall.bot.store import TableStatus
from tests.bot.conftest import (
    REAL_GAMES,
    answer_seat,
    awaited_humans,
    click_as_it_was,
    seated_member,
    selects,
    start_game,
    stored_message,
)

UNKNOWN = t("en", "component.unknown")


async def click_old(env, member, channel, custom_id: str, values: list[str] | None = None):
    """Click `custom_id` as the only component of the newest message in `channel` (a menu
    when `values` are picked), as Discord delivers a click on a message sent long ago."""
    shown = copy.deepcopy(stored_message(env, channel.last_message))
    if values is None:
        component = {"type": 2, "style": 2, "label": "old", "custom_id": custom_id}
    else:
        options = [{"label": value, "value": value} for value in values]
        component = {"type": 3, "custom_id": custom_id, "options": options, "max_values": 25}
    shown.components = [{"type": 1, "components": [component]}]
    return await click_as_it_was(member, shown, custom_id, values)


def answer_of(result) -> str:
    content = result.response.content or ""
    assert content != UNKNOWN and "went wrong" not in content, content
    return content


def test_each_old_format_belongs_to_exactly_one_family():
    old = {
        "t:12:40:take",
        "t:12:40:hand",
        "t:12:40:log",
        "g:12:40:1a2b3c4d:o:S07",
        "g:12:40:1a2b3c4d:o:bid>S07",
        "g:12:40:1a2b3c4d:o:#3>#0",
        "g:12:40:1a2b3c4d:p:1",
        "g:12:40:1a2b3c4d:s:0:2",
        "g:12:40:1a2b3c4d:c",
        "u:12:41",
        "c:resign:12:yes",
        "c:abandon_ask:12:no",
        "l:12:join",
        "l:12:ai",
        "l:12:ai:strong",
        "l:12:opt:variant",
        "l:12:opts",
        "l:12:opts:2",
        "l:12:kick",
        "ab:12:3:yes",
        "w:ai:12:1:99",
        "z:12:1:1764000000",
        "tour:5:join",
        "r:12:7:next",
        "k:12:action",
    }
    for custom_id in old:
        matching = [f for f in (*FAMILIES, UnknownId) if f.pattern().fullmatch(custom_id)]
        assert matching == [family_of(custom_id)], (custom_id, matching)
    for forged in ("t:12:40:turn", "g:12:40:x", "u:12", "l:12:bogus", "r:5:yes", "x" * 90):
        matching = [f for f in (*FAMILIES, UnknownId) if f.pattern().fullmatch(forged)]
        assert matching == [UnknownId], (forged, matching)


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_old_table_panel_and_undo_ids_still_play(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    seat = awaited_humans(game)[0]
    member = seated_member(table, game, seat)
    env, channel = table.env, table.channel
    decision = game.decision_for(seat)

    taken = await click_old(env, member, channel, f"t:{game.id}:{game.seq}:take")
    assert taken.ephemeral and t("en", "panel.header", prompt=decision.prompt) in answer_of(taken)
    hand = await click_old(env, member, channel, f"t:{game.id}:{game.seq}:hand")
    assert hand.ephemeral and answer_of(hand)
    logged = await click_old(env, member, channel, f"t:{game.id}:{game.seq}:log")
    assert logged.ephemeral and answer_of(logged)

    ref = f"g:{game.id}:{game.seq}:{decision_hash(decision)}"
    paged = await click_old(env, member, channel, f"{ref}:p:0")
    assert t("en", "panel.header", prompt=decision.prompt) in answer_of(paged)
    before = game.seq
    if uses_confirm(decision):  # picks kept in the message until Confirm
        picked = await click_old(env, member, channel, f"{ref}:s:0:0", [decision.options[0].id])
        assert t("en", "panel.header", prompt=decision.prompt) in answer_of(picked)
        await answer_seat(table, game, seat, random.Random(3))
    else:
        chosen = [o.id for o in decision.options[: max(decision.min_choices, 1)]]
        answer_of(await click_old(env, member, channel, f"{ref}:s:0:0", chosen))
    assert game.seq > before and await env.bot.store.last_seq(game.id) == game.seq

    try:
        plan = await env.bot.manager.undo_plan(game, seat)
    except NoUndo as refusal:
        undone = await click_old(env, member, channel, f"u:{game.id}:{game.seq}")
        assert answer_of(undone) == t("en", refusal.key)
        return
    moved = game.seq
    undone = await click_old(env, member, channel, f"u:{game.id}:{plan.target}")
    assert t("en", "undo.done", seq=plan.target).split(str(plan.target))[0] in answer_of(undone)
    assert game.seq > moved


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_old_option_ids_and_confirmations_still_answer(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    env, channel = table.env, table.channel
    seat = awaited_humans(game)[0]
    member = seated_member(table, game, seat)
    while (decision := game.decision_for(seat)) is None or decision.max_choices != 1:
        await answer_seat(table, game, awaited_humans(game)[0], random.Random(game.seq))
        seat = awaited_humans(game)[0]
        member = seated_member(table, game, seat)
    ref = f"g:{game.id}:{game.seq}:{decision_hash(decision)}"
    before = game.seq
    answer_of(await click_old(env, member, channel, f"{ref}:o:{decision.options[0].id}"))
    assert game.seq > before
    decision = game.decision_for(seat)
    if decision is not None and decision.max_choices == 1:
        ref, before = f"g:{game.id}:{game.seq}:{decision_hash(decision)}", game.seq
        answer_of(await click_old(env, member, channel, f"{ref}:o:#0"))  # an option by index
        assert game.seq > before

    kept = await click_old(env, table.alice, channel, f"c:resign:{game.id}:no")
    assert answer_of(kept) == t("en", "confirm.kept")
    other = next(s for s in range(len(game.table.seats)) if s != seat)
    leaver = seated_member(table, game, other)
    await click_old(env, leaver, channel, f"c:resign:{game.id}:yes")
    stored = await env.bot.store.get_table(game.id)
    assert stored.seats[other].resigned or stored.status is not TableStatus.ACTIVE


async def test_old_lobby_ids_still_act(table):
    env, channel = table.env, table.channel
    await table.alice.slash(channel, "new", game="keyflower")
    lobby = await env.bot.store.open_table_in(channel.id)
    lobby_message = channel.last_message

    joined = await click_old(env, table.bob, channel, f"l:{lobby.id}:join")
    answer_of(joined)
    seats = (await env.bot.store.get_table(lobby.id)).seats
    assert [s.user_id for s in seats] == [table.alice.id, table.bob.id]

    asked = await click_old(env, table.alice, channel, f"l:{lobby.id}:ai")
    assert t("en", "lobby.ai_level_prompt") in answer_of(asked)
    await click_old(env, table.alice, channel, f"l:{lobby.id}:ai:random")
    seats = (await env.bot.store.get_table(lobby.id)).seats
    assert len(seats) == 3 and seats[2].ai and seats[2].ai_level == "random"

    shown = stored_message(env, lobby_message)
    for menu in selects(shown):
        custom_id, value = menu["custom_id"], menu["options"][-1]["value"]
        if custom_id.split(":")[2] in ("opt", "opts"):
            answer_of(await click_old(env, table.alice, channel, custom_id, [value]))
    menus = selects(stored_message(env, lobby_message))
    kick = next(m for m in menus if m["custom_id"].endswith(":kick"))
    removed = await click_old(
        env, table.alice, channel, f"l:{lobby.id}:kick", [kick["options"][0]["value"]]
    )
    answer_of(removed)
    assert len((await env.bot.store.get_table(lobby.id)).seats) == 2

    await click_old(env, table.carol, channel, f"l:{lobby.id}:join")
    await click_old(env, table.carol, channel, f"l:{lobby.id}:leave")
    assert len((await env.bot.store.get_table(lobby.id)).seats) == 2
    await click_old(env, table.alice, channel, f"l:{lobby.id}:start")
    assert (await env.bot.store.get_table(lobby.id)).status is TableStatus.ACTIVE


async def test_old_request_stall_snooze_replay_and_tournament_ids_still_answer(table):
    env, channel = table.env, table.channel
    game = await start_game(table, table.bob, game="burgundy")
    await answer_seat(table, game, awaited_humans(game)[0], random.Random(1))

    vote = await click_old(env, table.bob, channel, f"ab:{game.id}:999:yes")
    assert answer_of(vote) == t("en", "abandon_request.stale")
    snooze = await click_old(env, table.bob, channel, f"z:{game.id}:1:1764000000")
    assert answer_of(snooze) == t("en", "remind.snooze_gone")
    replay = await click_old(env, table.bob, channel, f"r:{game.id}:1:next")
    assert "move 1 of" in answer_of(replay)

    bob_seat = game.seat_of(table.bob.id)
    stall = await click_old(env, table.alice, channel, f"w:ai:{game.id}:{bob_seat}:{table.bob.id}")
    assert stall.response is not None
    assert (await env.bot.store.get_table(game.id)).seats[bob_seat].ai

    await table.alice.slash(channel, "tournament create", game="village", format="swiss")
    (tournament,) = await env.bot.store.tournaments(guild_id=table.guild.id)
    signed = await click_old(env, table.carol, channel, f"tour:{tournament.id}:join")
    assert signed.response is not None
    joined = await env.bot.store.get_tournament(tournament.id)
    assert joined.player(table.carol.id) is not None
