"""Tournaments on the real bot (SimCord), in the test game and each of the four real games: a
whole two-round Swiss of seven (sign-up, round 1 in threads, a restart in the middle of
opening round 2, a drop-out, the standings, the winner, ratings and a profile); bad input;
the posts of a tournament in the server's language and the replies in each player's; a
cancellation told everywhere, its games ended unrated with their clocks stopped; and earlier
tournaments reached by number or name."""

from __future__ import annotations

import random
from types import SimpleNamespace

import discord
import pytest

from meeple_hall import games
from meeple_hall.bot import pairing
from meeple_hall.bot.i18n import game_name, t
from meeple_hall.bot.store import TableStatus, TournamentStatus
from meeple_hall.bot.tournaments import Tournaments
from tests.bot.conftest import EVERY_GAME, LANGUAGES, awaited_humans, buttons, plan_turn
from tests.bot.every_game import near_the_end

OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != "en"]
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace")
HOUR = 3600


@pytest.fixture
def hall(simcord_env):
    """A server whose first member (the organiser) may manage it, with a channel for
    tournaments."""
    guild = simcord_env.create_guild(name="Meeple Hall")
    channel = guild.create_text_channel("tournaments")
    managers = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    members = [guild.add_member(simcord_env.create_user(NAMES[0]), roles=[managers])]
    members += [guild.add_member(simcord_env.create_user(n)) for n in NAMES[1:]]
    return simcord_env, guild, channel, members


def thread_of(channel, thread_id: int):
    return next(t for t in channel.threads if t.id == thread_id)


# The moves of a random line left to type with /move at the end of a tournament table's game.
TYPED_AT_THE_END = 20


async def near_the_end_in_thread(env, channel, row, game, rng: random.Random) -> None:
    """The table's game made through the bot's move path (`near_the_end`, its thread as the
    channel) to TYPED_AT_THE_END moves of a random line from its end."""
    at_table = SimpleNamespace(env=env, channel=thread_of(channel, row.thread_id))
    await near_the_end(at_table, game, rng, left=TYPED_AT_THE_END)


def small_tables(game_id: str) -> dict[str, int]:
    """Real games play at tables of two in these tests (the fastest); the test game at its
    default."""
    return {} if game_id == "pebbles" else {"table_size": 2}


async def click_verb(member, signup, verb: str):
    """Click the sign-up message's button for `verb` (join, leave, start, cancel), whatever
    language its label is in."""
    (custom_id,) = [c for c in buttons(signup).values() if c.endswith(f":{verb}")]
    return await member.click(signup, custom_id=custom_id)


async def sign_up(channel, members, **settings):
    """The first member creates the tournament, the others join, the first starts it."""
    organiser = members[0]
    await organiser.slash(channel, "tournament create", **settings)
    signup = channel.last_message
    for member in members[1:]:
        await click_verb(member, signup, "join")
    await click_verb(organiser, signup, "start")
    return signup


async def move_typed(channel, members, row, game, seat: int, rng) -> None:
    """The seat's player types their next decisions (random legal answers) with /move in
    the table's thread."""
    member = next(m for m in members if m.id == game.table.seats[seat].user_id)
    text = " ".join(plan_turn(game, seat, rng))
    before = game.seq
    result = await member.slash(thread_of(channel, row.thread_id), "move", text=text)
    assert game.seq > before, result.response.content


async def play_round(env, channel, members, round_no: int, rng) -> None:
    """Every table of the round played to its end by its humans typing /move in the table's
    thread; AI seats (a player who left) play on their own."""
    bot = env.bot
    tid = (await bot.store.tournaments())[-1].id
    for row in await bot.store.tournament_tables(tid, round_no):
        if row.state == "void":
            continue
        game = await bot.manager.fetch(row.table_id)  # loaded on first use after a restart
        if game is None:
            continue
        for _ in range(3000):
            if game.table.status is not TableStatus.ACTIVE:
                break
            humans = awaited_humans(game)
            if not humans:
                await env.advance_time(1)
                continue
            await move_typed(channel, members, row, game, humans[0], rng)
        assert game.table.status is not TableStatus.ACTIVE
    await env.settle()  # the tournament moves on in a task of its own


