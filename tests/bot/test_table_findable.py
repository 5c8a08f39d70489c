"""A table a phone player can find, and a panel that goes on (issue 29, items 2 and 3).

The panels and replies the bot sends a player in the table's channel are ephemeral: they
lie below the table for that player but leave the channel's last message as it was. Once
more than a few lie below it, the table is posted again at the bottom at the next change
(bot/display.py: BURIED_AFTER), and the old one loses its buttons; no sooner. A panel whose
move hands the turn to AI seats that give it straight back goes on to the player's next
decision instead of saying there is nothing more to decide (bot/cogs/play.py: _choose).
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from itertools import pairwise

import pytest

from meeple_hall import games
from meeple_hall.bot.cogs.play import AI_AT_ONCE, AI_FOLLOWED_FOR
from meeple_hall.bot.display import BURIED_AFTER
from meeple_hall.bot.i18n import t
from meeple_hall.bot.live_game import decision_hash
from tests.bot.conftest import (
    EVERY_GAME,
    LANGUAGES,
    REAL_GAMES,
    add_ai,
    answer_panel,
    awaited_humans,
    buttons,
    raw_buttons,
    selects,
    stored_message,
    table_message,
)

MOST_STEPS = 40
# A table buried under panels: the steps stop once it was posted again for the panels below
# it, and kept with panels below it, this many times each.
ENOUGH = 3


def channel_messages(env, channel) -> list:
    """Every message of the channel as SimCord keeps it, ephemeral ones too (each shown to
    its own user only), in the order they were sent."""
    return list(env.backend.messages[channel.id].values())


def owner(message) -> int | None:
    """The user an ephemeral message was sent to."""
    user = (message.interaction_metadata or {}).get("user") or {}
    return int(user["id"]) if "id" in user else None


def is_table(embeds: list[dict], game) -> bool:
    footer = (embeds[0].get("footer") or {}).get("text", "") if embeds else ""
    return footer.startswith(f"Table #{game.id} ")


def table_posts(env, channel, game) -> list[str]:
    """What each table post of the game said as it was posted (a mention of whoever it
    newly awaits, or nothing), in order: an edit in place takes the mention away later."""
    path = f"/channels/{channel.id}/messages"
    sent = [r.json or {} for r in env.http_requests if r.method == "POST" and r.path == path]
    return [body.get("content") or "" for body in sent if is_table(body.get("embeds"), game)]


def below(messages: list, message_id: int) -> tuple[int, Counter]:
    """The channel posts, and each user's ephemeral messages, after a message."""
    index = next(i for i, m in enumerate(messages) if m.id == message_id)
    after = messages[index + 1 :]
    posts = sum(not m.is_ephemeral for m in after)
    return posts, Counter(owner(m) for m in after if m.is_ephemeral)


async def start_with(table, game_id: str, *, ai: int, level: str | None = None):
    """Alice alone, or against `ai` AI seats (at `level`, else the game's default)."""
    await table.alice.slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    for _ in range(ai):
        await add_ai(table.alice, lobby, level)
    await table.alice.click(lobby, label="Start")
    return table.env.bot.manager.in_channel(table.channel.id)


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_table_buried_under_panels_is_posted_again_at_the_bottom(table, game_id):
    """Alice answers each decision from a fresh panel after a look at her info, as a player
    does who dismisses each panel: the table never lies more than BURIED_AFTER of her
    messages up after a move, is posted again only when it does (or to tell someone it is
    their turn), and every older table has lost its buttons."""
    solo = games.get(game_id).min_players == 1
    game = await start_with(table, game_id, ai=0 if solo else 1)
    rng = random.Random(29)
    kept_with_panels_below = 0
    for _ in range(MOST_STEPS):
        if awaited_humans(game) != [0]:
            break  # the game is over
        shown, before = game.table.table_message_id, game.seq
        await table.alice.click(table_message(table.channel), label=t("en", "table.hand"))
        opened = await table.alice.click(table_message(table.channel), label="Take turn")
        await answer_panel(table.alice, opened.response, rng)
        if game.seq == before:
            continue  # refused: nothing changed, so the table was not shown again
        if game.table.status.value != "active":
            break  # the final scores are posted below the last table
        messages = channel_messages(table.env, table.channel)
        posts, panels = below(messages, game.table.table_message_id)
        assert posts == 0, "a channel post lies below the table"
        assert max(panels.values(), default=0) <= BURIED_AFTER, panels
        if game.table.table_message_id == shown and panels:
            kept_with_panels_below += 1
        posted_with = table_posts(table.env, table.channel, game)
        reposts = sum("<@" not in content for content in posted_with[1:])
        if reposts >= ENOUGH and kept_with_panels_below >= ENOUGH:
            break  # both seen more than once: the rest of the game shows no more

    messages = channel_messages(table.env, table.channel)
    tables = [
        (i, m) for i, m in enumerate(messages) if not m.is_ephemeral and is_table(m.embeds, game)
    ]
    posted_with = table_posts(table.env, table.channel, game)
    assert len(posted_with) == len(tables)
    assert tables[-1][1].id == game.table.table_message_id
    if game.table.status.value == "active":
        assert "Take turn" in buttons(table_message(table.channel))
    buried_reposts = 0
    for ((i, old), (j, _)), content in zip(pairwise(tables), posted_with[1:], strict=True):
        assert not old.components, "an old table kept its buttons"
        if "<@" in content:
            continue  # posted to tell someone it is their turn
        between = messages[i + 1 : j]
        assert not any(not m.is_ephemeral for m in between), "a channel post came between"
        most = max(Counter(owner(m) for m in between if m.is_ephemeral).values(), default=0)
        assert most > BURIED_AFTER, f"posted again with only {most} messages below the old one"
        buried_reposts += 1
    assert buried_reposts >= 1, "the table was never posted again for the panels below it"
    assert kept_with_panels_below >= 1, "the table was posted again on every move"


