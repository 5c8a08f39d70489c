"""Time away pausing and resuming clocks, the yearly allowance, and /games in a channel,
in DMs and for the whole server."""

from __future__ import annotations

from datetime import timedelta

from tests.bot.conftest import start_game, table_message

HOUR = 3600.0
DAY = 24 * HOUR


def clock(table, game, seat: int):
    return table.env.bot.clocks.rows[(game.id, seat)]


async def test_time_away_pauses_the_clock_and_ending_it_early_resumes_it(table):
    game = await start_game(table, table.bob, options="clock=12h")
    await table.bob.slash(table.channel, "move", text="bid1")
    deadline = clock(table, game, 0).deadline
    started = await table.alice.slash(table.channel, "away", days=2)
    assert started.ephemeral and "away until" in started.response.content
    assert clock(table, game, 0).deadline == deadline + timedelta(days=2)
    assert "away until" in table_message(table.channel).embeds[0].fields[0].value
    await table.env.advance_time(DAY)
    back = await table.alice.user.slash("away", days=0)  # from a DM, too
    assert "1 unused day" in back.response.content
    assert clock(table, game, 0).deadline == deadline + timedelta(days=1)
    assert "away until" not in table_message(table.channel).embeds[0].fields[0].value
    await table.env.advance_time(12 * HOUR + 24 * HOUR - 120)  # what is left: clock + reserve
    assert game.decision_for(0) is not None
    await table.env.advance_time(240)
    logged = await table.env.bot.store.actions(game.id)
    assert [a.user_id for a in logged if a.seat == 0] == [None]


async def test_a_wait_starting_while_away_starts_when_the_player_is_back(table):
    await table.alice.slash(table.channel, "away", days=3)
    game = await start_game(table, table.bob, options="clock=24h")
    row = clock(table, game, 0)
    assert row.deadline - row.since == timedelta(days=4)
    await table.env.advance_time(3 * DAY + 60)  # the away period ends on its own
    assert "away until" not in table_message(table.channel).embeds[0].fields[0].value
    assert table.env.bot.clocks.away_of(table.alice.id) is None


async def test_a_table_that_forbids_time_away_keeps_the_clock_running(table):
    game = await start_game(table, table.bob, options="clock=12h away=forbidden")
    deadline = clock(table, game, 0).deadline
    await table.alice.slash(table.channel, "away", days=2)
    assert clock(table, game, 0).deadline == deadline
    await table.env.advance_time(36 * HOUR + 60)
    assert [a.user_id for a in await table.env.bot.store.actions(game.id) if a.seat == 0] == [None]


async def test_time_away_is_limited_to_21_days_a_year(table):
    await table.alice.slash(table.channel, "away", days=15)
    await table.env.advance_time(15 * DAY + 60)
    refused = await table.alice.slash(table.channel, "away", days=10)
    assert refused.ephemeral and "6 day" in refused.response.content
    assert table.env.bot.clocks.away_of(table.alice.id) is None
    status = await table.alice.slash(table.channel, "away")
    assert "6 day" in status.response.content
    ok = await table.alice.slash(table.channel, "away", days=6)
    assert "0 left" in ok.response.content
    back = await table.alice.slash(table.channel, "away", days=0)
    assert "6 unused" in back.response.content  # ended at once: every day given back
    assert await table.env.bot.store.away_days_used(table.alice.id, 2026) == 15


async def test_bad_away_input_is_refused_and_changes_nothing(table):
    both = await table.alice.slash(table.channel, "away", days=2, until="2026-02-01")
    assert both.ephemeral and "not both" in both.response.content
    bad = await table.alice.slash(table.channel, "away", until="next week")
    assert bad.ephemeral and "YYYY-MM-DD" in bad.response.content
    past = await table.alice.slash(table.channel, "away", until="2025-12-01")
    assert "already passed" in past.response.content
    not_away = await table.alice.slash(table.channel, "away", days=0)
    assert "not away" in not_away.response.content
    assert table.env.bot.clocks.away_of(table.alice.id) is None
    until = await table.alice.slash(table.channel, "away", until="2026-01-05")
    assert "4 day(s) taken" in until.response.content


async def test_games_lists_mine_waiting_on_me_first_and_across_servers_in_dms(table):
    second = table.guild.create_text_channel("second")
    await start_game(table, table.bob, options="clock=24h")  # both bid: Alice is awaited
    await table.bob.slash(second, "new", game="pebbles")  # Bob's lobby; Alice joins
    await table.alice.click(second.last_message, label="Join")
    elsewhere = table.env.create_guild(name="Other place")
    far = elsewhere.create_text_channel("far")
    alice_there = elsewhere.add_member(table.alice.user)
    await alice_there.slash(far, "new", game="pebbles")

    here = await table.alice.slash(table.channel, "games")
    text = here.response.embeds[0].description
    lines = text.splitlines()
    assert len(lines) == 2
    assert "your turn" in lines[0] and "<t:" in lines[0] and str(table.channel.id) in lines[0]
    assert "lobby, 2/4" in lines[1]

    dm = await table.alice.user.slash("games")
    lines = dm.response.embeds[0].description.splitlines()
    assert len(lines) == 3 and "your turn" in lines[0]
    assert any(str(far.id) in line for line in lines)

    nobody = await table.dave.slash(table.channel, "games")
    assert "no open games" in nobody.response.content


async def test_games_for_the_server_lists_lobbies_with_free_seats_first(table):
    second = table.guild.create_text_channel("second")
    await start_game(table, table.bob)
    await table.carol.slash(second, "new", game="pebbles")
    listed = await table.dave.slash(table.channel, "games", scope="server")
    lines = listed.response.embeds[0].description.splitlines()
    assert "lobby, 1/4" in lines[0] and str(second.id) in lines[0]
    assert "your turn" not in lines[1] and "waiting on alice, bob" in lines[1]
    in_dm = await table.dave.user.slash("games", scope="server")
    assert "server channel" in in_dm.response.content