def posted(channel) -> str:
    return "\n".join(m.content or "" for m in channel.history())


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_two_round_swiss_of_seven(hall, make_bot, monkeypatch, game_id):
    env, guild, channel, members = hall
    alice, bob, *_ = members
    engine = games.get(game_id)
    rng = random.Random(12)
    settings = {"game": game_id, "format": "swiss", "rounds": 2, **small_tables(game_id)}
    await alice.slash(channel, "tournament create", **settings)
    signup = channel.last_message
    assert game_name("en", game_id) in signup.embeds[0].description
    for member in members[1:]:
        await member.click(signup, label="Join")
    refused = await bob.click(signup, label="Start")
    assert refused.ephemeral and "organiser" in refused.response.content
    again = await bob.click(signup, label="Join")
    assert "already" in again.response.content
    await alice.click(signup, label="Start")

    store = env.bot.store
    (tournament,) = await store.tournaments()
    assert tournament.status is TournamentStatus.RUNNING and tournament.round == 1
    round1 = await store.tournament_tables(tournament.id, 1)
    sizes, byes = pairing.table_sizes(
        7, tournament.table_size, engine.min_players, engine.max_players
    )
    assert sorted(len(r.seats) for r in round1) == sorted(sizes) and byes == 0
    assert all(r.state == "announced" for r in round1)
    assert sorted(p for r in round1 for p in r.seats) == sorted(m.id for m in members)
    assert len(channel.threads) == len(sizes)
    for row in round1:
        table = await store.get_table(row.table_id)
        assert table.channel_id == row.thread_id and table.status is TableStatus.ACTIVE
        assert table.game == game_id
        assert [s.user_id for s in table.seats] == list(row.seats)
        assert table.settings["clock"] == "48h" and table.settings["away"] == "forbidden"
        pings = [m.content for m in thread_of(channel, row.thread_id).history()]
        assert any("round 1, table" in c for c in pings)
    dms = members[0].user.dm_channel.history()
    assert any("has started" in (m.content or "") for m in dms)

    # The bot stops while opening round 2: the second table's thread is made, its game not.
    real = Tournaments._find_or_make_table

    async def stop_at_second(self, tournament, row, thread_id):
        if row.round == 2 and row.number == 2:
            raise RuntimeError("the bot stopped here")
        return await real(self, tournament, row, thread_id)

    with monkeypatch.context() as patch:
        patch.setattr(Tournaments, "_find_or_make_table", stop_at_second)
        await play_round(env, channel, members, 1, rng)
        t_now = await store.get_tournament(tournament.id)
        assert t_now.round == 2
        rows = await store.tournament_tables(tournament.id, 2)
        assert [r.state for r in rows][:2] == ["announced", "thread"]
        (r2,) = [r for r in await store.tournament_rounds(tournament.id) if r.round == 2]
        assert r2.status == "opening"
    assert "standings after round 1" in posted(channel)

    await env.restart_bot(make_bot())
    store = env.bot.store
    rows = await store.tournament_tables(tournament.id, 2)
    assert all(r.state == "announced" for r in rows)
    assert len(channel.threads) == 2 * len(sizes)  # the interrupted one was found again
    assert len({r.thread_id for r in rows}) == len(rows)
    for row in rows:
        assert (await store.get_table(row.table_id)).status is TableStatus.ACTIVE
    (r2,) = [r for r in await store.tournament_rounds(tournament.id) if r.round == 2]
    assert r2.status == "playing"

    # A drop-out in the middle of round 2: their seat goes to the AI and ranks last.
    leaver_id = rows[0].seats[0]
    leaver = next(m for m in members if m.id == leaver_id)
    dropped = await leaver.slash(channel, "tournament drop")
    assert "dropped out" in dropped.response.content
    stranger = await bob.slash(channel, "tournament cancel")
    assert "organiser" in stranger.response.content
    game = env.bot.manager.get(rows[0].table_id)
    assert game.table.seats[0].resigned
    await play_round(env, channel, members, 2, rng)

    t_end = await store.get_tournament(tournament.id)
    assert t_end.status is TournamentStatus.FINISHED
    assert t_end.player(leaver_id).status == "dropped"
    finished = await store.get_table(rows[0].table_id)
    assert finished.result["ranks"][0] == max(finished.result["ranks"])
    text = posted(channel)
    assert "The winner" in text and "standings after round 2" in text

    shown = await alice.slash(channel, "tournament standings")
    assert shown.ephemeral and shown.response.attachments
    lines = [x for x in shown.response.content.splitlines() if x[:1].isdigit()]
    assert len(lines) == 7 and "(dropped)" in shown.response.content

    # Ratings: every game rated; everyone has two (the drop-out too).
    book = await env.bot.ratings.book(game_id, guild.id)
    assert sorted(p.games for p in book.players.values()) == [2] * 7
    profile = await alice.slash(channel, "profile")
    assert "2 played" in profile.response.content
    finals = [m for m in thread_of(channel, rows[1].thread_id).history() if m.embeds]
    assert any(f.name == "Rating changes" for m in finals for f in m.embeds[0].fields)


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_bad_tournament_input_is_refused_and_changes_nothing(hall, game_id):
    env, _, channel, members = hall
    alice = members[0]
    engine = games.get(game_id)
    low, high = max(engine.min_players, 2), engine.max_players
    for options, words in (
        ({"game": "chess", "format": "swiss"}, "chess"),
        ({"game": game_id, "format": "swiss", "table_size": 9}, f"{low} to {high}"),
        ({"game": game_id, "format": "swiss", "rounds": 40}, "1 to 20"),
        ({"game": game_id, "format": "swiss", "name": "x" * 80}, "60"),
        ({"game": game_id, "format": "elimination", "advance": high}, f"1 to {high - 1}"),
    ):
        result = await alice.slash(channel, "tournament create", **options)
        assert result.ephemeral and words in result.response.content, result.response.content
    assert await env.bot.store.tournaments() == []
    nothing = await alice.slash(channel, "tournament standings")
    assert nothing.ephemeral and "no tournament" in nothing.response.content
    await alice.slash(channel, "tournament create", game=game_id, format="round-robin")
    lone = await alice.click(channel.last_message, label="Start")
    assert lone.ephemeral and "at least 2" in lone.response.content
    (tournament,) = await env.bot.store.tournaments()
    assert tournament.round == 0 and tournament.status.value == "signup"
    rules = await alice.slash(channel, "tournament rules")
    assert "4 players: 10 / 6 / 3 / 1" in rules.response.content


