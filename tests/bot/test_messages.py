"""Turn DMs, private views by DM, closed DMs, /hand, /board, /log."""

from __future__ import annotations

import random

import discord
import pytest

from meeple_hall.bot.display import log_text
from meeple_hall.bot.i18n import catalogue, game_name, game_text, t
from meeple_hall.games import Action
from meeple_hall.games.core.contract import LOG_SHOWN
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import (
    EVERY_GAME,
    LANGUAGES,
    REAL_GAMES,
    acting_member,
    awaited_humans,
    choose,
    panel_options,
    start_game,
    table_message,
)
from tests.bot.every_game import (
    acting_seat,
    joining,
    play_until,
    prompt_shown,
    submit,
    table_shown,
    twice_in_a_row,
)

every_game = pytest.mark.parametrize("game_id", EVERY_GAME)


def private_text(game, seat: int, language: str = "en") -> str:
    """The seat's private information as the bot words it."""
    from meeple_hall.bot import presenters

    secret = presenters.private_text(game.table.game, game.view(seat))
    return game_text(language, secret).strip()


def each_awaited(*seats: int):
    """For `play_until`: true once the game has awaited each of the seats (seen after
    each move)."""
    seen: set[int] = set()

    def found(game) -> bool:
        seen.update(awaited_humans(game))
        return set(seats) <= seen

    return found


@every_game
@pytest.mark.parametrize("language", LANGUAGES)
async def test_turn_dm_links_to_the_table_and_private_view_follows(table, game_id, language):
    members = (table.alice, table.bob)
    for member in members:
        await member.slash(table.channel, "settings", language=language)
    game = await start_game(table, table.bob, game=game_id)
    link = table_message(table.channel).jump_url
    your_turn = catalogue(language)["dm.your_turn"].split("{")[0]
    for seat in awaited_humans(game):
        dms = [m.content for m in members[seat].user.dm_channel.history()]
        turn = [c for c in dms if c.startswith(your_turn) and link in c]
        assert len(turn) == 1, dms
        assert game_name(language, game_id) in turn[0]
        assert prompt_shown(game, seat, language) in turn[0]
        secrets = private_text(game, seat, language)
        assert any(secrets in c for c in dms), (secrets, dms)


@every_game
async def test_dms_can_be_switched_off(table, game_id):
    await table.alice.slash(table.channel, "dms", enabled=False)
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(1)
    await play_until(table, game, each_awaited(0, 1), rng)
    assert table.alice.user.dm_channel.history() == []
    assert table.bob.user.dm_channel.history()


