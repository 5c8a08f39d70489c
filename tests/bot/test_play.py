"""Playing through Discord: panels, simultaneous decisions, /move, AI seats, the end."""

from __future__ import annotations

import asyncio
import copy
import random

import pytest

from meeple_hall.bot.live import Refusal, TableManager, decision_hash
from meeple_hall.bot.store import TableStatus, open_store
from meeple_hall.games import Action
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import (
    EVERY_GAME,
    answer_panel,
    answer_seat,
    awaited_humans,
    buttons,
    click_as_it_was,
    panel_options,
    play_out,
    raw_buttons,
    selects,
    start_game,
    stored_message,
    table_message,
)
from tests.bot.every_game import (
    acting_seat,
    final_scores,
    joining,
    near_the_end,
    one_click_answer,
    play_until,
    prompt_shown,
    said,
    submit,
    table_shown,
    twice_in_a_row,
)

every_game = pytest.mark.parametrize("game_id", EVERY_GAME)


@every_game
async def test_start_posts_the_table_with_picture_and_mentions(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    message = table_message(table.channel)
    assert message.attachments and message.attachments[0].filename == "table.png"
    members = (table.alice, table.bob)
    awaited = awaited_humans(game)
    assert awaited
    for seat, member in enumerate(members):
        assert (member.mention in message.content) == (seat in awaited), message.content
    assert {"Take turn", "My info", "Log"} <= set(buttons(message))


@every_game
async def test_a_whole_game_through_panels_ends_with_scores(table, game_id, backend):
    if backend == "postgres" and game_id != "pebbles":
        pytest.skip("the real games' ends run on SQLite (the store's traffic is the same)")
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(1)
    await near_the_end(table, game, rng)  # the real games' last moves come through panels
    await play_out(table, game, [table.alice, table.bob], rng)
    final = await final_scores(table)
    assert final.attachments
    stored = await table.env.bot.store.get_table(game.id)
    assert stored.status is TableStatus.FINISHED
    assert sum(1 for f in final.embeds[0].fields if f.name.startswith("#")) == 2
    assert table.env.bot.manager.in_channel(table.channel.id) is None
    # Every table message has lost its buttons; the final scores keep only their Review
    # (none for the test game, which has no strong player to review with).
    assert list(buttons(final)) == ([] if game_id == "pebbles" else ["Review"])
    assert not any(buttons(m) for m in table.channel.history() if m.attachments and m != final)


async def test_simultaneous_bids_from_panels_opened_together(table):
    game = await start_game(table, table.bob)
    message = table_message(table.channel)
    alice_panel = (await table.alice.click(message, label="Take turn")).response
    bob_panel = (await table.bob.click(message, label="Take turn")).response
    await table.alice.click(alice_panel, label="Bid 2")
    result = await table.bob.click(bob_panel, label="Bid 1")
    assert "out of date" not in result.response.content
    assert [p.bid for p in game.state.players] == [2, 1]


async def test_simultaneous_decisions_from_panels_opened_together(table):
    """A real game's simultaneous steps (Keyflower's: placing tiles at winter's start, the
    winter tiles kept) answered from panels both players opened before either answered."""
    game = await start_game(table, table.bob, game="keyflower")
    rng = random.Random(11)
    await play_until(table, game, lambda g: awaited_humans(g) == [0, 1], rng)
    seq = game.seq
    message = table_message(table.channel)
    members = (table.alice, table.bob)
    panels = [(await m.click(message, label="Take turn")).response for m in members]
    for member, panel in zip(members, panels, strict=True):
        result = await answer_panel(member, panel, rng)
        assert "out of date" not in result.response.content, result.response.content
    assert game.seq >= seq + 2
    logged = await table.env.bot.store.actions(game.id, after=seq)
    assert {a.seat for a in logged} == {0, 1}


@every_game
async def test_double_click_applies_once(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    member = (table.alice, table.bob)[acting_seat(game)]
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    as_shown = copy.deepcopy(stored_message(table.env, panel))
    custom_id, values = one_click_answer(panel)
    await click_as_it_was(member, as_shown, custom_id, values)
    seq = game.seq
    assert seq >= 1
    again = await click_as_it_was(member, as_shown, custom_id, values)
    assert game.seq == seq
    assert await table.env.bot.store.last_seq(game.id) == seq
    assert again.response.ephemeral
    answer = said(again)
    assert "isn't your turn" in answer or "out of date" in answer, answer


@every_game
async def test_stale_panel_is_replaced_by_the_current_decision(table, game_id):
    game = await start_game(table, *joining(table, game_id), game=game_id)
    members = (table.alice, table.bob)
    rng = random.Random(2)
    seat, choices, _ = await play_until(table, game, twice_in_a_row(rng), rng)
    member = members[seat]
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    await member.slash(table.channel, "move", text=",".join(choices) or "none")
    seq = game.seq
    custom_id, values = one_click_answer(panel)
    result = await click_as_it_was(member, stored_message(table.env, panel), custom_id, values)
    assert game.seq == seq
    assert "out of date" in said(result)
    assert prompt_shown(game, seat) in said(result)


@every_game
async def test_stranger_and_waiting_player_are_turned_away(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    members = (table.alice, table.bob)
    stranger = await table.carol.click(table_message(table.channel), label="Take turn")
    assert stranger.ephemeral and "aren't seated" in stranger.response.content
    seat = acting_seat(game)
    await answer_seat(table, game, seat, random.Random(4))  # the rest of the seat's turn
    waiting = [s for s in range(2) if s not in awaited_humans(game)]
    assert waiting, "every seat is awaited"
    seq = game.seq
    turned = await members[waiting[0]].click(table_message(table.channel), label="Take turn")
    assert turned.ephemeral and "isn't your turn" in turned.response.content
    assert game.seq == seq


@every_game
async def test_move_text_walks_several_decisions(table, game_id):
    game = await start_game(table, *joining(table, game_id), game=game_id)
    rng = random.Random(5)
    seat, first, second = await play_until(table, game, twice_in_a_row(rng), rng)
    tokens = [",".join(first) or "none", ",".join(second) or "none"]
    seq = game.seq
    member = (table.alice, table.bob)[seat]
    result = await member.slash(table.channel, "move", text=" ".join([*tokens, "zz-nonsense"]))
    assert game.seq == seq + 2
    answer = result.response.content
    applied = " ".join(" ".join(choices) for choices in (first, second))  # as the bot echoes
    assert f"Applied: `{applied}`" in answer, answer
    # the third token is refused: not a choice, or not the seat's turn any more
    assert "isn't a choice" in answer or "isn't your turn" in answer, answer


@every_game
async def test_move_autocomplete_lists_legal_options(table, game_id):
    game = await start_game(table, *joining(table, game_id), game=game_id)
    rng = random.Random(8)
    seat, choices, _ = await play_until(table, game, twice_in_a_row(rng), rng)
    member = (table.alice, table.bob)[seat]
    ids = [o.id for o in game.decision_for(seat).options]
    every = await member.autocomplete(table.channel, "move", "text", "")
    assert [c["value"] for c in every] == ids[:25]
    typed = ids[-1][:2]
    some = [c["value"] for c in await member.autocomplete(table.channel, "move", "text", typed)]
    starting = [i for i in ids if i.startswith(typed)][:25]
    assert some[: len(starting)] == starting
    # after a whole first token, the seat's next decision's options
    first = ",".join(choices) or "none"
    after = game.engine.apply(game.state, Action(seat, choices))
    following = next(d for d in game.engine.decisions(after) if d.seat == seat)
    nxt = await member.autocomplete(table.channel, "move", "text", f"{first} ")
    assert [c["value"] for c in nxt] == [f"{first} {o.id}" for o in following.options][:25]
    waiting = (table.alice, table.bob)[1 - seat]
    if 1 - seat not in awaited_humans(game):
        assert await waiting.autocomplete(table.channel, "move", "text", "") == []


async def test_pick_panel_pages_thirty_options_into_menus(table):
    await start_game(table)
    await table.alice.slash(table.channel, "move", text="bid0")
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    menus = selects(panel)
    assert [len(m["options"]) for m in menus] == [25, 5]
    assert menus[0]["options"][0]["emoji"]["name"] == "🔴"
    # Each menu's placeholder names its first and last line as the menu shows them.
    assert [m["placeholder"] for m in menus] == ["🔴 1 … 🔴 9", "🔵 9 … 🟢 10"]


async def test_a_real_games_long_decision_pages_into_menus(table):
    """Coffee Traders offers more than one menu's 25 lines at times: every option is on the
    panel, alone or at the head of its folded lines (a Coffee Bar's space with the coffee it
    takes), in menus of at most 25."""
    game = await start_game(table, table.bob, game="coffee")

    def long_decision(game):
        return next(
            (d for d in game.decisions() if len(d.options) > 25 and d.seat in awaited_humans(game)),
            None,
        )

    decision = await play_until(table, game, long_decision, random.Random(12))
    member = (table.alice, table.bob)[decision.seat]
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    menus = selects(panel)
    assert len(menus) >= 2 and all(len(m["options"]) <= 25 for m in menus)
    assert {line.split(">")[0] for line in panel_options(panel)} >= {o.id for o in decision.options}


@every_game
async def test_ai_seats_play_on_their_own(table, game_id):
    game = await start_game(table, ai=2, game=game_id)
    rng = random.Random(1)
    while not [a for a in await table.env.bot.store.actions(game.id) if a.seat != 0]:
        await submit(table, game, 0, random_choices(game.decision_for(0), rng))
        await table_shown(table, game)  # the AI seats' moves that follow
    ai_moves = [a for a in await table.env.bot.store.actions(game.id) if a.seat != 0]
    assert all(a.user_id is None for a in ai_moves)
    assert [d.seat for d in game.decisions()] in ([0], [])


async def test_keep_is_a_multi_select(table):
    game = await start_game(table)
    await table.alice.slash(table.channel, "move", text="bid0 red-1")
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    rng = random.Random(3)
    await answer_panel(table.alice, panel, rng)
    assert game.state.round == 2
    assert 1 <= len(game.state.players[0].kept) <= 2


@pytest.mark.parametrize("game_id", ["coffee", "keyflower"])  # early multi-choice steps
async def test_a_real_games_multi_choice_decision_is_answered_from_its_panel(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(13)

    def multi_choice(game):
        return next(
            (d for d in game.decisions() if d.max_choices > 1 and d.seat in awaited_humans(game)),
            None,
        )

    decision = await play_until(table, game, multi_choice, rng)
    member = (table.alice, table.bob)[decision.seat]
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    assert any(m.get("max_values", 1) > 1 for m in selects(panel)) or any(
        b["custom_id"].endswith(":c") for b in raw_buttons(panel)
    )
    seq = game.seq
    result = await answer_panel(member, panel, rng)
    assert "out of date" not in result.response.content
    assert game.seq > seq
    answered = (await table.env.bot.store.actions(game.id, after=seq))[0]
    assert answered.seat == decision.seat
    assert decision.min_choices <= len(answered.choices) <= decision.max_choices


async def test_a_whole_game_through_move_text(table):
    game = await start_game(table, table.bob)
    members = [table.alice, table.bob]
    rng = random.Random(7)
    while game.decisions():
        decision = rng.choice(game.decisions())
        count = rng.randint(decision.min_choices, decision.max_choices)
        tokens = ",".join(o.id for o in rng.sample(list(decision.options), count))
        result = await members[decision.seat].slash(table.channel, "move", text=tokens)
        assert "Applied" in result.response.content
    assert "final scores" in table.channel.last_message.embeds[0].title


@every_game
async def test_two_processes_racing_for_one_move_apply_it_once(table, database_url, game_id):
    """Another process on the same database (a second shard) takes a move first: this
    bot's click is told the panel is out of date, and the bot catches up from the log."""
    game = await start_game(table, table.bob, game=game_id)
    seat = acting_seat(game)
    member = (table.alice, table.bob)[seat]
    shown = game.decision_for(seat)
    panel = (await member.click(table_message(table.channel), label="Take turn")).response
    rival_choices = random_choices(shown, random.Random(14))
    other_store = open_store(database_url)
    await other_store.open()
    other = TableManager(other_store)
    rival = await other.load(await other_store.get_table(game.id))
    await other.submit(rival, seat, rival_choices, user_id=member.id)
    then = next((d for d in rival.decisions() if d.seat == seat), None)
    await other.close()
    await other_store.close()
    result = await answer_panel(member, panel, random.Random(15))
    log = await table.env.bot.store.actions(game.id)
    assert (log[0].seat, log[0].choices) == (seat, rival_choices)  # the rival's, once
    if then is None:  # "out of date", or, once this bot heard of the move (NOTIFY), not yet
        assert "out of date" in said(result) or "isn't your turn" in said(result), said(result)
        assert game.seq == 1 and game.engine.dump(game.state) == game.engine.dump(rival.state)
    elif decision_hash(then) != decision_hash(shown):
        assert "out of date" in said(result)
        assert game.seq == 1 and game.engine.dump(game.state) == game.engine.dump(rival.state)
    else:  # the same decision again (a track walked step by step): the click is a new move
        assert game.seq == 2


async def test_a_multi_select_over_several_menus_is_kept_until_confirm(table):
    game = await start_game(table, game="draft")
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    menus = selects(panel)
    assert [len(m["options"]) for m in menus] == [25, 15]
    assert [m["min_values"] for m in menus] == [0, 0]
    first = await table.alice.select(panel, ["k01", "k03"], custom_id=menus[0]["custom_id"])
    second = await table.alice.select(first.response, ["k30"], custom_id=menus[1]["custom_id"])
    assert game.seq == 0
    confirm = next(b for b in raw_buttons(second.response) if b["custom_id"].endswith(":c"))
    assert confirm["label"] == "Confirm (3)"
    done = await table.alice.click(second.response, custom_id=confirm["custom_id"])
    assert game.state.chosen[0] == ["k01", "k03", "k30"]
    assert "Keep more cards, or none" in done.response.content


async def test_confirming_too_few_is_refused_and_changes_nothing(table):
    game = await start_game(table, game="draft")
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    menus = selects(panel)
    picked = await table.alice.select(panel, ["k05"], custom_id=menus[0]["custom_id"])
    confirm = next(b for b in raw_buttons(picked.response) if b["custom_id"].endswith(":c"))
    refused = await table.alice.click(picked.response, custom_id=confirm["custom_id"])
    assert "choose 2 to 5, not 1" in refused.response.content
    assert game.seq == 0


async def test_choosing_nothing_where_allowed(table):
    game = await start_game(table, game="draft")
    await table.alice.slash(table.channel, "move", text="k01,k02")
    result = await table.alice.slash(table.channel, "move", text="none")
    assert "Applied" in result.response.content
    assert game.state.chosen[0] == ["k01", "k02"] and game.state.step == 2


async def test_two_overlapping_submissions_of_one_click_apply_once(table):
    """A double click whose two submissions reach the bot together. Village repeats a seat's
    decision with the same choices (walking a track one step at a time), so a second
    submission applied again would be a legal, different move: only the panel's sequence
    number tells that it is the same click."""
    game = await start_game(table, table.bob, game="village")
    manager, rng = table.env.bot.manager, random.Random(7)
    seat = choice = None
    for _ in range(2000):
        decision = game.decisions()[0]
        picked = random_choices(decision, rng)
        after = game.engine.apply(game.state, Action(decision.seat, picked))
        again = next((d for d in game.engine.decisions(after) if d.seat == decision.seat), None)
        if len(picked) == 1 and again is not None and again.option(picked[0]):
            seat, choice = decision.seat, picked
            break
        await manager.submit(game, decision.seat, picked, user_id=None)
    assert seat is not None, "no repeated decision came up"
    seen_seq, seen_hash = game.seq, decision_hash(game.decision_for(seat))
    user = (table.alice, table.bob)[seat].id

    outcomes = await asyncio.gather(
        *(
            manager.submit(game, seat, choice, user_id=user, seen_seq=seen_seq, seen_hash=seen_hash)
            for _ in range(2)
        ),
        return_exceptions=True,
    )
    assert game.seq == seen_seq + 1
    assert await table.env.bot.store.last_seq(game.id) == seen_seq + 1
    refused = [o for o in outcomes if isinstance(o, Refusal)]
    assert [r.key for r in refused] == ["move.stale"]
