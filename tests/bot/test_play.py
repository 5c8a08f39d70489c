"""Playing through Discord: panels, simultaneous decisions, /move, AI seats, the end."""

from __future__ import annotations

import asyncio
import copy
import random

from meeple_hall.bot.live import Refusal, TableManager, decision_hash
from meeple_hall.bot.store import TableStatus, open_store
from meeple_hall.games import Action
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import (
    answer_panel,
    buttons,
    click_as_it_was,
    play_out,
    raw_buttons,
    selects,
    start_game,
    stored_message,
    table_message,
)


async def test_start_posts_the_table_with_picture_and_mentions(table):
    await start_game(table, table.bob)
    message = table_message(table.channel)
    assert message.attachments and message.attachments[0].filename == "table.png"
    assert table.alice.mention in message.content and table.bob.mention in message.content
    assert {"Take turn", "My info", "Log"} <= set(buttons(message))


async def test_a_whole_game_through_panels_ends_with_scores(table):
    game = await start_game(table, table.bob)
    await play_out(table, game, [table.alice, table.bob], random.Random(1))
    final = table.channel.last_message
    assert "final scores" in final.embeds[0].title
    assert final.attachments
    stored = await table.env.bot.store.get_table(game.id)
    assert stored.status is TableStatus.FINISHED
    assert sum(1 for f in final.embeds[0].fields if f.name.startswith("#")) == 2
    assert table.env.bot.manager.in_channel(table.channel.id) is None
    assert not any(buttons(m) for m in table.channel.history() if m.attachments)


async def test_simultaneous_bids_from_panels_opened_together(table):
    game = await start_game(table, table.bob)
    message = table_message(table.channel)
    alice_panel = (await table.alice.click(message, label="Take turn")).response
    bob_panel = (await table.bob.click(message, label="Take turn")).response
    await table.alice.click(alice_panel, label="Bid 2")
    result = await table.bob.click(bob_panel, label="Bid 1")
    assert "out of date" not in result.response.content
    assert [p.bid for p in game.state.players] == [2, 1]


async def test_double_click_applies_once(table):
    game = await start_game(table, table.bob)
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    as_shown = copy.deepcopy(stored_message(table.env, panel))
    bid3 = buttons(panel.message)["Bid 3"]
    await table.alice.click(panel, label="Bid 3")
    seq = game.seq
    again = await click_as_it_was(table.alice, as_shown, bid3)
    assert game.seq == seq == 1
    assert again.ephemeral
    assert "isn't your turn" in again.response.content


async def test_stale_panel_is_replaced_by_the_current_decision(table):
    game = await start_game(table)
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    await table.alice.slash(table.channel, "move", text="bid0")
    seq = game.seq
    result = await table.alice.click(panel, label="Bid 1")
    assert game.seq == seq
    assert "out of date" in result.response.content
    assert "Take a pebble" in result.response.content


async def test_stranger_and_waiting_player_are_turned_away(table):
    game = await start_game(table, table.bob)
    message = table_message(table.channel)
    stranger = await table.carol.click(message, label="Take turn")
    assert stranger.ephemeral and "aren't seated" in stranger.response.content
    await table.alice.slash(table.channel, "move", text="bid1")
    waiting = await table.alice.click(table_message(table.channel), label="Take turn")
    assert waiting.ephemeral and "isn't your turn" in waiting.response.content
    assert game.seq == 1


async def test_move_text_walks_several_decisions(table):
    game = await start_game(table)
    result = await table.alice.slash(table.channel, "move", text="bid2 red-7 C99")
    assert game.seq == 2
    assert "Applied: `bid2 red-7`" in result.response.content
    assert "isn't a choice" in result.response.content


async def test_move_autocomplete_lists_legal_options(table):
    await start_game(table)
    choices = await table.alice.autocomplete(table.channel, "move", "text", "bi")
    assert [c["value"] for c in choices] == [f"bid{n}" for n in range(6)]
    choices = await table.alice.autocomplete(table.channel, "move", "text", "bid1 blue-1")
    assert [c["value"] for c in choices] == ["bid1 blue-1", "bid1 blue-10"]


async def test_pick_panel_pages_thirty_options_into_menus(table):
    await start_game(table)
    await table.alice.slash(table.channel, "move", text="bid0")
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    from tests.bot.conftest import selects

    menus = selects(panel)
    assert [len(m["options"]) for m in menus] == [25, 5]
    assert menus[0]["options"][0]["emoji"]["name"] == "🔴"
    # Each menu's placeholder names its first and last line as the menu shows them.
    assert [m["placeholder"] for m in menus] == ["🔴 1 … 🔴 9", "🔵 9 … 🟢 10"]


async def test_ai_seats_play_on_their_own(table):
    game = await start_game(table, ai=2)
    await table.alice.slash(table.channel, "move", text="bid1")
    assert game.seq >= 3
    assert [d.seat for d in game.decisions()] in ([0], [])


async def test_keep_is_a_multi_select(table):
    game = await start_game(table)
    await table.alice.slash(table.channel, "move", text="bid0 red-1")
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    rng = random.Random(3)
    await answer_panel(table.alice, panel, rng)
    assert game.state.round == 2
    assert 1 <= len(game.state.players[0].kept) <= 2


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


async def test_two_processes_racing_for_one_move_apply_it_once(table, database_url):
    """Another process on the same database (a second shard) takes a move first: this
    bot's click is told the panel is out of date, and the bot catches up from the log."""
    game = await start_game(table)
    other_store = open_store(database_url)
    await other_store.open()
    other = TableManager(other_store)
    rival = await other.load(await other_store.get_table(game.id))
    await other.submit(rival, 0, ("bid1",), user_id=table.alice.id)
    await other_store.close()
    panel = (await table.alice.click(table_message(table.channel), label="Take turn")).response
    result = await table.alice.click(panel, label="Bid 2")
    assert "out of date" in result.response.content
    assert game.seq == 1 and game.state.players[0].bid == 1


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
