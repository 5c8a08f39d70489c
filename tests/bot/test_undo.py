"""Undo through the bot: the Undo button after a move, `/undo`, and what it refuses.

Pebbles (tests/testgame.py): bids are simultaneous and secret (the last bid shows them all),
picks from an open pool are plain moves, and the last card kept in a round deals new hands
(a draw). The tests of its rules stay on it; what undo does in any game (a move taken back
exactly, also after a restart; a move made for a player by a timeout or the AI refused; the
refusals in each player's language) runs on each of the four real games too.
"""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot import commits
from meeple_hall.bot.i18n import t
from meeple_hall.games.core.undo import UNDO, undone_seq
from tests.bot.conftest import (
    EVERY_GAME,
    REAL_GAMES,
    answer_panel,
    awaited_humans,
    buttons,
    choose,
    start_game,
    table_message,
)
from tests.bot.test_clocks import (
    HOUR,
    IN_EVERY_LANGUAGE,
    await_alone,
    member,
    row,
    stalled_to_ai,
)


async def bid_all(table, game, bids):
    members = (table.alice, table.bob, table.carol)
    for seat, bid in enumerate(bids):
        await members[seat].slash(table.channel, "move", text=f"bid{bid}")
    assert game.state.step == "pick"


async def pick_on_panel(member, table, pebble: str):
    opened = await member.click(table_message(table.channel), label="Take turn")
    return await choose(member, opened.response, pebble)


async def test_the_undo_button_takes_a_move_back_exactly(table):
    game = await start_game(table, table.bob)
    await bid_all(table, game, [2, 1])
    before, seq = game.engine.dump(game.state), game.seq

    picked = await pick_on_panel(table.alice, table, "red-3")
    assert game.state.players[0].pebbles == ["red-3"]
    panel = picked.response
    assert "Undo" in buttons(panel.message)

    undone = await table.alice.click(panel, label="Undo")
    assert f"Move {seq + 1} taken back" in undone.response.content
    assert game.engine.dump(game.state) == before
    # the panel is Alice's decision again, picked from the same pool
    assert "Take a pebble" in undone.response.content
    log = await table.env.bot.store.actions(game.id)
    assert [e.choices for e in log[-2:]] == [("red-3",), (UNDO, str(seq + 1))]
    assert game.seq == seq + 2

    await pick_on_panel(table.alice, table, "blue-9")
    assert game.state.players[0].pebbles == ["blue-9"]
    assert "red-3" in game.state.pool


async def test_undo_is_refused_once_another_player_has_acted(table):
    game = await start_game(table, table.bob)
    await bid_all(table, game, [2, 1])
    await table.alice.slash(table.channel, "move", text="red-3")
    await table.bob.slash(table.channel, "move", text="red-4")
    before, seq = game.engine.dump(game.state), game.seq

    refused = await table.alice.slash(table.channel, "undo")
    assert refused.response.ephemeral
    assert "another player has acted since" in refused.response.content
    assert game.engine.dump(game.state) == before and game.seq == seq

    # Bob may take his own pick back, and then Alice hers
    await table.bob.slash(table.channel, "undo")
    assert game.state.players[1].pebbles == []
    await table.alice.slash(table.channel, "undo")
    assert game.state.players[0].pebbles == []
    assert game.seq == seq + 2


async def test_undo_is_refused_across_a_draw_or_a_reveal(table):
    game = await start_game(table, table.bob)
    await table.alice.slash(table.channel, "move", text="bid2")
    await table.bob.slash(table.channel, "move", text="bid1")  # the last bid shows both
    refused = await table.bob.slash(table.channel, "undo")
    assert "drew or revealed" in refused.response.content
    assert game.state.step == "pick"

    await table.alice.slash(table.channel, "move", text="red-3")
    await table.bob.slash(table.channel, "move", text="red-4")
    hand = game.state.players[0].hand
    await table.alice.slash(table.channel, "move", text=f"c{hand[0]}")
    hand = game.state.players[1].hand
    await table.bob.slash(table.channel, "move", text=f"c{hand[0]}")  # new hands are dealt
    assert game.state.round == 2
    before, seq = game.engine.dump(game.state), game.seq
    refused = await table.bob.slash(table.channel, "undo")
    assert "drew or revealed" in refused.response.content
    assert game.engine.dump(game.state) == before and game.seq == seq


async def test_simultaneous_decisions_of_others_do_not_block_an_undo(table):
    game = await start_game(table, table.bob, table.carol)
    await table.alice.slash(table.channel, "move", text="bid3")
    await table.bob.slash(table.channel, "move", text="bid1")
    undone = await table.alice.slash(table.channel, "undo")
    assert "taken back" in undone.response.content
    assert game.state.players[0].bid is None and game.state.players[1].bid == 1
    assert {d.seat for d in game.decisions()} == {0, 2}
    await table.alice.slash(table.channel, "move", text="bid0")
    await table.carol.slash(table.channel, "move", text="bid2")
    assert game.state.order == [2, 1, 0]