@every_game
async def test_closed_dms_are_remembered_and_told_in_the_channel(table, game_id):
    dm = table.bob.user.dm_channel
    table.env.inject_error(
        "POST",
        f"/channels/{dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(2)
    await play_until(table, game, lambda g: 1 in awaited_humans(g), rng)
    notes = [m.content for m in table.channel.history() if "/hand" in m.content]
    assert len(notes) == 1 and table.bob.mention in notes[0]
    prefs = await table.env.bot.store.get_prefs(table.bob.id)
    assert prefs.dms_closed
    await play_until(table, game, lambda g: 1 not in awaited_humans(g), rng)
    await play_until(table, game, lambda g: 1 in awaited_humans(g), rng)
    assert len([m for m in table.channel.history() if "/hand" in m.content]) == 1


@every_game
async def test_hand_is_private_and_shows_only_my_cards(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    result = await table.alice.slash(table.channel, "hand")
    assert result.ephemeral
    mine, theirs = private_text(game, 0), private_text(game, 1)
    assert mine in result.response.content
    for line in set(theirs.splitlines()) - set(mine.splitlines()):
        assert line not in result.response.content


@every_game
async def test_board_posts_the_picture(table, game_id):
    await start_game(table, table.bob, game=game_id)
    result = await table.carol.slash(table.channel, "board")
    assert result.response.attachments[0].filename == "table.png"
    assert not result.ephemeral


async def test_log_lists_the_games_events(table):
    await start_game(table)
    await table.alice.slash(table.channel, "move", text="bid2 red-3")
    result = await table.alice.slash(table.channel, "log")
    assert "**Recent events**\n• bids 2" in result.response.content
    assert "`bid2`" not in result.response.content


@pytest.mark.parametrize("game_id", REAL_GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
async def test_log_lists_a_real_games_events_in_the_readers_language(table, game_id, language):
    """The Log is a reply to the one who asked: in their `/settings language:`, whatever the
    server's language and their client's (en-US)."""
    game = await start_game(table, table.bob, game=game_id)
    managers = table.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = table.guild.add_member(table.env.create_user("mod"), roles=[managers])
    await mod.slash(table.channel, "settings", server_language="ja" if language != "ja" else "en")
    await table.alice.slash(table.channel, "settings", language=language)
    await play_until(table, game, lambda g: g.seq >= 3, random.Random(3))
    events = [game_text(language, e) for e in game.view(None).get("log", [])]
    assert events, "the game's view has no events"
    result = await table.alice.slash(table.channel, "log")
    assert result.ephemeral
    shown = result.response.content
    assert shown.startswith(t(language, "log.events")), shown
    assert events[-1] in shown
    logged = await table.env.bot.store.actions(game.id)
    assert not any(f"`{' '.join(a.choices)}`" in shown for a in logged)


@every_game
async def test_old_table_messages_lose_their_buttons(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    first = table_message(table.channel)
    rng = random.Random(4)
    new_post = lambda g: table_message(table.channel).id != first.id  # noqa: E731
    await play_until(table, game, new_post, rng, each_shown=True)
    latest = table_message(table.channel)
    tables = [m for m in table.channel.history() if m.attachments]
    assert [m.id for m in tables if m.components] == [latest.id]
    assert table.channel.last_message.id == latest.id


@every_game
async def test_table_message_is_edited_while_it_is_last_and_nobody_new_must_act(table, game_id):
    game = await start_game(table, *joining(table, game_id), game=game_id)
    rng = random.Random(5)
    seat, choices, _ = await play_until(table, game, twice_in_a_row(rng), rng)
    before = table_message(table.channel)
    member = (table.alice, table.bob)[seat]
    await member.slash(table.channel, "move", text=",".join(choices) or "none")
    after = await table_shown(table, game)
    assert after.id == before.id
    assert f"move {game.seq}" in after.embeds[0].footer.text


@every_game
async def test_dms_are_written_in_the_players_language(table, game_id):
    await table.bob.slash(table.channel, "dms", enabled=True)
    prefs = await table.env.bot.store.get_prefs(table.bob.id)
    assert prefs.locale == "en-US"
    await table.env.bot.store.set_locale(table.bob.id, "ja")
    game = await start_game(table, table.bob, game=game_id)
    await play_until(table, game, each_awaited(0, 1), random.Random(6))
    bob_dms = [m.content for m in table.bob.user.dm_channel.history()]
    assert any("あなたの手番です" in c for c in bob_dms)
    alice_dms = [m.content for m in table.alice.user.dm_channel.history()]
    assert any("Your turn" in c for c in alice_dms)


@every_game
async def test_the_picture_is_a_plain_attachment_not_an_embed_image(table, game_id):
    # Discord shows an embed's image at most 400 px wide on desktop; a plain attachment
    # shows larger, which a whole table of small numbers needs.
    await start_game(table, table.bob, game=game_id)
    message = table_message(table.channel)
    assert [a.filename for a in message.attachments] == ["table.png"]
    assert all(not e.image for e in message.embeds)


def private_dms(member) -> list[str]:
    """The private-information DMs a member received, oldest first."""
    return [
        m.content
        for m in member.user.dm_channel.history()
        if "your private information" in m.content
    ]


async def test_private_dm_waits_for_the_end_of_a_turn_and_shows_how_it_ended(table):
    # Coffee Traders: breeding a donkey spends 2 Action markers, then asks for its pathway.
    game = await start_game(table, table.bob, game="coffee")
    member, seat = acting_member(table, game)
    before = private_dms(member)
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    pathway_panel = (await choose(member, panel, "donkey")).response
    assert game.decision_for(seat) is not None
    assert private_dms(member) == before  # the turn goes on: its panel shows the change
    await choose(member, pathway_panel, panel_options(pathway_panel)[0])
    assert game.decision_for(seat) is None
    sent = private_dms(member)[len(before) :]
    markers = game.state.players[seat].markers
    assert len(sent) == 1 and f"{markers} Action marker" in sent[0]


async def test_private_dm_changed_by_the_game_reaches_a_seat_as_its_turn_comes(table):
    # Pebbles: Bob's kept card ends the round, and the next round's hands are dealt: Alice's
    # new hand comes with her next turn, though her own last move was long before.
    game = await start_game(table, table.bob)
    members = {0: table.alice, 1: table.bob}
    while game.state.round == 1:
        decision = game.decisions()[0]
        await members[decision.seat].slash(table.channel, "move", text=decision.options[0].id)
    hand = ", ".join(map(str, game.state.players[0].hand))
    latest = table.alice.user.dm_channel.history()[-1].content
    assert "Your turn" in latest and "your private information" in latest and hand in latest


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_seats_private_dm_is_current_whenever_its_turn_comes(table, game_id):
    """The real games' equivalent: whatever changed a seat's private information (its own
    moves, the others', a new round), the DMs it has when its turn comes show it as it is."""
    game = await start_game(table, table.bob, game=game_id)
    members = (table.alice, table.bob)
    rng, awaited, checked = random.Random(9), set(awaited_humans(game)), 0
    for _ in range(40):
        seat = acting_seat(game)
        await submit(table, game, seat, random_choices(game.decision_for(seat), rng))
        await table_shown(table, game)
        newly, awaited = set(awaited_humans(game)) - awaited, set(awaited_humans(game))
        for seat in newly:
            latest = [c for c in private_dms(members[seat]) if c][-1]
            assert private_text(game, seat).splitlines()[0] in latest
            assert all(line in latest for line in private_text(game, seat).splitlines()[:6])
            checked += 1
    assert checked >= 2


async def log_of(table, game) -> str:
    """The table's Log as the Log button gives it (bot/display.log_text)."""
    entries = await table.env.bot.store.actions(game.id, after=max(0, game.seq - LOG_SHOWN))
    return log_text(game, entries, "en")


async def test_the_log_tells_the_games_events_and_no_secret_choice(table):
    # Pebbles' bids are secret until every bid is in: Alice's bid was listed as `bid2`.
    game = await start_game(table, table.bob)
    await table.alice.slash(table.channel, "move", text="bid2")
    assert "bid2" not in await log_of(table, game)
    await table.bob.slash(table.channel, "move", text="bid1")
    text = await log_of(table, game)
    assert "**Recent events**\n• bids 2 1" in text and "Recent moves" not in text


async def test_the_log_shows_no_winter_tile_chosen_while_others_still_choose(table):
    game = await start_game(table, table.bob, game="keyflower")
    state, rng = game.state, random.Random(2)
    while (pending := game.engine.decisions(state))[0].kind != "winter":
        decision = pending[0]
        state = game.engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    game.state = state  # replaced, never changed in place, as the bot does
    tile = game.decision_for(0).options[0].id
    await table.alice.slash(table.channel, "move", text=tile)
    assert game.decision_for(0) is None and game.decision_for(1) is not None
    text = await log_of(table, game)
    assert "**Recent events**" in text and tile not in text


@every_game
async def test_the_log_lists_the_moves_taken_back(table, game_id):
    game = await start_game(table, *joining(table, game_id), game=game_id)
    rng = random.Random(7)
    seat, choices, _ = await play_until(table, game, twice_in_a_row(rng), rng)
    member = (table.alice, table.bob)[seat]
    await member.slash(table.channel, "move", text=",".join(choices) or "none")
    taken = game.seq
    undone = await member.slash(table.channel, "undo")
    assert f"Move {taken} taken back" in undone.response.content, undone.response.content
    text = await log_of(table, game)
    assert (
        f"**Moves taken back**\n`{game.seq:>4}` {member.user.name}: ↩️ took back move {taken}"
        in (text)
    )


async def test_a_game_without_an_event_log_lists_its_moves_as_typed(table):
    game = await start_game(table, table.bob, game="draft")
    await table.alice.slash(table.channel, "move", text="k01 k02")
    assert "**Recent moves**\n`   1` alice: `k01 k02`" in await log_of(table, game)
