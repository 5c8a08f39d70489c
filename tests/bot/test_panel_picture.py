"""The decision, pictured in its panel (issue 29 item 1), through the real bot: the panel
that Take turn opens carries a picture of what the decision is about (renderers/phone:
`decision_parts`), drawn from the clicking seat's own view; the panel a click turns into
carries the next decision's own picture, and a panel that says it waits carries none. The
table message stays the overview. `/move`'s reply that shows the typing seat's following
decision, and the panel Undo or `/undo` brings back, carry that decision's picture too.

The pictures draw no words (tiles, goods, numbers), so a player's `/settings` language
changes the panel's text and not its picture: each case runs in English, 繁體中文 and 日本語
(one real-game case in the default run, the others `slow`: tests/slow_marks.py)."""

from __future__ import annotations

import asyncio
import random

import pytest
from simcord.results import to_discord_message

from meeple_hall.bot import render
from meeple_hall.bot.i18n import t
from meeple_hall.renderers import phone
from tests.bot.conftest import (
    LANGUAGES,
    REAL_GAMES,
    answer_panel,
    awaited_humans,
    plan_turn,
    raw_buttons,
    seated_member,
    start_game,
    stored_message,
    table_message,
)

CLICKS = 6  # clicks on the panel after Take turn
TYPED = 40  # `/move`s of one answer each, at most, until one leaves its seat a decision
UNDOS = 20  # panels answered and undone, at most, until the button and /undo both took back


def expected_picture(game, seat: int) -> bytes | None:
    """The picture of the seat's decision now, drawn from that seat's own view."""
    view, decision = game.view(seat), game.decision_for(seat)
    fields = [option.fields for option in decision.options]
    parts, marks = phone.decision_picture(game.table.game, view, decision.kind, fields)
    return render.encode_decision(game.table.game, view, parts, marks) if parts else None


def shown_picture(game, seat: int) -> list[tuple[str, bytes]]:
    """What a panel of the seat's decision now carries: its picture, or nothing."""
    expected = expected_picture(game, seat)
    return [(render.DECISION_FILENAME, expected)] if expected is not None else []


def pictured_for(env, user_id: int) -> dict[int, list[str]]:
    """The messages carrying a decision picture that the user sees, by id, with their
    files; checked to be ephemeral ones to a player who asked (never a public message)."""
    seen: dict[int, list[str]] = {}
    for channel in env.backend.messages.values():
        for message in channel.values():
            names = [attachment["filename"] for attachment in message.attachments]
            if render.DECISION_FILENAME not in names:
                continue
            assert message.is_ephemeral and message.interaction_metadata, message
            if str(message.interaction_metadata["user"]["id"]) == str(user_id):
                seen[message.id] = [a["id"] for a in message.attachments]
    return seen


async def started_in(table, game_id: str, lang: str):
    """Alice and Bob at a game of `game_id`, both reading `lang` (their /settings language;
    the table message stays in the server's)."""
    game = await start_game(table, table.bob, game=game_id)
    for member in (table.alice, table.bob):
        await member.slash(table.channel, "settings", language=lang)
    return game


def undo_button(panel) -> str | None:
    return next((b["custom_id"] for b in raw_buttons(panel) if b["custom_id"][:2] == "u:"), None)


def undone_text(lang: str, first: int, last: int) -> str:
    if first == last:
        return t(lang, "undo.done", seq=first)
    return t(lang, "undo.done_chain", first=first, last=last)


async def pictures(env, message) -> list[tuple[str, bytes]]:
    """The files a message carries now (after every edit), by name."""
    shown = to_discord_message(env, stored_message(env, message))
    return [(a.filename, await a.read()) for a in shown.attachments]


