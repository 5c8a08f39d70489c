"""Time away pausing and resuming clocks, the yearly allowance, /resume ending time away,
which tables keep running, and /games in a channel, in DMs and for the whole server; in the
test game and each of the four real games."""

from __future__ import annotations

from datetime import timedelta

import pytest

from meeple_hall import games
from meeple_hall.bot.i18n import game_name, t
from tests.bot.conftest import EVERY_GAME, awaited_humans, start_game, table_message
from tests.bot.test_clocks import IN_EVERY_LANGUAGE, await_alone, member, stalled_to_ai
from tests.bot.test_tournament import hall, sign_up  # noqa: F401 (hall is a fixture)

HOUR = 3600.0
DAY = 24 * HOUR


def clock(table, game, seat: int):
    """The seat's clock (`table`: the test's table, or the SimCord world itself)."""
    env = getattr(table, "env", table)
    return env.bot.clocks.rows[(game.id, seat)]


def players_field(table) -> str:
    return table_message(table.channel).embeds[0].fields[0].value


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_time_away_pauses_the_clock_and_ending_it_early_resumes_it(table, game_id):
    game = await start_game(table, table.bob, game=game_id, options="clock=12h")
    seat = await await_alone(table, game)
    player = member(table, seat)
    deadline = clock(table, game, seat).deadline
    started = await player.slash(table.channel, "away", days=2)
    assert started.ephemeral and "away until" in started.response.content
    assert clock(table, game, seat).deadline == deadline + timedelta(days=2)
    assert "away until" in players_field(table)
    await table.env.advance_time(DAY)
    back = await player.user.slash("away", days=0)  # from a DM, too
    assert "1 unused day" in back.response.content
    assert clock(table, game, seat).deadline == deadline + timedelta(days=1)
    assert "away until" not in players_field(table)
    before = game.seq
    await table.env.advance_time(12 * HOUR + 24 * HOUR - 120)  # what is left: clock + reserve
    assert game.decision_for(seat) is not None and game.seq == before
    await table.env.advance_time(240)
    logged = await table.env.bot.store.actions(game.id, after=before)
    made = [a.user_id for a in logged if a.seat == seat]
    assert made and set(made) == {None}


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_wait_starting_while_away_starts_when_the_player_is_back(table, game_id):
    await table.alice.slash(table.channel, "away", days=3)
    game = await start_game(table, table.bob, game=game_id, options="clock=24h")
    await await_alone(table, game, 0)
    row = clock(table, game, 0)
    assert row.deadline - row.since == timedelta(days=4)
    await table.env.advance_time(3 * DAY + 60)  # the away period ends on its own
    assert "away until" not in players_field(table)
    assert table.env.bot.clocks.away_of(table.alice.id) is None


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_table_that_forbids_time_away_keeps_the_clock_running(table, game_id):
    game = await start_game(table, table.bob, game=game_id, options="clock=12h away=forbidden")
    seat = await await_alone(table, game)
    deadline = clock(table, game, seat).deadline
    before = game.seq
    await member(table, seat).slash(table.channel, "away", days=2)
    assert clock(table, game, seat).deadline == deadline
    await table.env.advance_time(36 * HOUR + 60)
    logged = await table.env.bot.store.actions(game.id, after=before)
    made = [a.user_id for a in logged if a.seat == seat]
    assert made and set(made) == {None}


@pytest.mark.parametrize(("game_id", "lang"), IN_EVERY_LANGUAGE)
async def test_away_says_which_tables_keep_running(table, game_id, lang):
    """Tournament tables are made with `away=forbidden` (bot/tournaments.py): a player going
    away is told which of their games keep running, or, with none, that tournament games
    would."""
    await table.alice.slash(table.channel, "settings", language=lang)
    other = table.guild.create_text_channel("cup")
    await start_game(table, table.bob, game=game_id)
    first = await table.alice.slash(table.channel, "away", days=2)
    assert t(lang, "away.tournaments_run") in first.response.content
    assert t(lang, "away.keep_running", games="") not in first.response.content

    await table.alice.slash(other, "new", game=game_id, options="clock=24h away=forbidden")
    await table.bob.click(other.last_message, label="Join")
    await table.alice.click(other.last_message, label="Start")
    again = await table.alice.slash(table.channel, "away", days=3)
    running = f"{game_name(lang, game_id)} (<#{other.id}>)"
    assert t(lang, "away.keep_running", games=running) in again.response.content
    assert f"<#{table.channel.id}>" not in again.response.content  # this one pauses
    status = await table.alice.slash(table.channel, "away")
    assert t(lang, "away.keep_running", games=running) in status.response.content


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_away_names_the_tournament_games_that_keep_running(hall, game_id):  # noqa: F811
    """A round-robin of two: its table (in a thread) keeps its clock through time away, and
    the /away reply says so, naming it."""
    env, _, channel, members = hall
    players = members[:2]
    await sign_up(channel, players, game=game_id, format="round-robin", table_size=2)
    (tournament,) = await env.bot.store.tournaments()
    (row,) = await env.bot.store.tournament_tables(tournament.id, 1)
    game = await env.bot.manager.fetch(row.table_id)
    seat = awaited_humans(game)[0]
    player = next(m for m in players if m.id == game.table.seats[seat].user_id)
    deadline = clock(env, game, seat).deadline
    assert deadline is not None  # a tournament always has a clock
    started = await player.slash(channel, "away", days=2)
    running = f"{game_name('en', game_id)} (<#{row.thread_id}>)"
    assert t("en", "away.keep_running", games=running) in started.response.content
    assert "tournament games never pause" in started.response.content
    assert clock(env, game, seat).deadline == deadline


