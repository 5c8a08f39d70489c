"""A playground game survives the end of its run: the next run rebuilds the same server,
channel and player ids, and the bot shows the stored game again with working buttons."""

from __future__ import annotations

import pytest

from meeple_hall.bot import render
from meeple_hall.bot.i18n import t
from meeple_hall.bot.playground.session import Options, PlaygroundError, Session
from meeple_hall.bot.playground.world import WorldMismatch, world_file


def buttons(message) -> list[str]:
    return [c.label for row in message.components for c in getattr(row, "children", [])]


async def test_a_game_is_continued_on_the_next_run(tmp_path):
    options = Options(game="coffee", players=2, db=tmp_path / "playground.db")
    async with Session(options) as first:
        channel = first.current
        await first.world.person.slash(channel, "start")
        game = first.bot.manager.in_channel(channel.id)
        ids = (first.world.guild.id, channel.id, first.world.person.id)
        seats = [s.user_id for s in game.table.seats]
    assert seats == [ids[2], None]

    async with Session(Options(db=options.db)) as second:
        channel = second.current
        assert (second.world.guild.id, channel.id, second.world.person.id) == ids
        again = second.bot.manager.in_channel(channel.id)
        assert again is not None and again.seq == game.seq
        table = channel.last_message
        assert t("en", "table.take_turn") in buttons(table)
        opened = await second.world.person.click(table, label=t("en", "table.take_turn"))
        assert opened.response.ephemeral  # the person's panel, from the reposted table


async def test_a_level_the_lobby_does_not_offer_is_refused(tmp_path):
    options = Options(game="village", ai="grandmaster", db=tmp_path / "playground.db")
    with pytest.raises(PlaygroundError) as refused:
        async with Session(options):
            pass
    assert refused.value.key in {"playground.no_levels", "playground.unknown_level"}
    assert list(tmp_path.iterdir()) == []  # refused before any file was made


async def test_too_many_players_are_refused(tmp_path):
    options = Options(game="burgundy", players=5, db=tmp_path / "playground.db")
    with pytest.raises(PlaygroundError) as refused:
        async with Session(options):
            pass
    assert refused.value.fields["max"] == 4
    assert list(tmp_path.iterdir()) == []  # refused before any file was made


async def test_ids_recorded_by_another_simcord_stop_the_run(tmp_path):
    db = tmp_path / "playground.db"
    world_file(db).write_text('{"user": "1"}\n')
    with pytest.raises(WorldMismatch):
        async with Session(Options(db=db)):
            pass


async def test_the_ai_seats_take_the_level_asked_for(tmp_path):
    options = Options(game="village", players=3, ai="good", db=tmp_path / "playground.db")
    async with Session(options) as session:
        table = await session.bot.store.open_table_in(session.current.id)
        assert [(s.ai, s.ai_level) for s in table.seats] == [
            (False, None),
            (True, "good"),
            (True, "good"),
        ]


async def test_the_picture_workers_are_running_before_the_page_opens(tmp_path):
    """The bot starts its picture workers on its first picture, which in the playground the
    person's first clicks ask for: the first click answered with a picture waited for them
    to start (over 30 s on a loaded machine). The session starts them first; the first
    pictures start none."""
    render.pool.shutdown()  # as in a process that has drawn nothing yet
    options = Options(game="burgundy", players=2, db=tmp_path / "playground.db")
    async with Session(options) as session:
        # concurrent.futures' own record of the pool's processes, by pid
        started = dict(render.pool.executor()._processes)
        assert len(started) == render.pool.size()
        assert all(process.is_alive() for process in started.values())
        await session.world.person.slash(session.current, "start")
        assert session.current.last_message.attachments  # the table's first picture
        assert render.pool.executor()._processes == started