async def take_turn(table, game, seat: int):
    """The seat's member clicks Take turn: its panel, checked to carry the picture of the
    seat's decision drawn from its own view, the table message unchanged."""
    member = seated_member(table, game, seat)
    overview = await pictures(table.env, table_message(table.channel))
    opened = await member.click(table_message(table.channel), label="Take turn")
    assert opened.ephemeral
    expected = expected_picture(game, seat)
    assert expected is not None, (
        f"{game.table.game}: {game.decision_for(seat).kind} pictures nothing"
    )
    assert await pictures(table.env, opened.response) == [(render.DECISION_FILENAME, expected)]
    assert await pictures(table.env, table_message(table.channel)) == overview
    return member, opened.response


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_the_panel_pictures_its_decision_and_each_next_one(table, game_id, lang):
    game = await started_in(table, game_id, lang)
    rng, followed, waited = random.Random(1), 0, 0
    for _ in range(CLICKS):
        seat = awaited_humans(game)[0]
        member, panel = await take_turn(table, game, seat)
        await answer_panel(member, panel, rng)
        while game.decision_for(seat) is not None and followed < CLICKS:
            # The panel turned into the seat's next decision, pictured anew
            shown = await pictures(table.env, panel)
            assert shown == [(render.DECISION_FILENAME, expected_picture(game, seat))]
            followed += 1
            await answer_panel(member, panel, rng)
        if game.decision_for(seat) is None:  # the panel says it waits: no picture
            assert t(lang, "panel.waiting") in stored_message(table.env, panel).content
            assert await pictures(table.env, panel) == []
            waited += 1
        if followed and waited:
            break
    assert followed and waited, (followed, waited)


