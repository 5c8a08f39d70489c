"""An AI seat's level (migration 0005) is written with the seat and read back with it."""

from meeple_hall.bot.store import Seat
from tests.store.conftest import GUEST, HOST, new_table


async def test_ai_level_is_stored_with_the_seat(store) -> None:
    table = await new_table(store, seats=[Seat(HOST, "Ada"), Seat(None, "AI 1", ai=True)])
    await store.add_seat(table.id, Seat(None, "AI 2", ai=True, ai_level="strong"), max_seats=4)
    await store.add_seat(table.id, Seat(GUEST, "Bo"), max_seats=4)

    seats = (await store.get_table(table.id)).seats
    assert [(s.name, s.ai_level) for s in seats] == [
        ("Ada", None),
        ("AI 1", None),
        ("AI 2", "strong"),
        ("Bo", None),
    ]


async def test_ai_level_survives_a_seat_leaving(store) -> None:
    table = await new_table(
        store,
        seats=[
            Seat(HOST, "Ada"),
            Seat(GUEST, "Bo"),
            Seat(None, "AI 1", ai=True, ai_level="random"),
        ],
    )
    await store.leave_lobby(table.id, GUEST)

    seats = (await store.get_table(table.id)).seats
    assert [(s.name, s.ai_level) for s in seats] == [("Ada", None), ("AI 1", "random")]