def shows_decision(panel, game, seat: int) -> bool:
    """The panel is the seat's decision as the game stands now: its controls name that
    decision (a decision all seats answer at once stays the same while others answer it)."""
    decision = game.decision_for(seat)
    ids = [b["custom_id"] for b in raw_buttons(panel)] + [m["custom_id"] for m in selects(panel)]
    built_for = {i.split(":")[3] for i in ids if i.startswith("g:")}  # beside an Undo button
    return decision is not None and built_for == {decision_hash(decision)}


async def follow_panel(table, game, rng, lang: str, *, most: int, enough: int) -> int:
    """Alice opens one panel and answers from it only, as long as it goes on (at most `most`
    answers, or until the AI seats have moved between two of them `enough` times); the
    times the AI seats moved between two of her answers."""
    opened = await table.alice.click(table_message(table.channel), label="Take turn")
    panel = opened.response
    ai_turns = 0
    for _ in range(most):
        if game.table.status.value != "active":
            break
        assert shows_decision(panel, game, 0), panel.content
        before = game.seq
        result = await answer_panel(table.alice, panel, rng)
        if game.seq == before:
            continue  # refused (a random pick the rules forbid): answered again
        content = result.response.content
        if game.decision_for(0) is None:
            assert t(lang, "panel.waiting") in content
            break
        assert t(lang, "panel.waiting") not in content, content
        assert content.startswith("✅ "), content
        assert t(lang, "panel.header", prompt=game.decision_for(0).prompt) in content
        actions = await table.env.bot.store.actions(game.id, after=before)
        ai_turns += any(game.table.seats[a.seat].ai for a in actions)
        if ai_turns >= enough:
            break  # the panel went on past the AI's moves that many times
        panel = result.response
    return ai_turns


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_panel_goes_on_when_the_ai_hands_the_turn_back(table, game_id, lang):
    """Against an AI seat, the panel that ends Alice's turn turns into her next decision
    once the AI has moved (in her language), so one Take turn lasts many turns."""
    await table.alice.slash(table.channel, "settings", language=lang)
    game = await start_with(table, game_id, ai=1)
    ai_turns = await follow_panel(table, game, random.Random(7), lang, most=24, enough=4)
    assert ai_turns >= 2, "the AI seat never moved between two of Alice's answers"


def panel_edits(env, since: int) -> list[str]:
    """The texts the bot's answers to clicks were edited to, from the `since`th request on."""
    return [
        (r.json or {}).get("content") or ""
        for r in env.http_requests[since:]
        if r.method == "PATCH" and r.path.endswith("/messages/@original")
    ]


# The panel waits AI_FOLLOWED_FOR seconds for an AI still thinking (bot/cogs/play.py). SimCord's
# settle waits out in real time a bot timer due within its timeout: under that wait, the
# settle leaves the panel waiting, and the AI's thinking to advance_time, on virtual time.
@pytest.mark.simcord(settle_timeout=AI_FOLLOWED_FOR * 0.8)
@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_panel_says_it_waits_for_a_slow_ai_then_goes_on(table, game_id):
    """An AI seat that thinks longer than the panel's answer waits for it (as a `strong`
    one can): the panel says at once that it waits, then turns into Alice's next decision
    once the AI has moved."""
    env = table.env
    game = await start_with(table, game_id, ai=1)
    manager = env.bot.manager
    thinks_at_once = manager.chooser
    thinking = AI_AT_ONCE * 2

    async def thinks_long(*question):
        # on virtual time: only advance_time ends the thinking
        await env.external_wait(asyncio.sleep(thinking), reason="the AI thinks long")
        return await thinks_at_once(*question)

    async def until_alice_decides() -> None:
        while game.table.status.value == "active" and game.decision_for(0) is None:
            await env.advance_time(thinking)

    manager.chooser = thinks_long
    await until_alice_decides()
    opened = await table.alice.click(table_message(table.channel), label="Take turn")
    panel, rng = opened.response, random.Random(5)
    waiting = t("en", "panel.waiting")
    for _ in range(MOST_STEPS):
        since, before = len(env.http_requests), game.seq
        panel = (await answer_panel(table.alice, panel, rng)).response
        if any(waiting in text for text in panel_edits(env, since)):
            break
        assert game.seq == before or shows_decision(panel, game, 0), panel.content
    else:
        raise AssertionError("Alice's panel never waited for the AI")
    assert game.decision_for(0) is None, "the panel waits while Alice has a decision"
    for _ in range(MOST_STEPS):  # the AI thinks, a turn at a time
        edits = panel_edits(env, since)
        said = next(i for i, text in enumerate(edits) if waiting in text)
        if edits[said + 1 :]:
            break
        await env.advance_time(thinking)
    else:
        raise AssertionError("the panel said it waits, and stayed so")
    panel = stored_message(env, panel)
    assert waiting not in panel.content
    assert shows_decision(panel, game, 0), panel.content
    actions = await env.bot.store.actions(game.id, after=before)
    assert any(game.table.seats[a.seat].ai for a in actions)