async def test_the_picture_shows_the_clicking_seat_s_secrets_not_another_s(table):
    # Keyflower's screen and winter hand are secret: the bid's picture (auction + own area)
    # is drawn from the clicking seat's view, which another seat's would not match.
    game = await start_game(table, table.bob, game="keyflower")
    seat = awaited_humans(game)[0]
    other = 1 - seat
    _, panel = await take_turn(table, game, seat)
    kind = game.decision_for(seat).kind
    assert phone.OWN in phone.decision_parts("keyflower", game.view(seat), kind)
    parts = phone.decision_parts("keyflower", game.view(other), kind)
    as_other = render.encode_decision("keyflower", game.view(other), parts)
    [(_, shown)] = await pictures(table.env, panel)
    assert shown != as_other


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_move_s_reply_pictures_the_decision_it_leaves_the_player_at(table, game_id, lang):
    game = await started_in(table, game_id, lang)
    rng, pictured = random.Random(3), 0
    for _ in range(TYPED):
        seat = awaited_humans(game)[0]
        member, other = seated_member(table, game, seat), seated_member(table, game, 1 - seat)
        seen_by_other = pictured_for(table.env, other.id)
        [token] = plan_turn(game, seat, rng, most=1)
        typed = await member.slash(table.channel, "move", text=token)
        reply = typed.response
        assert reply.ephemeral and t(lang, "move.applied", moves=token) in reply.content
        assert pictured_for(table.env, other.id) == seen_by_other  # never the other seat's
        if game.decision_for(seat) is None:  # the reply says what was applied: no picture
            assert await pictures(table.env, reply) == []
            continue
        assert reply.components  # the next decision's panel
        shown = shown_picture(game, seat)
        assert await pictures(table.env, reply) == shown
        pictured += bool(shown)
        if pictured:
            break
    assert pictured, f"no typed move left a seat a pictured decision in {TYPED}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_undo_brings_the_panel_back_with_its_decision_s_picture(table, game_id, lang):
    game = await started_in(table, game_id, lang)
    rng, taken_back = random.Random(5), set()
    for _ in range(UNDOS):
        seat = awaited_humans(game)[0]
        member, panel = await take_turn(table, game, seat)
        other = seated_member(table, game, 1 - seat)
        opened_with, before = await pictures(table.env, panel), game.engine.dump(game.state)
        first = game.seq + 1
        await answer_panel(member, panel, rng)
        last, seen_by_other = game.seq, pictured_for(table.env, other.id)
        if "button" not in taken_back:  # the panel's Undo button: the panel itself changes
            button = undo_button(panel)
            undone = await member.click(panel, custom_id=button) if button else None
            how, shown = "button", panel
        else:  # /undo: a new panel below the table
            undone = await member.slash(table.channel, "undo")
            how, shown = "command", undone.response
        if game.engine.dump(game.state) != before:
            continue  # refused (a draw or a reveal came since, or no Undo offered): play on
        assert shown.ephemeral and undone_text(lang, first, last) in shown.content
        assert await pictures(table.env, shown) == opened_with == shown_picture(game, seat)
        assert pictured_for(table.env, other.id) == seen_by_other
        taken_back.add(how)
        if len(taken_back) == 2:
            break
    assert taken_back == {"button", "command"}, taken_back


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_picture_that_fails_to_draw_leaves_every_panel_working(
    table, monkeypatch, caplog, game_id
):
    async def broken(game_id: str, view: dict, kind: str, table: int | None = None) -> bytes:
        raise RuntimeError("a renderer's bug")

    game = await start_game(table, table.bob, game=game_id)
    monkeypatch.setattr(render, "decision_png", broken)
    rng, answers = random.Random(7), []
    seat = awaited_humans(game)[0]
    member = seated_member(table, game, seat)
    opened = await member.click(table_message(table.channel), label="Take turn")
    answers.append(opened)
    before = game.seq
    answers.append(await answer_panel(member, opened.response, rng))
    assert game.seq > before  # the panel without its picture works
    for _ in range(TYPED):  # a typed move, then the player takes it back
        seat = awaited_humans(game)[0]
        member = seated_member(table, game, seat)
        [token] = plan_turn(game, seat, rng, most=1)
        answers.append(await member.slash(table.channel, "move", text=token))
        if game.decision_for(seat) is not None:
            assert answers[-1].response.components  # the following decision's panel
            break
    answers.append(await member.slash(table.channel, "undo"))
    assert answers[-1].response.content.startswith("↩️")  # taken back
    shown = [r.response for r in answers] + [m for r in answers for m in r.followups]
    assert [await pictures(table.env, message) for message in shown] == [[]] * len(shown)
    assert not any(t("en", "error.unexpected") in message.content for message in shown)
    assert any(m.startswith("the picture of a panel") for m in caplog.messages), caplog.messages


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_refused_move_or_undo_pictures_nothing_and_changes_nothing(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    seat = awaited_humans(game)[0]
    member = seated_member(table, game, seat)
    before, seq = game.engine.dump(game.state), game.seq
    refused = [
        await member.slash(table.channel, "move", text="no-such-option"),
        await table.carol.slash(table.channel, "move", text="no-such-option"),  # unseated
        await table.carol.slash(table.channel, "undo"),
        await member.slash(table.channel, "undo"),  # nothing of theirs to take back
    ]
    for result in refused:
        assert result.ephemeral and result.response.content
        assert await pictures(table.env, result.response) == []
    assert game.engine.dump(game.state) == before and game.seq == seq
    assert all(pictured_for(table.env, m.id) == {} for m in (table.alice, table.bob))


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_move_typed_while_the_table_is_busy_gets_its_picture_too(table, game_id):
    # The table's lock is held (another move being applied): `/move` is acknowledged first,
    # its reply then the deferred answer, pictured as the direct one.
    game = await start_game(table, table.bob, game=game_id)
    rng = random.Random(3)
    for _ in range(TYPED):
        seat = awaited_humans(game)[0]
        member = seated_member(table, game, seat)
        [token] = plan_turn(game, seat, rng, most=1)
        async with game.lock:
            typing = asyncio.ensure_future(member.slash(table.channel, "move", text=token))
            for _ in range(50):
                await asyncio.sleep(0)
        typed = await typing
        reply = typed.followups[-1] if typed.followups else typed.response
        assert reply.ephemeral and t("en", "move.applied", moves=token) in reply.content
        if game.decision_for(seat) is not None and shown_picture(game, seat):
            assert await pictures(table.env, reply) == shown_picture(game, seat)
            return
        assert await pictures(table.env, reply) == []
    raise AssertionError(f"no typed move left a seat a pictured decision in {TYPED}")
