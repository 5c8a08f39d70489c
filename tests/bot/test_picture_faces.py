"""Pictures with words in the reader's glyph shapes, through /leaderboard (issue 25, item 4):
players named 直子🎲 and 骨太 角 are drawn in Japanese shapes for a reader whose /settings
language is 日本語 and in Traditional Chinese ones for a 繁體中文 reader (every SimCord
interaction arrives with client locale en-US: the /settings choice decides), and the die
in a name is drawn from the emoji font, not as the missing-glyph box. On the test game and
each of the four real games."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from meeple_hall.bot.store import FinalResult
from meeple_hall.renderers.leaderboard import (
    HEADER_HEIGHT,
    MARGIN,
    ROW_HEIGHT,
    Board,
    Row,
    render_board,
)
from tests.bot.conftest import EVERY_GAME, Table

NAMES = ("直子🎲", "骨太 角")  # the winner first: the leaderboard's first row
MISSING = "\U000f0000"  # a private-use character no font has: drawn as the .notdef box


def hall(env) -> Table:
    guild = env.create_guild(name="Hall", preferred_locale="en-US")
    channel = guild.create_text_channel("games")
    names = (*NAMES, "carol", "dave")
    return Table(env, guild, channel, *(guild.add_member(env.create_user(n)) for n in names))


async def rated_game(table: Table, game_id: str) -> None:
    """A rated game that alice (直子🎲) wins against bob, finished as another process would
    finish it (the store ends it with its result, this process hears of it)."""
    lobby = (await table.alice.slash(table.channel, "new", game=game_id)).response
    await table.bob.click(lobby, label="Join")
    await table.alice.click(lobby, label="Start")
    game = table.env.bot.manager.in_channel(table.channel.id)
    result = FinalResult(scores=(20, 10), ranks=(1, 2), breakdown=({}, {}))
    await table.env.bot.store.finish_table(game.id, result)
    await table.env.bot.manager.changed_elsewhere(game.id)


async def leaderboard_seen_by(table: Table, member, language: str, game_id: str) -> Image.Image:
    await member.slash(table.channel, "settings", language=language)
    board = await member.slash(table.channel, "leaderboard", game=game_id)
    assert board.ephemeral and board.response.attachments
    return Image.open(io.BytesIO(await board.response.attachments[0].read())).convert("RGB")


def first_name_cell(image: Image.Image) -> Image.Image:
    top = HEADER_HEIGHT + ROW_HEIGHT
    return image.crop((MARGIN + 60, top, MARGIN + 60 + 260, top + ROW_HEIGHT - 4))


def drawn_alone(name: str, language: str) -> Image.Image:
    """The first row's name cell as the renderer draws that name for that reader."""
    board = Board("", ("#", "", "", ""), (Row(("1", name, "", "")),), language=language)
    return first_name_cell(render_board(board))


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_the_leaderboard_draws_names_in_the_readers_shapes_and_emoji(simcord_env, game_id):
    table = hall(simcord_env)
    await rated_game(table, game_id)
    japanese = first_name_cell(await leaderboard_seen_by(table, table.carol, "ja", game_id))
    chinese = first_name_cell(await leaderboard_seen_by(table, table.dave, "zh-TW", game_id))
    assert same(japanese, drawn_alone(NAMES[0], "ja"))
    assert same(chinese, drawn_alone(NAMES[0], "zh-TW"))
    assert not same(japanese, chinese)  # 直 in two shapes
    boxed = NAMES[0].replace("🎲", MISSING)
    assert not same(japanese, drawn_alone(boxed, "ja"))
    assert not same(chinese, drawn_alone(boxed, "zh-TW"))
