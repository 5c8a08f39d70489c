"""Final scoring (English rulebook, "End of Game"; zh-TW digest, "計分方式")."""

from __future__ import annotations

import math

from meeple_hall.games.coffee.arabica import arabica_points, counter_track_points
from meeple_hall.games.coffee.board import quality
from meeple_hall.games.coffee.build import column_table
from meeple_hall.games.coffee.data import components
from meeple_hall.games.coffee.state import CoffeeState


def shared_ranks(values: dict[int, int], rewards: list[int]) -> dict[int, int]:
    """Rank by value; tied players add the rewards of the places they share and divide,
    rounding up."""
    out: dict[int, int] = {}
    ordered = sorted({v for v in values.values() if v > 0}, reverse=True)
    place = 0
    for value in ordered:
        tied = [s for s, v in values.items() if v == value]
        pot = sum(rewards[place : place + len(tied)])
        for seat in tied:
            out[seat] = math.ceil(pot / len(tied))
        place += len(tied)
    return {s: p for s, p in out.items() if p}


def cooperative_points(state: CoffeeState) -> dict[int, int]:
    ranks = components().board["cooperative_points"]["ranks"][str(state.rules_players)]
    totals: dict[int, int] = {}
    for coffee in state.coops:
        values = {seat: quality(state, coffee, seat) for seat in state.seats}
        for seat, points in shared_ranks(values, list(ranks)).items():
            totals[seat] = totals.get(seat, 0) + points
    return totals


def bar_majorities(state: CoffeeState) -> dict[int, int]:
    """4 and 2 VP per bar; a tie goes to the marker furthest down."""
    rewards = components().bar_majority
    totals: dict[int, int] = {}
    for spaces in state.bars.values():
        keys: dict[int, tuple[int, int]] = {}
        for index, owner in enumerate(spaces):
            if owner is not None:
                count, _ = keys.get(owner, (0, -1))
                keys[owner] = (count + 1, index)
        ranked = sorted(keys, key=lambda s: keys[s], reverse=True)
        for seat, points in zip(ranked, rewards, strict=False):
            totals[seat] = totals.get(seat, 0) + points
    return totals


def building_points(built: dict[str, int]) -> int:
    points = 0
    for column, n in built.items():
        table = column_table(column)
        start = 1 if column == "warehouse" else 0
        points += sum(row["points"] for row in table[: n - start])
    return points


def breakdown(state: CoffeeState, seat: int) -> dict[str, int]:
    player = state.players[seat]
    board = components().player_board
    bars = components().bars
    supply = board["end_supply"]
    delivered = sum(
        bars[bar][i].points
        for bar, spaces in state.bars.items()
        for i, owner in enumerate(spaces)
        if owner == seat
    )
    contract_points = board["contracts"]["points"]
    b3 = board["plantation_costs"]["row_b_level3_points"]
    return {
        "cooperatives": cooperative_points(state).get(seat, 0),
        "arabica": arabica_points(player.arabica),
        "coffee_bars": delivered,
        "bar_majorities": bar_majorities(state).get(seat, 0),
        "milestones": sum(player.milestones.values()),
        "buildings": building_points(player.built),
        "contracts": sum(contract_points[letter] for letter in player.fulfilled),
        "row_b_level3": b3 if player.row_b_level3 else 0,
        "company_supply": supply["donkey"] * player.donkeys
        + supply["civet"] * player.civets
        + supply["truck"] * player.trucks,
        "minus_tokens": supply["minus_token"] * player.minus_tokens,
        "workers": supply["worker"] * player.pool,
        "counters": counter_track_points(player.counters),
    }
