"""Hidden information in a state: every Rng, and the fields a game marks HIDDEN."""

from dataclasses import dataclass, field

from meeple_hall.games.core import Rng
from meeple_hall.games.core.hidden import HIDDEN, TURNED_UP, hidden_parts, secrets


@dataclass
class Seat:
    hand: list[int]
    face_down: list[int] = field(default_factory=list, metadata=HIDDEN)


@dataclass
class Table:
    rng: Rng
    seats: dict[str, Seat]
    open_pool: list[int]


def table() -> Table:
    return Table(Rng.from_seed(1), {"a": Seat([1], [7, 8])}, open_pool=[3])


def test_open_changes_are_not_hidden():
    t = table()
    before = hidden_parts(t)
    t.open_pool.append(4)
    t.seats["a"].hand.append(2)
    assert hidden_parts(t) == before


def test_a_draw_from_a_marked_nested_stack_is_hidden():
    t = table()
    before = hidden_parts(t)
    t.seats["a"].face_down.pop()
    assert hidden_parts(t) != before


def test_any_use_of_the_random_generator_is_hidden():
    t = table()
    before = hidden_parts(t)
    t.rng.below(6)
    assert hidden_parts(t) != before


@dataclass
class FateTiles:
    tiles: list[str] = field(metadata=HIDDEN)
    up: list[bool] = field(metadata=TURNED_UP)


def test_turning_a_tile_up_is_hidden_but_which_are_up_is_no_secret():
    fate = FateTiles(["quill", "blank", "blank"], [False, False, False])
    before = hidden_parts(fate)
    fate.up[0] = True
    assert hidden_parts(fate) != before
    assert secrets(fate) == [["quill", "blank", "blank"]]


def test_secrets_hold_the_generators_state_and_face_down_stacks():
    t = table()
    assert secrets(t) == [t.rng.state, [7, 8]]
