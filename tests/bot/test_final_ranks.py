"""Seats the AI played out rank below everyone who played on."""

import random

import pytest

from meeple_hall import games
from meeple_hall.bot.live import final_result
from meeple_hall.bot.store import Seat, Table, TableStatus
from meeple_hall.games import Action, Result
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import EVERY_GAME


def table_of(*seats: Seat) -> Table:
    return Table(1, 1, 1, 1, "pebbles", {}, 1, TableStatus.ACTIVE, seats=list(seats))


def test_a_resigned_seat_and_a_seat_handed_over_by_timeouts_rank_last():
    result = Result(scores=(30, 20, 10, 5), ranks=(1, 2, 3, 4))
    table = table_of(
        Seat(1, "Ada", ai=True, resigned=True),  # resigned, and still won on points
        Seat(2, "Bo", ai=True),  # handed to the AI by timeouts, never taken back
        Seat(3, "Cy"),
        Seat(None, "AI 1", ai=True),  # an AI seat from the start plays on like anyone
    )
    assert final_result(result, table).ranks == (3, 4, 1, 2)
    assert [s.played_out for s in table.seats] == [True, True, False, False]


def test_a_seat_taken_back_with_resume_ranks_by_its_score():
    result = Result(scores=(30, 20), ranks=(1, 2))
    assert final_result(result, table_of(Seat(1, "Ada"), Seat(2, "Bo"))).ranks == (1, 2)


@pytest.mark.parametrize("game_id", EVERY_GAME)
def test_a_real_results_played_out_seat_ranks_last_and_keeps_its_points(game_id):
    """Each game's own Result of a random 2-player game: whoever won on points, the seat
    the AI played out after a resignation ranks last; scores and breakdown are kept."""
    engine = games.get(game_id)
    rng = random.Random(3)
    state = engine.new(2, 3, None)
    while pending := engine.decisions(state):
        state = engine.apply(state, Action(pending[0].seat, random_choices(pending[0], rng)))
    result = engine.result(state)
    winner = result.ranks.index(1)
    seats = [Seat(1, "Ada"), Seat(2, "Bo")]
    seats[winner] = Seat(seats[winner].user_id, seats[winner].name, ai=True, resigned=True)
    final = final_result(result, Table(1, 1, 1, 1, game_id, {}, 3, TableStatus.ACTIVE, seats=seats))
    assert final.ranks[winner] == 2 and final.ranks[1 - winner] == 1
    assert final.scores == tuple(result.scores)
    assert final.breakdown == tuple(dict(b) for b in result.breakdown)
