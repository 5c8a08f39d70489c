"""Seats the AI played out rank below everyone who played on."""

from meeple_hall.bot.live import final_result
from meeple_hall.bot.store import Seat, Table, TableStatus
from meeple_hall.games import Result


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
