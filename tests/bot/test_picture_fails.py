"""A table picture that cannot be drawn never silences a turn (the season simulator's
finding 13): the table goes out without its picture, mentioning the awaited player, who
gets their turn's DM; the picture is drawn again later and added to the same message."""

from __future__ import annotations

import random

import pytest

from tests.bot.conftest import (
    REAL_GAMES,
    answer_seat,
    awaited_humans,
    seated_member,
    start_game,
    table_message,
)
from tests.bot.test_faults import turn_dms


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_table_picture_that_fails_still_tells_the_next_player(
    table, monkeypatch, caplog, game_id
):
    game = await start_game(table, table.bob, game=game_id)
    pictures = table.env.bot.display.pictures
    drawn = pictures.latest

    async def broken(game):
        raise RuntimeError("a renderer's bug")

    monkeypatch.setattr(pictures, "latest", broken)
    rng = random.Random(3)
    members = [seated_member(table, game, s) for s in range(len(game.table.seats))]
    before = {m.id: len(turn_dms(m)) for m in members if m is not None}
    awaited = set(awaited_humans(game))
    while not set(awaited_humans(game)) - awaited:  # until someone else is newly awaited
        awaited = set(awaited_humans(game))
        await answer_seat(table, game, awaited_humans(game)[0], rng)
    newly = sorted(set(awaited_humans(game)) - awaited)[0]
    member = seated_member(table, game, newly)
    told = turn_dms(member)

    shown = table_message(table.channel)
    assert shown.id == game.table.table_message_id
    assert member.mention in shown.content  # mentioned on the table's post
    assert not shown.attachments  # shown without its picture
    assert len(told) == before[member.id] + 1  # and DMed
    assert any(m.startswith("could not draw the table") for m in caplog.messages)

    monkeypatch.setattr(pictures, "latest", drawn)  # the renderer works again
    await table.env.advance_time(16 * 60)  # its retries back off to 15 minutes (LATER)
    await table.env.settle()
    again = table_message(table.channel)
    assert again.id == shown.id and member.mention in again.content  # the same post
    assert [a.filename for a in again.attachments] == ["table.png"]
    assert turn_dms(member) == told  # told once
