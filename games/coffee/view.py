"""What the table shows: everything on the boards, nothing hidden (stack orders, André's
face-down counters and lower contracts, the generator)."""

from __future__ import annotations

from typing import Any

from meeple_hall.games.coffee.arabica import counter_track_height
from meeple_hall.games.coffee.board import quality
from meeple_hall.games.coffee.data import components
from meeple_hall.games.coffee.milestones import milestone_points
from meeple_hall.games.coffee.names import seat_tag
from meeple_hall.games.coffee.scoring import breakdown
from meeple_hall.games.coffee.sell import contract_wants
from meeple_hall.games.coffee.state import CoffeeState, Player
from meeple_hall.games.coffee.words import m, phase_name
from meeple_hall.games.core import Msg
from meeple_hall.games.core.contract import LOG_SHOWN
from meeple_hall.games.core.messages import jsonable


def _player(state: CoffeeState, seat: int, player: Player) -> dict[str, Any]:
    return {
        "seat": seat,
        "name": seat_tag(state, seat),
        "coins": player.coins,
        "donkeys": player.donkeys,
        "trucks": player.trucks,
        "civets": player.civets,
        "sumatra": player.sumatra,
        "markers": player.markers,
        "color_marker": player.color_marker,
        "bonus": list(player.bonus),
        "plantations": {r: list(levels) for r, levels in player.plantations.items()},
        "farms": list(player.farms),
        "pool": player.pool,
        "traders": player.traders,
        "traders_out": player.traders_out,
        "built": dict(player.built),
        "ratio": player.ratio,
        "coffee": dict(player.coffee),
        "stocks": list(player.stocks),
        "contracts": {
            letter: {
                "id": cid,
                "wants": contract_wants(state, seat, letter),
                "hard_side": letter in player.hard_sides,
            }
            for letter, cid in player.contracts.items()
        },
        "fulfilled": list(player.fulfilled),
        "row_items": list(player.row_items),
        "counters": list(player.counters),
        "counter_height": counter_track_height(player.counters),
        "minus_tokens": player.minus_tokens,
        "arabica": dict(player.arabica),
        "milestones": dict(player.milestones),
    }


def _cooperative(state: CoffeeState, coffee: str) -> dict[str, Any]:
    coop = state.coops[coffee]
    return {
        "rows": [
            [
                None
                if p is None
                else {"owner": p.owner, "level": p.level, "staffed": p.staffed, "truck": p.truck}
                for p in row
            ]
            for row in coop.rows
        ],
        "pathways": {
            k: {"owner": w.owner, "donkeys": w.donkeys}
            for k, w in sorted(coop.pathways.items())
            if w.owner is not None
        },
        "buildings": {k: list(v) for k, v in coop.buildings.items()},
        "town": coop.town,
        "traders": list(coop.traders),
        "stock": coop.stock,
        "coin": coop.coin,
        "animals": list(coop.animals),
        "quality": {str(s): quality(state, coffee, s) for s in state.seats},
    }


def status(state: CoffeeState, year: int) -> Msg:
    """The year, the period and the phase: `1975 · Period 2 · Phase III: Trade & Build`."""
    if state.over:
        return m("status.over", year=year)
    if state.phase == "setup":
        return m("status.setup", year=year)
    return m("status.phase", year=year, period=state.period, phase=phase_name(state.phase))


def view(state: CoffeeState, seat: int | None, active: list[int]) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees; `active`: the seats asked now."""
    year = components().board["periods"]["years"][state.period - 1]
    out: dict[str, Any] = {
        "num_players": state.num_players,
        "rules_players": state.rules_players,
        "period": state.period,
        "year": year,
        "phase": state.phase,
        "step": state.step,
        "order": list(state.order),
        "active": active,
        "over": state.over,
        "players": [_player(state, s, p) for s, p in enumerate(state.players)],
        "andre": None,
        "coops": {c: _cooperative(state, c) for c in state.coops},
        "bars": {b: list(spaces) for b, spaces in state.bars.items()},
        "bar_spaces": {
            b: [
                {"need": s.need, "amount": s.amount, "coins": s.coins, "points": s.points}
                for s in spaces
            ]
            for b, spaces in components().bars.items()
        },
        "bar_animals": dict(state.bar_animals),
        "building_kinds": {
            kind: list(spaces)
            for kind, spaces in components().board["buildings"].items()
            if kind != "verified"
        },
        "wild_stock": state.wild_stock,
        "milestones": [
            {
                "id": m,
                "marks": list(state.milestone_marks[m]),
                "points": list(milestone_points(state, m)),
            }
            for m in state.milestones
        ],
        "contract_bonus": {k: list(v) for k, v in state.contract_bonus.items()},
        "seventh": dict(state.seventh),
        "donkey_taken": dict(state.donkey_taken),
        "general_workers": state.general_workers,
        "owed": {str(s): n for s, n in sorted(state.owed.items())},
        "log": jsonable(state.log[-LOG_SHOWN:]),
        "status": status(state, year).to_json(),
    }
    if state.andre is not None:
        andre = state.andre
        out["andre"] = {
            "seat": andre.seat,
            "stack": list(andre.stack),
            "fair_trade_posts": andre.fair_trade_posts,
            "traders": andre.traders,
            "markers": andre.markers,
            "contract": andre.contracts[0] if andre.contracts else None,
            "contract_coffees": (
                list(components().contracts[andre.contracts[0]].coffees) if andre.contracts else []
            ),
            "contracts_left": len(andre.contracts),
            "flipped": list(andre.flipped),
        }
    if state.over:
        out["scores"] = [sum(breakdown(state, s).values()) for s in range(state.num_players)]
    if seat is not None:
        out["you"] = seat
    return out
