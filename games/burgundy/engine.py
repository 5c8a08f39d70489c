"""The Castles of Burgundy as a GameEngine: options, decisions, moves, views and the result."""

from __future__ import annotations

from collections.abc import Collection
from functools import cache, lru_cache
from typing import Any

from meeple_hall.games.burgundy import determinize, scoring
from meeple_hall.games.burgundy.data import PHASES, components
from meeple_hall.games.burgundy.flow import new_game, space_kind
from meeple_hall.games.burgundy.rules import details, table, tile
from meeple_hall.games.burgundy.state import CASTLE_DIE, BurgundyState
from meeple_hall.games.burgundy.steps import STEPS, perform, step_kind
from meeple_hall.games.burgundy.words import m
from meeple_hall.games.core import Decision, GameEngine, GameOption, Option, Result, Rng
from meeple_hall.games.core.contract import LOG_SHOWN
from meeple_hall.games.core.messages import event_json
from meeple_hall.games.core.order import in_order


def face(tile_id: int) -> dict[str, Any] | None:
    """A tile as views show it (None for an empty space): a copy of `_face`'s."""
    return None if tile_id < 0 else _face(tile_id).copy()


@cache
def _face(tile_id: int) -> dict[str, Any]:
    t = tile(tile_id)
    return {"type": t.type, "face": t.face, "black": t.black, **details(t)}


class BurgundyEngine(GameEngine[BurgundyState]):
    id = "burgundy"
    name = "The Castles of Burgundy"
    min_players = 2
    max_players = 4
    state_type = BurgundyState
    steps = STEPS
    options = (
        GameOption(
            id="tiebreak",
            label=m("option.tiebreak.label"),
            choices=(
                Option("written", m("option.tiebreak.written")),
                Option("other", m("option.tiebreak.other")),
            ),
            default="written",
            description=m("option.tiebreak.description"),
        ),
        GameOption(
            id="start",
            label=m("option.start.label"),
            choices=(
                Option("random", m("option.start.random")),
                Option("seat1", m("option.start.seat1")),
            ),
            default="random",
            description=m("option.start.description"),
        ),
    )

    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> BurgundyState:
        return new_game(num_players, rng, options["tiebreak"], options["start"])

    def decisions(self, state: BurgundyState) -> list[Decision]:
        return STEPS.decisions(state)

    def decision_of(
        self, state: BurgundyState, seat: int, kinds: Collection[str]
    ) -> Decision | None:
        """`Steps.decision_of`, remembered as `decisions` would be, for the moves the panel
        applies to `state` next."""
        decision = STEPS.decision_of(state, seat, kinds)
        if decision is not None:
            self._remember(state, [decision])
        return decision

    def perform(self, state: BurgundyState, decision: Decision, choices: tuple[str, ...]) -> None:
        perform(state, decision, choices)

    def result(self, state: BurgundyState) -> Result | None:
        return scoring.result(state) if state.over else None

    resampled_by_game = frozenset({"BurgundyState.phase_goods"})

    def resample_private(self, state: BurgundyState, seat: int, rng: Rng) -> None:
        determinize.resample(state, seat, rng)

    def view(self, state: BurgundyState, seat: int | None) -> dict[str, Any]:
        comp = components()
        depots = table_depots(state)
        players = []
        for p in state.players:
            players.append(
                {
                    "score": p.score,
                    "lap": p.score // 100,
                    "points": in_order(p.points, scoring.CATEGORIES),
                    "estate": {str(h): face(t) for h, t in sorted(p.estate.items())},
                    "storage": [face(t) for t in p.storage],
                    "goods": {str(g): n for g, n in sorted(p.goods.items())},
                    "sold": sum(p.sold.values()),
                    "silver": p.silver,
                    "workers": p.workers,
                    "dice": list(p.dice),
                    "used": list(p.used),
                    "bonus": [_bonus_tile(bonus) for bonus in p.bonus],
                    "empty": scoring.empty_spaces(p),
                }
            )
        view: dict[str, Any] = {
            "num_players": state.num_players,
            "phase": PHASES[state.phase],
            "phase_index": state.phase,
            "round": state.round,
            "status": _status(state.phase, state.round),
            "white": state.white,
            "order": list(state.order),
            "active": None if state.over else state.active,
            "step": step_kind(state),
            "pending": pending(state),
            "estate_board": [h.copy() for h in _estate_board()],
            "start_hex": comp.estate.start,
            "depots": depots,
            "black": [face(t) for t in state.black],
            "round_goods": list(state.round_goods),
            "phase_goods_left": [len(stack) for stack in state.phase_goods],
            "bridge": [list(stack) for stack in state.bridge],
            "bonus_left": {k: list(v) for k, v in state.bonus_left.items()},
            "supply": {back: len(pile) for back, pile in state.supply.items()},
            "players": players,
            "log": [event_json(event) for event in state.log[-LOG_SHOWN:]],
            "over": state.over,
        }
        if state.over:
            final = scoring.result(state)
            view["final"] = {"scores": list(final.scores), "ranks": list(final.ranks)}
        if seat is not None:
            me = state.players[seat]
            view["you"] = {
                "seat": seat,
                "sold": {str(g): n for g, n in sorted(me.sold.items())},
            }
        return view


@cache
def _estate_board() -> tuple[dict[str, Any], ...]:
    """The estate board's hexes as views show them (`view` copies them)."""
    return tuple(
        {"id": h.id, "q": h.q, "r": h.r, "type": h.type, "die": h.die}
        for h in components().estate.hexes.values()
    )


@lru_cache(maxsize=64)
def _status(phase: int, round_: int) -> dict[str, Any]:
    return m("status", phase=PHASES[phase], round=round_).to_json()


def _bonus_tile(bonus: str) -> dict[str, str]:
    """A bonus tile taken (`mine:large`), as its colour and size."""
    colour, size = bonus.split(":")
    return {"type": colour, "size": size}


def pending(state: BurgundyState) -> dict[str, Any] | None:
    """The die being used, if a step of the turn is under way."""
    frame = state.stack[-1] if state.stack else None
    if frame is None or not frame.value:
        return None
    return {
        "kind": frame.kind,
        "value": frame.value,
        "castle": frame.slot == CASTLE_DIE,
        "die": frame.slot,
    }


def table_depots(state: BurgundyState) -> list[dict[str, Any]]:
    spec = table()["depots"]
    out = []
    for d in range(6):
        spaces = [
            {
                "type": space_kind(kind, state.num_players, state.phase),
                "tile": face(state.depots[d][i]),
            }
            for i, (kind, min_players) in enumerate(spec[str(d + 1)])
            if min_players <= state.num_players
        ]
        out.append({"number": d + 1, "spaces": spaces, "goods": list(state.depot_goods[d])})
    return out