@pytest.mark.parametrize(("game_id", "lang"), IN_EVERY_LANGUAGE)
async def test_resume_while_away_ends_the_time_away(table, game_id, lang):
    game = await start_game(table, table.bob, game=game_id, options="clock=12h")
    seat = await await_alone(table, game)
    player = member(table, seat)
    await player.slash(table.channel, "settings", language=lang)
    deadline = clock(table, game, seat).deadline
    await player.slash(table.channel, "away", days=2)
    assert clock(table, game, seat).deadline == deadline + timedelta(days=2)

    resumed = await player.slash(table.channel, "resume")
    assert resumed.ephemeral
    assert resumed.response.content == t(lang, "away.back", days=2)
    assert table.env.bot.clocks.away_of(player.id) is None
    assert clock(table, game, seat).deadline == deadline
    assert await table.env.bot.store.away(player.id) is None
    assert "away until" not in players_field(table)
    nothing = await player.slash(table.channel, "resume")
    assert nothing.response.content == t(lang, "resume.nothing")


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_resume_ends_the_time_away_and_gives_back_the_seat_the_ai_plays(table, game_id):
    game = await start_game(table, table.bob, game=game_id, options="remind=8h")
    await stalled_to_ai(table, game)  # the AI plays Bob's seat
    await table.bob.slash(table.channel, "away", days=2)
    resumed = await table.bob.slash(table.channel, "resume")
    text = resumed.response.content
    assert t("en", "away.back", days=2) in text
    here = f"{game_name('en', game_id)} (<#{table.channel.id}>)"
    assert t("en", "resume.done", games=here) in text
    assert table.env.bot.clocks.away_of(table.bob.id) is None
    assert not game.table.seats[1].ai
    assert any(f"<@{table.bob.id}> is back" in m.content for m in table.channel.history())


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


@pytest.mark.parametrize("lang", ["zh-TW", "ja"])
async def test_away_resume_and_games_replies_follow_the_players_language(table, lang):
    await table.alice.slash(table.channel, "settings", language=lang)
    both = await table.alice.slash(table.channel, "away", days=2, until="2026-02-01")
    assert both.response.content == t(lang, "away.one_of")
    status = await table.alice.slash(table.channel, "away")
    assert status.response.content == t(lang, "away.status_here", left=21)
    not_away = await table.alice.slash(table.channel, "away", days=0)
    assert not_away.response.content == t(lang, "away.not_away")
    nothing = await table.alice.slash(table.channel, "resume")
    assert nothing.response.content == t(lang, "resume.nothing")
    no_games = await table.alice.slash(table.channel, "games")
    assert no_games.response.content == t(lang, "games.none_mine")


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_games_lists_mine_waiting_on_me_first_and_across_servers_in_dms(table, game_id):
    most = games.get(game_id).max_players
    second = table.guild.create_text_channel("second")
    game = await start_game(table, table.bob, game=game_id, options="clock=24h")
    await await_alone(table, game, 0)  # Alice is awaited
    await table.bob.slash(second, "new", game=game_id)  # Bob's lobby; Alice joins
    await table.alice.click(second.last_message, label="Join")
    elsewhere = table.env.create_guild(name="Other place")
    far = elsewhere.create_text_channel("far")
    alice_there = elsewhere.add_member(table.alice.user)
    await alice_there.slash(far, "new", game=game_id)

    here = await table.alice.slash(table.channel, "games")
    text = here.response.embeds[0].description
    lines = text.splitlines()
    assert len(lines) == 2
    assert "your turn" in lines[0] and "<t:" in lines[0] and str(table.channel.id) in lines[0]
    assert f"**{game_name('en', game_id)}**" in lines[0]
    assert f"lobby, 2/{most}" in lines[1]

    dm = await table.alice.user.slash("games")
    lines = dm.response.embeds[0].description.splitlines()
    assert len(lines) == 3 and "your turn" in lines[0]
    assert any(str(far.id) in line for line in lines)

    nobody = await table.dave.slash(table.channel, "games")
    assert "no open games" in nobody.response.content


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_games_for_the_server_lists_lobbies_with_free_seats_first(table, game_id):
    second = table.guild.create_text_channel("second")
    game = await start_game(table, table.bob, game=game_id)
    await table.carol.slash(second, "new", game=game_id)
    listed = await table.dave.slash(table.channel, "games", scope="server")
    lines = listed.response.embeds[0].description.splitlines()
    assert f"lobby, 1/{games.get(game_id).max_players}" in lines[0] and str(second.id) in lines[0]
    names = ", ".join(game.table.seats[seat].name for seat in awaited_humans(game))
    assert "your turn" not in lines[1] and f"waiting on {names}" in lines[1]
    in_dm = await table.dave.user.slash("games", scope="server")
    assert "server channel" in in_dm.response.content
