"""The Arabica track and the Counter track (English rulebook, "Arabica Track", "Counter Track")."""

from __future__ import annotations

from meeple_hall.games.coffee.data import COFFEES, components
from meeple_hall.games.coffee.names import coop_name, who
from meeple_hall.games.coffee.prompts import CoffeeStep, ask_next, offer
from meeple_hall.games.coffee.state import CoffeeState, Prompt
from meeple_hall.games.coffee.supply import gain_donkey
from meeple_hall.games.coffee.words import m
from meeple_hall.games.core import Msg, Option
from meeple_hall.games.core.steps import Chosen, Offer

WILD = "wild"


def track() -> dict:
    return components().board["arabica"]


def column_after_step(state: CoffeeState, seat: int, coffee: str) -> int | None:
    """The column one step on `coffee`'s row reaches; None where the step goes to waste
    (past the 7th column, or onto a 7th column another player holds)."""
    column = state.players[seat].arabica[coffee]
    last = track()["columns"]
    if column >= last or (column == last - 1 and state.seventh[coffee] is not None):
        return None
    return column + 1


def advance(state: CoffeeState, seat: int, coffee: str) -> None:
    """One step on `coffee`'s row, with the rewards of the space reached."""
    if state.is_andre(seat):
        return
    player = state.players[seat]
    rules = track()
    last = rules["columns"]
    reached = column_after_step(state, seat, coffee)
    if reached is None:
        return  # the advance goes to waste
    column = reached
    player.arabica[coffee] = column
    if column == last:
        state.seventh[coffee] = seat
    if column == rules["coin_column"]:
        player.coins += 1
    if column == rules["donkey_column"] and not state.donkey_taken[coffee]:
        state.donkey_taken[coffee] = True
        gain_donkey(state, seat)
        state.say(m("log.first_donkey", seat=who(state, seat), coffee=coop_name(coffee)))
    lowest = min(player.arabica.values())
    if lowest >= rules["trader_column"] and player.track_trader:
        player.track_trader = False
        player.traders += 1
    if lowest >= rules["truck_column"] and player.track_truck:
        player.track_truck = False
        player.trucks += 1


def can_move_back(state: CoffeeState, seat: int, coffee: str) -> bool:
    column = state.players[seat].arabica[coffee]
    return column > 1 and column not in track()["no_back_columns"]


def move_back(state: CoffeeState, seat: int, coffee: str) -> None:
    player = state.players[seat]
    if player.arabica[coffee] == track()["columns"]:
        state.seventh[coffee] = None
    player.arabica[coffee] -= 1


def ask_advance(state: CoffeeState, seat: int, steps: int = 1, why: str | None = None) -> None:
    """Next, `steps` advances on rows of the player's choice (`why`: the prompt says what
    brought them where the player did not just choose it, as a Wild Animal counter)."""
    if not state.is_andre(seat):
        data = {"why": why} if why else {}
        ask_next(state, *(Prompt(seat, "advance", dict(data)) for _ in range(steps)))


def advance_label(state: CoffeeState, seat: int, coffee: str) -> Msg:
    """`Brazil: column 2 → 3`, or that the step would be lost there."""
    column = state.players[seat].arabica[coffee]
    after = column_after_step(state, seat, coffee)
    if after is None:
        return m("label.advance_lost", coffee=coop_name(coffee), column=column)
    return m("label.advance", coffee=coop_name(coffee), column=column, after=after)


class Advance(CoffeeStep):
    """One step on an Arabica row of the player's choice."""

    kind = "advance"
    always_asks = True  # a row of each coffee

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        wild = frame.data.get("why") == "wild"
        return offer(
            m("prompt.advance_wild" if wild else "prompt.advance"),
            [Option(c, advance_label(state, frame.seat, c), {"coffee": c}) for c in COFFEES],
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        advance(state, frame.seat, chosen.id)


def gain_counter(state: CoffeeState, seat: int, counter: str) -> None:
    """An Arabica or Animal counter goes to the Counter track and advances its row."""
    if state.is_andre(seat):
        return
    state.players[seat].counters.append(counter)
    if counter == WILD:
        ask_advance(state, seat, why="wild")
    else:
        advance(state, seat, counter.split(":")[1])


def counter_colour(counter: str) -> str:
    return WILD if counter == WILD else counter.split(":")[1]


def counter_track_height(counters: list[str]) -> int:
    """Spaces filled: one per distinct counter, then one per two leftovers of one colour
    (a Wild Animal counter pairs with any colour). See the zh-TW digest, "計分方式"."""
    distinct = set(counters)
    leftovers = list(counters)
    for counter in distinct:
        leftovers.remove(counter)
    wilds = sum(1 for c in leftovers if c == WILD)
    by_colour: dict[str, int] = {}
    for counter in leftovers:
        if counter != WILD:
            by_colour[counter_colour(counter)] = by_colour.get(counter_colour(counter), 0) + 1
    pairs = sum(n // 2 for n in by_colour.values())
    odd = sum(n % 2 for n in by_colour.values())
    matched = min(odd, wilds)
    pairs += matched + (wilds - matched) // 2
    return len(distinct) + pairs


def counter_track_points(counters: list[str]) -> int:
    table = components().player_board["counter_track"]["points"]
    height = min(counter_track_height(counters), len(table))
    return table[height - 1] if height else 0


def arabica_points(columns: dict[str, int]) -> int:
    rules = track()
    lowest = min(columns[c] for c in COFFEES)
    points = sum(v for k, v in rules["all_rows_points"].items() if lowest >= int(k))
    for column in columns.values():
        points += sum(v for k, v in rules["points"].items() if column >= int(k))
    return points
