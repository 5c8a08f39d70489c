"""The pictures a move costs (issue 29): a seat's own area (`/hand`, its DMs), a decision's
parts (the Take turn panel) and a part of the table (`/board focus:`) are drawn once for the
view they show however often they are asked for (`bot/render.py: TablePictures`), by the
picture worker of their table (its bands are the table's), and are the very bytes, so the
very pixels, of the picture drawn and encoded here from nothing. The pictures hold no words:
a player's language changes nothing in them (tests/bot/test_panel_picture.py runs the panels
in English, 繁體中文 and 日本語)."""

from __future__ import annotations

import asyncio
import io
import random
import time
from collections import Counter
from typing import Any

import pytest
from PIL import Image
from simcord.results import to_discord_message

from meeple_hall import games
from meeple_hall.bot import render
from meeple_hall.bot.render import PicturePool, TablePictures, WorkerProcesses
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import phone
from tests.bot.conftest import (
    EVERY_GAME,
    REAL_GAMES,
    answer_panel,
    awaited_humans,
    seated_member,
    start_game,
    stored_message,
    table_message,
)


def pixels(data: bytes) -> bytes:
    return Image.open(io.BytesIO(data)).convert("RGB").tobytes()


async def files(env, message) -> list[bytes]:
    """The files a message carries now, after every edit."""
    shown = to_discord_message(env, stored_message(env, message))
    return [await attachment.read() for attachment in shown.attachments]


def decision_here(game, seat: int) -> bytes | None:
    """The seat's decision picture now (its parts and marks), drawn and encoded here."""
    view = game.view(seat)
    picture = picture_of(game, seat, view)
    if not picture.parts:
        return None
    return render.encode_decision(game.table.game, view, picture.parts, picture.marks)


def picture_of(game, seat: int, view) -> phone.DecisionPicture:
    """What the seat's decision pictures from `view` (as TablePictures.decision asks)."""
    decision = game.decision_for(seat)
    fields = [option.fields for option in decision.options]
    return phone.decision_picture(game.table.game, view, decision.kind, fields)


