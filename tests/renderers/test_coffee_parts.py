"""Coffee Traders' table picture pastes the parts a move left as they were (issue 29 item 5):
what it pastes must be what it would draw. Each picture of a game's moves, drawn after the
one before (the parts a worker keeps for that table) and after other tables' pictures, must
be the very picture drawn with nothing kept."""

from __future__ import annotations

import copy
import random

import pytest
from PIL import Image

from meeple_hall.games.coffee import engine
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import coffee


def views_of_a_game(num_players: int, seed: int, every: int) -> list[dict]:
    """The spectator's view after every `every` moves of a seeded random game, and at its end."""
    rng = random.Random(seed)
    state = engine.new(num_players, seed)
    views, step = [], 0
    while pending := engine.decisions(state):
        if step % every == 0:
            views.append(engine.view(state, None))
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        step += 1
    return [*views, engine.view(state, None)]


def drawn_fresh(view: dict) -> Image.Image:
    coffee.kept_part.cache_clear()
    return coffee.render(view)


# 2 players (André's seat among the parts) in the default run; the other counts in the slow part
@pytest.mark.parametrize(
    "num_players", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 4, 5))]
)
def test_a_picture_after_others_is_the_picture_drawn_fresh(num_players: int) -> None:
    """Every 3rd move of a game (André's at 2 players), each drawn after the one before, then
    the same pictures drawn after another game's: the same pixels as drawn with nothing kept."""
    game = views_of_a_game(num_players, seed=num_players, every=3)
    other = views_of_a_game(num_players % 4 + 2, seed=9, every=40)
    fresh = [drawn_fresh(view).tobytes() for view in game]
    coffee.kept_part.cache_clear()
    in_turn = [coffee.render(view).tobytes() for view in game]
    assert in_turn == fresh
    for view, alone in zip(game[::7], fresh[::7], strict=True):
        for between in other:
            coffee.render(between)
        assert coffee.render(view).tobytes() == alone


def test_parts_are_kept_and_pasted() -> None:
    """A move's picture reuses the parts it did not change (else the cache is for nothing),
    and a change in any part draws that part anew."""
    game = views_of_a_game(4, seed=4, every=25)
    coffee.kept_part.cache_clear()
    coffee.render(game[3])
    drawn = coffee.kept_part.cache_info().misses
    coffee.render(game[3])
    assert coffee.kept_part.cache_info().misses == drawn  # all pasted
    assert coffee.kept_part.cache_info().currsize == drawn
    changed = copy.deepcopy(game[3])
    changed["players"][2]["coins"] += 1
    changed["coops"]["bra"]["stock"] += 1
    before = coffee.kept_part.cache_info().misses
    picture = coffee.render(changed)
    assert coffee.kept_part.cache_info().misses == before + 2  # a board and a cooperative
    assert picture.tobytes() == drawn_fresh(changed).tobytes()


def test_what_only_the_key_holds_changes_the_parts(monkeypatch) -> None:
    """Seat colours, whether a seat must act, and the final scores are not in a seat's or a
    cooperative's own data: a picture kept under one must not be pasted for another."""
    view = views_of_a_game(3, seed=5, every=1000)[-1]
    coffee.kept_part.cache_clear()
    coffee.render(view)
    acting = dict(view, active=[1])
    assert coffee.render(acting).tobytes() == drawn_fresh(acting).tobytes()
    unscored = {k: v for k, v in view.items() if k != "scores"}
    assert coffee.render(unscored).tobytes() == drawn_fresh(unscored).tobytes()
    coffee.render(view)
    monkeypatch.setattr(coffee, "SEAT_COLOURS", ((120, 120, 120),) * 6)
    grey = coffee.render(view).tobytes()
    assert grey == drawn_fresh(view).tobytes()


def test_the_parts_kept_are_bounded() -> None:
    assert coffee.kept_part.cache_info().maxsize == coffee.PARTS_KEPT
    coffee.kept_part.cache_clear()
    for view in views_of_a_game(5, seed=1, every=20):
        coffee.render(view)
    assert coffee.kept_part.cache_info().currsize <= coffee.PARTS_KEPT


def test_a_board_is_kept_whether_its_seat_must_act() -> None:
    """Passing the turn rings other boards: none is drawn again, and the picture is the
    picture drawn fresh (a board kept ringed pasted through its shape where it is not, and
    the other way round)."""
    view = views_of_a_game(4, seed=6, every=1000)[0]
    for active in ([0], [1], [2, 3], [], [0]):
        turn = dict(view, active=active)
        coffee.kept_part.cache_clear()
        coffee.render(view)
        drawn = coffee.kept_part.cache_info().misses
        picture = coffee.render(turn)
        # the header only (the turn order shows who acts)
        assert coffee.kept_part.cache_info().misses == drawn + 1, active
        assert picture.tobytes() == drawn_fresh(turn).tobytes(), active
