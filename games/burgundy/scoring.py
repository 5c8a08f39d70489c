"""End of the game: goods, silverlings, workers and knowledge tiles; the winner and ties."""

from __future__ import annotations

from meeple_hall.games.burgundy.data import components
from meeple_hall.games.burgundy.flow import turn_order
from meeple_hall.games.burgundy.rules import table, tile
from meeple_hall.games.burgundy.state import BurgundyState, Player
from meeple_hall.games.core import Result, ranks_from_scores
from meeple_hall.games.core.order import in_order


def knowledge_points(player: Player) -> int:
    spec = table()["knowledge"]
    points = spec["points"]
    placed = [tile(t) for t in player.estate.values()]
    total = 0
    for t in placed:
        n = t.knowledge
        if n == 15:
            total += points["goods_kinds_sold"] * len(player.sold)
        elif str(n) in spec["building_scoring"]:
            kind = spec["building_scoring"][str(n)]
            total += points["building"] * sum(1 for x in placed if x.building == kind)
        elif n == 24:
            total += points["animal_kinds"] * len({x.animal for x in placed if x.animal})
        elif n == 25:
            total += points["goods_sold"] * sum(player.sold.values())
        elif n == 26:
            total += points["bonus_tiles"] * len(player.bonus)
    return total


# Scoring categories in the order the final scores list them: those scored in play
# (effects.gain), then those of the end.
CATEGORIES = (
    "areas",
    "phase bonus",
    "animals",
    "goods sold",
    "bonus tiles",
    "watchtowers",
    "goods",
    "silverlings",
    "workers",
    "knowledge",
)


def final_points(player: Player) -> dict[str, int]:
    return {
        "goods": sum(player.goods.values()),
        "silverlings": player.silver,
        "workers": player.workers // table()["scoring"]["workers_per_point"],
        "knowledge": knowledge_points(player),
    }


def breakdown(player: Player) -> dict[str, int]:
    out = dict(player.points)
    for category, points in final_points(player).items():
        out[category] = out.get(category, 0) + points
    return in_order(out, CATEGORIES)


def empty_spaces(player: Player) -> int:
    return len(components().estate.hexes) - len(player.estate)


def result(state: BurgundyState) -> Result:
    """Most points wins; ties: empty estate spaces (fewer as written, or more with the other
    reading), then whoever is further back in turn order."""
    parts = [breakdown(p) for p in state.players]
    scores = [sum(b.values()) for b in parts]
    order = turn_order(state)
    sign = -1 if state.tiebreak == "written" else 1
    keys = [
        (scores[s], sign * empty_spaces(p), order.index(s)) for s, p in enumerate(state.players)
    ]
    return Result(scores=tuple(scores), ranks=ranks_from_scores(keys), breakdown=tuple(parts))