async def test_bad_undo_requests_change_nothing(table):
    game = await start_game(table, table.bob)
    nothing = await table.bob.slash(table.channel, "undo")
    assert nothing.response.ephemeral and "no move to take back" in nothing.response.content
    await bid_all(table, game, [2, 1])
    seq = game.seq
    revealed = await table.alice.slash(table.channel, "undo")  # her bid was shown
    assert "drew or revealed" in revealed.response.content
    outsider = await table.dave.slash(table.channel, "undo")
    assert "aren't seated" in outsider.response.content

    picked = await pick_on_panel(table.alice, table, "red-3")
    old_panel = picked.response
    await table.alice.slash(table.channel, "undo")
    await table.alice.slash(table.channel, "move", text="red-5")
    stale = await table.alice.click(old_panel, label="Undo")
    assert "out of date" in stale.response.content
    assert game.state.players[0].pebbles == ["red-5"]
    assert game.seq == seq + 3

    await table.alice.slash(table.channel, "undo")  # her pick of red-5
    again = await table.alice.slash(table.channel, "undo")  # then her bid: shown
    assert "drew or revealed" in again.response.content
    assert game.seq == seq + 4 and game.state.players[0].pebbles == []


async def test_log_says_which_moves_were_taken_back(table):
    game = await start_game(table, table.bob)
    await bid_all(table, game, [2, 1])
    await table.alice.slash(table.channel, "move", text="red-3")
    await table.alice.slash(table.channel, "undo")
    shown = (await table.alice.slash(table.channel, "log")).response.content
    # the game's events read as the game now stands; the Log says what was taken back
    lines = shown.splitlines()
    assert "**Moves taken back**" in lines
    assert any(f"took back move {game.seq - 1}" in line for line in lines)
    assert "• bids 2 1" in lines and "red-3" not in shown


@pytest.mark.parametrize("snapshot_every", [25, 3, 4])
async def test_an_undo_survives_a_restart(table, make_bot, monkeypatch, snapshot_every):
    """Replay honours undo entries, also when the undo takes back the move a snapshot was
    taken after (3: then the game is replayed from its setup), and a history that starts at a
    snapshot (4) is rebuilt when an undo needs to look further back."""
    monkeypatch.setattr(commits, "SNAPSHOT_EVERY", snapshot_every)
    game = await start_game(table, table.bob)
    await bid_all(table, game, [2, 1])  # moves 1, 2
    picked = await pick_on_panel(table.alice, table, "red-3")  # move 3
    await table.alice.click(picked.response, label="Undo")  # move 4
    expected = game.engine.dump(game.state)

    await table.env.restart_bot(make_bot())
    restarted = await table.env.bot.manager.fetch_in(table.channel.id)  # loaded on first use
    assert restarted.engine.dump(restarted.state) == expected
    refused = await table.alice.slash(table.channel, "undo")  # her bid, before the snapshot
    assert "drew or revealed" in refused.response.content
    await table.alice.slash(table.channel, "move", text="green-7")
    assert restarted.state.players[0].pebbles == ["green-7"]
    # the restarted bot knows the history too: her new pick can be taken back
    await table.alice.slash(table.channel, "undo")
    assert restarted.engine.dump(restarted.state) == expected


# -- what undo does in every game ---------------------------------------------------------
@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_the_undo_button_takes_a_move_back_exactly_in_every_game(table, make_bot, game_id):
    """Moves are answered on panels at random until one offers Undo; a move that offers none
    (it drew or revealed, or another player acted since) is refused by /undo too, changing
    nothing. The Undo restores the state before the click exactly, the Log says so, and a
    restart replays it the same."""
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(11)
    for _ in range(60):
        seat = awaited_humans(game)[0]
        player = member(table, seat)
        before, seq = game.engine.dump(game.state), game.seq
        opened = await player.click(table_message(table.channel), label="Take turn")
        answered = (await answer_panel(player, opened.response, rng)).response
        if "Undo" in buttons(answered.message):
            break
        now, moved = game.engine.dump(game.state), game.seq
        refused = await player.slash(table.channel, "undo")
        assert "can't be taken back" in refused.response.content
        assert game.engine.dump(game.state) == now and game.seq == moved
    else:
        raise AssertionError("no move could be taken back")
    made = game.seq - seq  # one click, or a folded line of several moves
    undone = await player.click(answered, label="Undo")
    assert "taken back" in undone.response.content
    assert game.engine.dump(game.state) == before
    log = await table.env.bot.store.actions(game.id, after=seq)
    assert sorted(undone_seq(e.choices) for e in log[made:]) == list(range(seq + 1, seq + made + 1))
    assert all(e.seat == seat and e.user_id == player.id for e in log)
    assert game.seq == seq + 2 * made
    shown = (await player.slash(table.channel, "log")).response.content.splitlines()
    assert "**Moves taken back**" in shown
    assert any(f"took back move {seq + 1}" in line for line in shown)

    await table.env.restart_bot(make_bot())
    restarted = await table.env.bot.manager.fetch_in(table.channel.id)
    assert restarted.engine.dump(restarted.state) == before


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_undo_is_refused_once_another_player_has_acted_in_every_game(table, game_id):
    """A seat's move that could be taken back, then the seat's turn ends and another player
    acts: the move stands, whatever the seat asks."""
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(12)
    for _ in range(80):
        seat = awaited_humans(game)[0]
        player = member(table, seat)
        opened = await player.click(table_message(table.channel), label="Take turn")
        answered = (await answer_panel(player, opened.response, rng)).response
        others = [s for s in awaited_humans(game) if s != seat]
        if "Undo" in buttons(answered.message) and others and game.decision_for(seat) is None:
            break
    else:
        raise AssertionError("no turn ended on a move that could be taken back")
    other = member(table, others[0])
    opened = await other.click(table_message(table.channel), label="Take turn")
    await answer_panel(other, opened.response, rng)
    state, seq = game.engine.dump(game.state), game.seq

    refused = await player.slash(table.channel, "undo")
    assert refused.response.ephemeral
    assert refused.response.content in (t("en", "undo.other_acted"), t("en", "undo.reveal"))
    stale = await player.click(answered, label="Undo")
    assert "out of date" in stale.response.content or "can't be taken back" in (
        stale.response.content
    )
    assert game.engine.dump(game.state) == state and game.seq == seq