def drawn_since(pictures: TablePictures, before: Counter[str]) -> Counter[str]:
    return pictures.drawings - before


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_take_turn_twice_at_one_move_draws_its_picture_once(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    pictures = table.env.bot.display.pictures
    rng = random.Random(4)
    for turn in range(2):  # at the first move, and again at another
        seat = awaited_humans(game)[0]
        member = seated_member(table, game, seat)
        before, expected = Counter(pictures.drawings), decision_here(game, seat)
        first = await member.click(table_message(table.channel), label="Take turn")
        second = await member.click(table_message(table.channel), label="Take turn")
        shown = [await files(table.env, r.response) for r in (first, second)]
        assert shown == [[expected] if expected else []] * 2
        drawn = drawn_since(pictures, before)["decision"]
        # once, or not at all where the panel a move turned into drew it (the seat's own
        # steps: Take turn then shows the decision its last panel already pictured)
        assert drawn == (1 if expected else 0) if turn == 0 else drawn <= 1
        await answer_panel(member, second.response, rng)


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_a_step_that_changes_nothing_the_seat_sees_is_not_drawn_again(table, game_id):
    """The panel a click turns into pictures the seat's next decision: where the move changed
    nothing in the seat's view and the decision pictures the same parts (a Keyflower bid's
    tile, then its colour, then its count), it is the same picture, not drawn again; nor is
    one the seat was shown earlier of the same view (Back to a decision already pictured);
    and where it changed nothing on the table, the table message keeps its picture, not drawn
    again either."""
    game = await start_game(table, table.bob, game=game_id)
    pictures = table.env.bot.display.pictures
    rng, same, same_table, steps = random.Random(2), 0, 0, 0
    shown: dict[Any, Any] = {}  # the seats' pictures drawn, and the views they show
    for _ in range(40):
        if not awaited_humans(game):  # the game is over
            break
        seat = awaited_humans(game)[0]
        member = seated_member(table, game, seat)
        panel = (await member.click(table_message(table.channel), label="Take turn")).response
        while game.decision_for(seat) is not None and steps < 40:
            view, spectator = game.view(seat), game.view(None)
            shown[seat, picture_of(game, seat, view)] = view
            before = Counter(pictures.drawings)
            overview = await files(table.env, table_message(table.channel))
            await answer_panel(member, panel, rng)
            steps += 1
            if game.view(None) == spectator:
                assert drawn_since(pictures, before)["table"] == 0
                assert await files(table.env, table_message(table.channel)) == overview
                same_table += 1
            following = game.decision_for(seat)
            if following is None:
                break
            now = game.view(seat)
            expected = decision_here(game, seat)
            assert await files(table.env, panel) == ([expected] if expected else [])
            unchanged = shown.get((seat, picture_of(game, seat, now))) == now
            drawn = drawn_since(pictures, before)["decision"]
            assert drawn == (0 if unchanged or not expected else 1), (unchanged, drawn)
            same += unchanged and bool(expected)
        if steps >= 40:
            break
    if game_id == "keyflower":  # a bid's steps: seen in every game of it
        assert same and same_table, "no step left the seat's view or the table as it was"


@pytest.mark.parametrize("game_id", EVERY_GAME)
async def test_hand_asked_again_at_one_move_draws_the_own_area_once(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    pictures = table.env.bot.display.pictures
    bob = game.seat_of(table.bob.id)
    for _ in range(2):  # at the first move, then after a move (another view)
        before = Counter(pictures.drawings)
        expected = render.encode_own(game_id, game.view(bob))
        for _ in range(3):
            hand = await table.bob.slash(table.channel, "hand")
            assert hand.ephemeral
            assert await files(table.env, hand.response) == ([expected] if expected else [])
        # once, or not at all where the seat's DM drew it for the same view
        assert drawn_since(pictures, before)["own"] <= 1
        member = seated_member(table, game, awaited_humans(game)[0])
        opened = await member.click(table_message(table.channel), label="Take turn")
        await answer_panel(member, opened.response, random.Random(1))


@pytest.mark.parametrize("game_id", REAL_GAMES)  # the test game offers no parts
async def test_board_focus_asked_again_at_one_move_is_drawn_once(table, game_id):
    game = await start_game(table, table.bob, game=game_id)
    pictures = table.env.bot.display.pictures
    view = game.view(None)
    part = phone.focuses(game_id, view)[0]
    before = Counter(pictures.drawings)
    posted = [await table.carol.slash(table.channel, "board", focus=part) for _ in range(2)]
    expected = render.encode_focus(game_id, view, part)
    assert expected is not None
    for board in posted:
        assert await files(table.env, board.response) == [expected]
    assert drawn_since(pictures, before)["focus"] == 1


class Watched(WorkerProcesses):
    """The bot's worker processes, each picture's worker noted (table, worker's index)."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.chosen: list[tuple[int | None, int]] = []

    def _choose(self, table: int | None) -> int:
        index = super()._choose(table)
        self.chosen.append((table, index))
        return index


class WatchedPool(PicturePool):
    def executor(self) -> WorkerProcesses:
        if self._executor is None:
            self._executor = Watched(self.size())
        return self._executor


def states(game_id: str, players: int, seed: int, moves: int) -> list[Any]:
    engine = games.get(game_id)
    rng = random.Random(seed)
    state, out = engine.new(players, seed), []
    for _ in range(moves):
        decision = rng.choice(engine.decisions(state))
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        out.append(state)
    return out


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_a_table_s_pictures_go_to_its_worker_and_are_the_pixels_drawn_here(
    monkeypatch, game_id
):
    """Consecutive moves of a table, each picture through its table's worker (whose bands
    are remembered from the moves before), against the same picture drawn and encoded here
    from nothing: the same bytes, so the same pixels."""
    monkeypatch.setattr(render, "pool", WatchedPool(max_workers=2))
    engine = games.get(game_id)
    pictures = TablePictures()
    moves = states(game_id, 3, 2, 14)[-4:]
    try:
        # worker 0 busy: the table's first picture goes to worker 1; every picture of the
        # table after it goes there too, though worker 0 is free again (and lower)
        busy = asyncio.ensure_future(render.pool.run(game_id, keep_busy, 1.0, table=99))
        await asyncio.sleep(0.2)
        await pictures.png(7, 0, game_id, engine.view(moves[0], None))
        await busy
        for seq, state in enumerate(moves, start=1):
            spectator = engine.view(state, None)
            await pictures.png(7, seq, game_id, spectator)
            decision = engine.decisions(state)[0]
            mine = engine.view(state, decision.seat)
            part = phone.focuses(game_id, spectator)[seq % 2]
            drawn = [
                await pictures.own(7, 0, game_id, engine.view(state, 0)),
                await pictures.decision(7, decision.seat, game_id, mine, decision.kind),
                await pictures.focus(7, game_id, spectator, part),
            ]
            parts = phone.decision_parts(game_id, mine, decision.kind)
            here = [
                render.encode_own(game_id, engine.view(state, 0)),
                render.encode_decision(game_id, mine, parts) if parts else None,
                render.encode_focus(game_id, spectator, part),
            ]
            assert drawn == here
            for ours, theirs in zip(drawn, here, strict=True):
                if ours is not None and theirs is not None:
                    assert pixels(ours) == pixels(theirs)
        chosen = render.pool.executor().chosen
        assert {index for table, index in chosen if table == 7} == {1}, chosen
        assert len([table for table, _ in chosen if table == 7]) > len(moves)  # not vacuous
    finally:
        render.pool.shutdown()


def keep_busy(game_id: str, seconds: float) -> None:
    """Runs in a picture worker: keeps it busy for `seconds`."""
    time.sleep(seconds)


async def test_the_same_picture_asked_at_once_is_drawn_once(monkeypatch):
    monkeypatch.setattr(render, "pool", PicturePool(max_workers=2))
    engine = games.get("burgundy")
    view = engine.view(engine.new(2, 3), 1)
    pictures = TablePictures()
    try:
        got = await asyncio.gather(*(pictures.own(3, 1, "burgundy", view) for _ in range(4)))
        assert got == [render.encode_own("burgundy", view)] * 4
        assert pictures.asked["own"] == 4 and pictures.drawings["own"] == 1
        # an equal view (another object: the same game again) is the same picture
        await pictures.own(3, 1, "burgundy", engine.view(engine.new(2, 3), 1))
        assert pictures.drawings["own"] == 1
        # another view is drawn again
        state = engine.new(2, 3)
        decision = engine.decisions(state)[0]
        state = engine.apply(state, Action(decision.seat, (decision.options[0].id,)))
        moved = engine.view(state, 1)
        assert moved != view
        assert await pictures.own(3, 1, "burgundy", moved) == render.encode_own("burgundy", moved)
        assert pictures.drawings["own"] == 2
    finally:
        render.pool.shutdown()


async def test_a_bot_keeps_a_bounded_number_of_other_pictures(monkeypatch):
    """At most `others` pictures (and the views they show) are kept: the one asked for
    longest ago is forgotten, and drawn again if asked for."""
    monkeypatch.setattr(render, "pool", PicturePool(max_workers=1))
    engine = games.get("village")
    view = engine.view(engine.new(2, 1), None)
    pictures = TablePictures(others=2)
    first, second, third = phone.focuses("village", view)[:3]
    try:
        for part in (first, second, first, second):
            await pictures.focus(5, "village", view, part)
        assert pictures.drawings["focus"] == 2
        await pictures.focus(5, "village", view, third)  # a third: the first is forgotten
        assert len(pictures._shown) == 2
        await pictures.focus(5, "village", view, first)
        assert pictures.drawings["focus"] == 4
    finally:
        render.pool.shutdown()


async def test_a_picture_that_failed_is_drawn_again_when_asked_again(monkeypatch):
    engine = games.get("keyflower")
    state = engine.new(2, 1)
    view = engine.view(state, 0)
    kind = engine.decisions(state)[0].kind
    drawn = render.decision_png
    failures = []

    async def fails_once(game_id: str, view: dict, kind: str, table: int | None = None):
        if not failures:
            failures.append(kind)
            raise RuntimeError("a renderer's bug")
        return await drawn(game_id, view, kind, table)

    monkeypatch.setattr(render, "decision_png", fails_once)
    monkeypatch.setattr(render, "pool", PicturePool(max_workers=1))
    pictures = TablePictures()
    try:
        with pytest.raises(RuntimeError):
            await pictures.decision(1, 0, "keyflower", view, kind)
        parts = phone.decision_parts("keyflower", view, kind)
        expected = render.encode_decision("keyflower", view, parts)
        assert await pictures.decision(1, 0, "keyflower", view, kind) == expected
        assert pictures.drawings["decision"] == 2
    finally:
        render.pool.shutdown()
