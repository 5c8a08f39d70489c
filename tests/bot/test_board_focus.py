"""The phone view in Discord: `/board focus:` (a part of the table, readable on a phone) with
autocomplete of the parts the game offers, a clear refusal for a part it has not, and /hand
with the seat's own area as a picture that reads at 400 px."""

from __future__ import annotations

import io

from PIL import Image

from meeple_hall.bot import focus
from meeple_hall.renderers import phone
from meeple_hall.renderers.phone import PHONE_WIDTH
from tests.bot.conftest import start_game


async def _picture(result) -> Image.Image:
    return Image.open(io.BytesIO(await result.response.attachments[0].read()))


async def test_board_focus_autocompletes_the_parts_of_the_table(table):
    await start_game(table, table.bob, game="keyflower")
    choices = await table.carol.autocomplete(table.channel, "board", "focus", "")
    assert [c["value"] for c in choices] == ["auction", "seat1", "seat2"]
    assert choices[0]["name"] == "Auction: tiles, turn order and boats"
    assert choices[2]["name"].startswith("Seat 2: ")
    typed = await table.carol.autocomplete(table.channel, "board", "focus", "seat")
    assert [c["value"] for c in typed] == ["seat1", "seat2"]


async def test_board_focus_posts_that_part_large_enough_for_a_phone(table):
    await start_game(table, table.bob, game="keyflower")
    whole = await table.carol.slash(table.channel, "board")
    part = await table.carol.slash(table.channel, "board", focus="auction")
    assert not part.ephemeral
    assert "Auction: tiles, turn order and boats" in part.response.content
    full, crop = await _picture(whole), await _picture(part)
    assert crop.width >= PHONE_WIDTH and crop.width < full.width * 0.6


async def test_a_focus_the_game_has_not_is_refused_and_nothing_is_posted(table):
    await start_game(table, table.bob, game="keyflower")
    before = len(table.channel.history())
    result = await table.carol.slash(table.channel, "board", focus="depots")
    assert result.ephemeral
    assert "no part of the table called “depots”" in result.response.content
    assert "`auction`" in result.response.content and "`seat2`" in result.response.content
    assert not result.response.attachments
    assert len(table.channel.history()) == before


async def test_hand_shows_the_seat_s_own_area_readable_on_a_phone(table):
    await start_game(table, table.bob, game="burgundy")
    result = await table.bob.slash(table.channel, "hand")
    assert result.ephemeral
    picture = await _picture(result)
    # The estate panel above the sold goods: about one phone wide, not the 786 px side by side.
    assert PHONE_WIDTH <= picture.width <= 500 and picture.height > picture.width


async def test_a_part_that_is_no_seat_of_the_table_gets_its_own_label(table, monkeypatch):
    # A renderer offering a seat the table has not (an automaton's board, as Coffee
    # Traders' André once was) or a part with no words yet: each still has a label, and the
    # others keep theirs (one failure used to empty the whole list).
    await start_game(table, table.bob, game="keyflower")
    offered = ["auction", "seat1", "seat2", "seat3", "coop2", "hold"]
    monkeypatch.setattr(phone, "focuses", lambda game_id, view: offered)
    choices = await table.carol.autocomplete(table.channel, "board", "focus", "")
    names = {c["value"]: c["name"] for c in choices}
    assert list(names) == offered
    assert names["seat2"].startswith("Seat 2: ") and names["seat3"] == "Seat 3"
    assert names["coop2"] == "Cooperative 2" and names["hold"] == "hold"
    typed = await table.carol.autocomplete(table.channel, "board", "focus", "seat 3")
    assert [c["value"] for c in typed] == ["seat3"]


async def test_a_label_that_fails_leaves_the_other_parts_in_the_list(table, monkeypatch):
    await start_game(table, table.bob, game="keyflower")
    worked_out = focus._label

    def failing(game, part, locale):
        if part == "seat1":
            raise KeyError("name")
        return worked_out(game, part, locale)

    monkeypatch.setattr(focus, "_label", failing)
    choices = await table.carol.autocomplete(table.channel, "board", "focus", "")
    assert [(c["value"], c["name"]) for c in choices][:2] == [
        ("auction", "Auction: tiles, turn order and boats"),
        ("seat1", "seat1"),
    ]
    assert [c["value"] for c in choices] == ["auction", "seat1", "seat2"]