@pytest.mark.parametrize(("game_id", "lang"), IN_EVERY_LANGUAGE)
async def test_a_move_made_for_a_timed_out_player_is_not_theirs_to_undo(table, game_id, lang):
    game = await start_game(table, table.bob, game=game_id, options="clock=12h")
    seat = await await_alone(table, game)
    player = member(table, seat)
    await player.slash(table.channel, "settings", language=lang)
    before = game.seq
    await table.env.advance_time(36 * HOUR + 60)  # the clock and the reserve run out
    logged = await table.env.bot.store.actions(game.id, after=before)
    assert [e.user_id for e in logged if e.seat == seat][:1] == [None]
    state, seq = game.engine.dump(game.state), game.seq
    clocks = [(r.since, r.deadline, r.reserve) for r in (row(table, game, s) for s in (0, 1))]

    refused = await player.slash(table.channel, "undo")
    assert refused.response.ephemeral
    assert refused.response.content == t(lang, "undo.made_for_you")
    assert game.engine.dump(game.state) == state and game.seq == seq
    assert [
        (r.since, r.deadline, r.reserve) for r in (row(table, game, s) for s in (0, 1))
    ] == clocks


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_timed_out_move_stays_refused_after_a_restart(table, make_bot, game_id):
    """A restarted bot loads the game without its undo history, and rebuilds it from the log
    when an undo asks: the move made for the player is still not theirs."""
    game = await start_game(table, table.bob, game=game_id, options="clock=12h")
    seat = await await_alone(table, game)
    await table.env.advance_time(36 * HOUR + 60)
    await table.env.restart_bot(make_bot())
    restarted = await table.env.bot.manager.fetch_in(table.channel.id)
    state, seq = restarted.engine.dump(restarted.state), restarted.seq
    refused = await member(table, seat).slash(table.channel, "undo")
    assert refused.response.content == t("en", "undo.made_for_you")
    assert restarted.engine.dump(restarted.state) == state and restarted.seq == seq


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_the_moves_the_ai_made_for_a_seat_are_not_undone_after_resume(table, game_id):
    game = await start_game(table, table.bob, game=game_id, options="remind=8h")
    before = game.seq
    await stalled_to_ai(table, game)  # the AI plays Bob's seat
    logged = await table.env.bot.store.actions(game.id, after=before)
    assert [e.user_id for e in logged if e.seat == 1][:1] == [None]
    await table.bob.slash(table.channel, "resume")
    assert not game.table.seats[1].ai
    state, seq = game.engine.dump(game.state), game.seq
    refused = await table.bob.slash(table.channel, "undo")
    assert "it was made for you" in refused.response.content
    assert game.engine.dump(game.state) == state and game.seq == seq


@pytest.mark.parametrize(
    ("game_id", "lang"), [(g, lang) for g in REAL_GAMES for lang in ("zh-TW", "ja")]
)
async def test_undo_refusals_come_in_the_players_language(table, game_id, lang):
    game = await start_game(table, table.bob, game=game_id)
    for someone in (table.alice, table.bob, table.dave):
        await someone.slash(table.channel, "settings", language=lang)
    state = game.engine.dump(game.state)
    nothing = await table.alice.slash(table.channel, "undo")
    assert nothing.response.ephemeral and nothing.response.content == t(lang, "undo.nothing")
    outsider = await table.dave.slash(table.channel, "undo")
    assert outsider.response.content == t(lang, "game.not_seated")
    assert game.engine.dump(game.state) == state and game.seq == 0
