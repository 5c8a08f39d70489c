"""The decision, pictured in its panel (issue 29 item 1), through the real bot: the panel
that Take turn opens carries a picture of what the decision is about (renderers/phone:
`decision_parts`), drawn from the clicking seat's own view; the panel a click turns into
carries the next decision's own picture, and a panel that says it waits carries none. The
table message stays the overview."""

from __future__ import annotations

import random

import pytest
from simcord.results import to_discord_message

from meeple_hall.bot import render
from meeple_hall.bot.i18n import t
from meeple_hall.renderers import phone
from tests.bot.conftest import (
    REAL_GAMES,
    answer_panel,
    awaited_humans,
    seated_member,
    start_game,
    stored_message,
    table_message,
)

CLICKS = 6  # clicks on the panel after Take turn


def expected_picture(game, seat: int) -> bytes | None:
    """The picture of the seat's decision now, drawn from that seat's own view."""
    view = game.view(seat)
    parts = phone.decision_parts(game.table.game, view, game.decision_for(seat).kind)
    return render.encode_decision(game.table.game, view, parts) if parts else None


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


@pytest.mark.parametrize(
    ("game_id", "lang"), [*((g, "en") for g in REAL_GAMES), ("keyflower", "zh-TW")]
)
async def test_the_panel_pictures_its_decision_and_each_next_one(table, game_id, lang):
    game = await start_game(table, table.bob, game=game_id)
    for member in (table.alice, table.bob):
        await member.slash(table.channel, "settings", language=lang)
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
