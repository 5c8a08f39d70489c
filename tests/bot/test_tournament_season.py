"""Issue 28's "done when", end to end through SimCord: an organiser in a zh-TW server runs a
Swiss of 9 players at tables of 3 (its final table seats 4) with check-in (a tenth who signed
up but never checks in is dropped), round 1 seeded by rating, points per place 6,4,2,1, a
3-day round deadline (players who do not move have the AI play out their games when it
passes), one table settled by the organiser with a reason, and a final table of the best 4
whose places make the podium; exports it as CSV, and finds it in `/tournament list` a month
later (virtual time). On each real game, every post read in Traditional Chinese."""

from __future__ import annotations

import csv
import io

import pytest

from meeple_hall.bot.i18n import t
from meeple_hall.bot.store import TableStatus, TournamentStatus
from tests.bot.conftest import REAL_GAMES
from tests.bot.test_tournament import posted, thread_of
from tests.bot.test_tournament_events import (
    AI_PLAYS_OUT,
    DAY,
    MINUTE,
    buttons,
    finished,
    hall,
    rate,
)

__all__ = ["hall"]  # the fixture, shared with test_tournament_events

LANG = "zh-TW"


@pytest.mark.slow
@AI_PLAYS_OUT
@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_season_in_a_traditional_chinese_server(hall, game_id):
    env, guild, channel, members = hall
    organiser, *others = members  # ten: nine play, one never checks in
    store = env.bot.store
    await organiser.slash(channel, "settings", server_language=LANG)
    await organiser.slash(channel, "settings", language=LANG)
    players = members[:9]
    strongest_first = [m.id for m in players]
    await rate(store, guild.id, game_id, strongest_first)

    await organiser.slash(
        channel,
        "tournament create",
        game=game_id,
        format="swiss",
        rounds=2,
        table_size=3,
        clock="72h",
        checkin=30,
        deadline=3,
        seeding="rating",
        points="6,4,2,1",
        final=4,
        name="冬季盃",
    )
    signup = channel.last_message
    (made,) = await store.tournaments()
    for member in others:
        await member.click(signup, custom_id=f"tour:{made.id}:join")
    await organiser.click(signup, custom_id=f"tour:{made.id}:start")
    assert t(LANG, "tournament.checkin_button") in buttons(
        next(m for m in channel.history() if m.id == signup.id)
    )
    for member in players[1:]:
        await member.click(signup, custom_id=f"tour:{made.id}:checkin")
    no_show = members[9]
    await env.advance_time(31 * MINUTE)
    await env.settle()
    (tournament,) = await store.tournaments()
    assert tournament.status is TournamentStatus.RUNNING
    assert tournament.player(no_show.id) is None and len(tournament.playing()) == 9
    text = posted(channel)
    assert t(LANG, "tournament.checkin_dropped", name="冬季盃", mentions=f"<@{no_show.id}>") in text

    # Round 1: seeded by rating, the three strongest at three tables; the deadline shown.
    round1 = await store.tournament_tables(tournament.id, 1)
    assert sorted(len(r.seats) for r in round1) == [3, 3, 3]
    tables_of_top = {next(r.number for r in round1 if p in r.seats) for p in strongest_first[:3]}
    assert len(tables_of_top) == 3
    (rnd1,) = await store.tournament_rounds(tournament.id)
    assert f"<t:{int(rnd1.deadline.timestamp())}:R>" in posted(channel)
    assert t(LANG, "tournament.round_opened", name="冬季盃", round=1) in posted(channel)

    # The organiser settles table 1 (a player did not turn up), in the table's thread.
    first = round1[0]
    said = await organiser.slash(
        thread_of(channel, first.thread_id),
        "tournament result",
        table=1,
        forfeits="1",
        reason="缺席",
        tournament=str(tournament.id),
    )
    assert said.response.content == t(LANG, "tournament.result_done")
    settled = await store.get_table(first.table_id)
    assert settled.status is TableStatus.FINISHED and settled.result["ranks"][0] == 3
    assert "缺席" in posted(channel)

    # Nobody else moves: each deadline has the AI play out the open tables.
    await finished(env, tournament.id, days=20)
    done = await store.get_tournament(tournament.id)
    assert done.status is TournamentStatus.FINISHED
    rounds = await store.tournament_rounds(tournament.id)
    assert [(r.round, r.final) for r in rounds] == [(1, False), (2, False), (3, True)]
    (final_row,) = [r for r in await store.tournament_tables(tournament.id, 3) if r.state != "void"]
    assert len(final_row.seats) == 4
    final_game = await store.get_table(final_row.table_id)
    final_ranks = dict(zip(final_row.seats, final_game.result["ranks"], strict=True))
    podium = sorted(final_row.seats, key=final_ranks.__getitem__)
    ranked = await env.bot.tournaments.standings(done)
    assert [s.user_id for s in ranked[:4]] == podium  # the final decides the podium
    assert t(LANG, "tournament.deadline_passed", name="冬季盃", round=1, tables=2) in posted(
        channel
    )
    pictures = [a.filename for m in channel.history() for a in m.attachments]
    assert f"podium-{tournament.id}.png" in pictures
    assert t(LANG, "tournament.winner", name="冬季盃", winner=f"<@{podium[0]}>") in posted(channel)

    exported = await organiser.slash(channel, "tournament export", tournament=str(tournament.id))
    (attachment,) = exported.response.attachments
    rows = list(csv.reader(io.StringIO((await attachment.read()).decode("utf-8-sig"))))
    assert any("缺席" in cell for row in rows for cell in row)

    await env.advance_time(30 * DAY)
    reader = others[3]
    await reader.slash(channel, "settings", language=LANG)  # replies in the reader's choice
    listed = await reader.slash(channel, "tournament list")
    assert "冬季盃" in listed.response.content
    assert t(LANG, "tournament.status.finished") in listed.response.content