async def choose_languages(env, channel, organiser, players, lang: str) -> None:
    """The server's posts in `lang`, and every player reads their replies in it too (their
    Discord client says en-US)."""
    said = await organiser.slash(channel, "settings", server_language=lang)
    assert said.ephemeral and env.bot.languages.guilds[channel.guild.id] == lang
    for member in players:
        await member.slash(channel, "settings", language=lang)


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_tournament_speaks_the_server_language_and_each_player_their_own(
    hall, game_id, lang
):
    """A round-robin of two (one game): the round's post, the standings, the winner and the
    DM in the chosen languages; a player's /tournament replies in theirs (English is what
    every other test reads)."""
    env, _, channel, members = hall
    players = members[:2]
    await choose_languages(env, channel, players[0], players, lang)
    await sign_up(channel, players, game=game_id, format="round-robin", table_size=2)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    text = posted(channel)
    assert t(lang, "tournament.round_opened", name=tournament.name, round=1) in text
    (row,) = await store.tournament_tables(tournament.id, 1)
    thread = thread_of(channel, row.thread_id)
    assert thread.name == t(
        lang, "tournament.thread", name=tournament.name, round=1, table=1, id=tournament.id
    )
    ping = [m.content for m in thread.history()]
    engine_name = game_name(lang, game_id)
    expected_ping = t(
        lang,
        "tournament.table_ping",
        name=tournament.name,
        round=1,
        table=1,
        game=engine_name,
        mentions=" ".join(f"<@{u}>" for u in row.seats),
    )
    assert expected_ping in ping
    dm = t(
        lang,
        "tournament.table_dm",
        name=tournament.name,
        round=1,
        table=1,
        game=engine_name,
        link="\x00",
    )
    dms = [m.content or "" for m in players[1].user.dm_channel.history()]
    assert any(all(part in c for part in dm.split("\x00")) for c in dms), dms

    refused = await players[1].slash(channel, "tournament cancel")
    assert refused.response.content == t(lang, "tournament.organiser_only")

    await play_round(env, channel, players, 1, random.Random(3))
    finished = await store.get_tournament(tournament.id)
    assert finished.status is TournamentStatus.FINISHED
    text = posted(channel)
    assert t(lang, "tournament.round_done", round=1) in text
    ranked = await env.bot.tournaments.standings(finished)
    winner = t(lang, "tournament.winner", name=tournament.name, winner=f"<@{ranked[0].user_id}>")
    assert winner in text
    title = t(lang, "tournament.standings_title", name=tournament.name, round=1)
    assert title in text

    shown = await players[1].slash(channel, "tournament standings")
    assert shown.ephemeral and title in shown.response.content
    rules = await players[1].slash(channel, "tournament rules")
    assert t(lang, "tournament.rules_intro") in rules.response.content


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_cancelling_tells_the_channel_and_every_thread_and_stops_the_clocks(
    hall, game_id, lang
):
    env, _, channel, members = hall
    players = members[:4]
    await choose_languages(env, channel, players[0], players[:1], lang)
    await sign_up(channel, players, game=game_id, format="swiss", rounds=2, table_size=2)
    store = env.bot.store
    (tournament,) = await store.tournaments()
    rows = await store.tournament_tables(tournament.id, 1)
    assert len(rows) == 2
    game = env.bot.manager.get(rows[0].table_id)
    await move_typed(channel, players, rows[0], game, awaited_humans(game)[0], random.Random(1))
    for row in rows:
        assert await store.clocks(row.table_id), "a tournament game runs on a clock"

    done = await players[0].slash(channel, "tournament cancel")
    assert done.ephemeral and done.response.content == t(lang, "tournament.cancelled")
    assert (await store.get_tournament(tournament.id)).status is TournamentStatus.CANCELLED
    told = t(lang, "tournament.cancelled_post", name=tournament.name)
    assert told in posted(channel)
    threads = [thread_of(channel, row.thread_id) for row in rows]
    for row, thread in zip(rows, threads, strict=True):
        assert thread.last_message.content == t(
            lang, "tournament.cancelled_table", name=tournament.name
        )
        assert (await store.get_table(row.table_id)).status is TableStatus.ABANDONED
        assert await store.clocks(row.table_id) == []
    assert await store.results(game=game_id) == []  # unrated

    # Days go by: no reminder, no timeout, nothing more in the threads or the DMs.
    seen = [len(thread.history()) for thread in threads]
    dms = [len(m.user.dm_channel.history()) if m.user.dm_channel else 0 for m in players]
    await env.advance_time(5 * 24 * HOUR)
    assert [len(thread.history()) for thread in threads] == seen
    assert [len(m.user.dm_channel.history()) if m.user.dm_channel else 0 for m in players] == dms
    for row in rows:
        table = await store.get_table(row.table_id)
        assert table.status is TableStatus.ABANDONED and not any(s.ai for s in table.seats)


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_an_earlier_tournament_is_reached_by_number_or_name_on_its_server_only(hall, game_id):
    env, _, channel, members = hall
    alice, bob, carol = members[:3]
    await sign_up(
        channel, [alice, bob], game=game_id, format="round-robin", table_size=2, name="Spring cup"
    )
    store = env.bot.store
    (spring,) = await store.tournaments()
    await play_round(env, channel, [alice, bob], 1, random.Random(5))
    assert (await store.get_tournament(spring.id)).status is TournamentStatus.FINISHED
    await alice.slash(channel, "tournament create", game=game_id, format="swiss", name="Summer cup")
    summer = (await store.tournaments())[-1]

    # Without a name: the newest of the channel (the summer's sign-up, nobody has played).
    newest = await carol.slash(channel, "tournament standings")
    assert "Summer cup" in newest.response.content
    for named in (str(spring.id), f"#{spring.id}", "spring CUP"):
        shown = await carol.slash(channel, "tournament standings", tournament=named)
        assert shown.ephemeral and "Spring cup" in shown.response.content, named
        lines = [x for x in shown.response.content.splitlines() if x[:1].isdigit()]
        assert len(lines) == 2
    # An action on the earlier one: it has ended, so it is refused and nothing changes.
    closed = await alice.slash(channel, "tournament cancel", tournament=str(spring.id))
    assert closed.ephemeral and "not open" in closed.response.content
    assert (await store.get_tournament(spring.id)).status is TournamentStatus.FINISHED

    # Another server's tournament is neither listed nor reached.
    other = env.create_guild(name="Elsewhere")
    other_channel = other.create_text_channel("cups")
    stranger = other.add_member(env.create_user("stranger"))
    await stranger.slash(
        other_channel, "tournament create", game=game_id, format="swiss", name="Far cup"
    )
    far = (await store.tournaments())[-1]
    assert far.guild_id == other.id
    offered = await carol.autocomplete(channel, "tournament standings", "tournament", "")
    assert [c["value"] for c in offered] == [str(summer.id), str(spring.id)]
    assert "Summer cup" in offered[0]["name"] and "Spring cup" in offered[1]["name"]
    typed = await carol.autocomplete(channel, "tournament cancel", "tournament", "spr")
    assert [c["value"] for c in typed] == [str(spring.id)]
    await carol.slash(channel, "settings", language="ja")
    refused = await carol.slash(channel, "tournament standings", tournament=str(far.id))
    assert refused.ephemeral
    assert refused.response.content == t("ja", "tournament.other_server", number=far.id)
    unknown = await carol.slash(channel, "tournament standings", tournament="Winter cup")
    assert unknown.response.content == t("ja", "tournament.not_found", name="Winter cup")
    dropped = await carol.slash(channel, "tournament drop", tournament=str(far.id))
    assert dropped.response.content == t("ja", "tournament.other_server", number=far.id)
    assert (await store.get_tournament(far.id)).players == far.players
