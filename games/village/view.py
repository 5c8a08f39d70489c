"""What the table shows: everything public, plus one seat's own secrets."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from meeple_hall.games.core.contract import LOG_SHOWN
from meeple_hall.games.core.messages import Msg, event_json
from meeple_hall.games.village import data, scoring
from meeple_hall.games.village import words as w
from meeple_hall.games.village.state import CHURCH, COUNCIL, FARM, TRAVEL, WORKSHOP, VillageState


def member_list(state: VillageState, place: str) -> list[dict[str, Any]]:
    out = []
    for seat, player in enumerate(state.players):
        for m in player.members:
            if m.place == place:
                out.append({"seat": seat, "number": m.number, "where": m.where, "stage": m.stage})
    return out


def player_view(state: VillageState, seat: int, reveal: bool) -> dict[str, Any]:
    p = state.players[seat]
    length = data.track_length()
    out: dict[str, Any] = {
        "seat": seat,
        "time": p.time % length,
        "time_spent": p.time,
        "farm": sorted(m.number for m in p.members if m.place == FARM),
        "unborn": sorted(m.number for m in p.members if m.place == "supply"),
        "cubes": dict(p.cubes),
        "goods": dict(p.goods),
        "grain": p.grain,
        "coins": p.coins,
        "marker_coin": p.marker_coin,
        "prestige": p.prestige,
        "customers": len(p.customers),
        "cities": list(p.cities),
        "deaths_due": p.deaths_due,
    }
    if reveal:
        out["customer_tiles"] = list(p.customers)
    return out


def black_bag(state: VillageState) -> list[dict[str, int]]:
    """The black bag may be inspected by anyone (BB church): whose members, which numbers."""
    out = []
    for token in state.black_bag:
        owner, _, rest = token.partition(":")
        if owner == "monk":
            out.append({"seat": -2, "number": 0})
        elif owner == "k":
            out.append({"seat": -1, "number": int(rest)})
        else:
            seat = int(owner)
            out.append({"seat": seat, "number": state.players[seat].members[int(rest)].number})
    return sorted(out, key=lambda t: (t["seat"], t["number"]))


def customer(tile: str) -> dict[str, Any]:
    c = _customers()[tile]
    return {"id": tile, "wants": c["wants"].copy(), "points": c["points"]}


@cache
def _customers() -> dict[str, dict[str, Any]]:
    """Each customer tile as views show it (`customer` copies it)."""
    return {t: {"wants": dict(c.wants), "points": c.points} for t, c in data.customers().items()}


@cache
def _map() -> dict[str, Any]:
    """The travel map as views show it (`view` copies it)."""
    return {
        "cities": data.cities(),
        "routes": [{"ends": [r.a, r.b], "cubes": dict(r.cubes)} for r in data.routes()],
    }


def _map_copy() -> dict[str, Any]:
    shown = _map()
    return {
        "cities": dict(shown["cities"]),
        "routes": [{"ends": r["ends"][:], "cubes": r["cubes"].copy()} for r in shown["routes"]],
    }


def status(state: VillageState) -> Msg:
    """The line under the table: the round, the game ending, or over (with a solo title);
    during the game also what happened last, so that the table says what the player before
    did (in solo: Karla's cube, which she takes without a question)."""
    if state.phase == "over":
        if state.solo:
            score = sum(scoring.breakdown(state, 0).values())
            return w.m("status.over_solo", title=w.score_title(scoring.title(score)))
        return w.m("status.over")
    if state.ending:
        where = w.m("status.ending", round=state.round)
    elif state.phase == "mass":
        where = w.m("status.mass", round=state.round)
    else:
        where = w.m("status.round", round=state.round)
    # "Round 3 begins." says nothing the round number does not.
    latest = next((e for e in reversed(state.log) if getattr(e, "key", "") != ROUND_BEGINS), None)
    return where if latest is None else w.m("status.latest", status=where, event=latest)


ROUND_BEGINS = "village.log.round"


def status_json(state: VillageState) -> dict[str, Any]:
    """`status(state)` as views give it; during the game it is the round's words and the
    latest event's, worked out once for each (the event's JSON is `event_json`'s)."""
    if state.phase == "over":
        return status(state).to_json()
    latest = next((e for e in reversed(state.log) if getattr(e, "key", "") != ROUND_BEGINS), None)
    where = _where_json(state.ending, state.phase == "mass", state.round)
    if latest is None:
        return where
    return {
        "key": "village.status.latest",
        "params": {"event": event_json(latest), "status": where},
    }


@lru_cache(maxsize=64)
def _where_json(ending: bool, mass: bool, round_: int) -> dict[str, Any]:
    key = "status.ending" if ending else "status.mass" if mass else "status.round"
    return w.m(key, round=round_).to_json()


def view(state: VillageState, seat: int | None) -> dict[str, Any]:
    out = public_view(state)
    if seat is not None:
        out["you"] = own_view(state, seat)
    return out


def own_view(state: VillageState, seat: int) -> dict[str, Any]:
    """What only `seat` sees: its customers (face down to the others until the end)."""
    me = state.players[seat]
    return {
        "seat": seat,
        "customers": [customer(t) for t in me.customers],
        "customer_points": sum(data.customers()[t].points for t in me.customers),
    }


def public_view(state: VillageState) -> dict[str, Any]:
    """The spectator's view: every seat's is this with its own `you` added."""
    over = state.phase == "over"
    step = state.stack[-1] if state.stack and not over else None
    out: dict[str, Any] = {
        "num_players": state.num_players,
        "solo": state.solo,
        "round": state.round,
        "phase": state.phase,
        "step": step.kind if step else "",
        "active": [step.seat] if step else [],
        "current": state.current,
        "start_player": state.start_player,
        "next_start": state.next_start,
        "spaces": {k: list(v) for k, v in state.spaces.items()},
        "supply": dict(state.supply),
        "black_bag": black_bag(state),
        "stalls": [customer(t) if t else None for t in state.stalls],
        "queue": [customer(t) for t in state.queue],
        "customers_left": len(state.customer_stack),
        "chronicle": {k: list(v) for k, v in state.chronicle.items()},
        "graves": list(state.graves),
        "workshops": member_list(state, WORKSHOP),
        "council": member_list(state, COUNCIL),
        "church": member_list(state, CHURCH),
        "travellers": member_list(state, TRAVEL),
        "track_length": data.track_length(),
        "open_stalls": data.card(state.num_players)["stalls"],
        "map": _map_copy(),
        "players": [player_view(state, s, over) for s in range(state.num_players)],
        "ending": state.ending,
        "final_turns": list(state.final_turns),
        "log": [event_json(event) for event in state.log[-LOG_SHOWN:]],
        "status": status_json(state),
    }
    if state.market is not None:
        out["market"] = {
            "trigger": state.market.trigger,
            "passed": list(state.market.passed),
            "first_free": state.market.first_free,
        }
    if state.karla is not None:
        k = state.karla
        out["karla"] = {
            "beside": list(k.beside),
            "waiting": list(k.waiting),
            "church": {str(s): n for s, n in sorted(k.church.items())},
            "ring": [list(c) for c in k.ring],
            "last": k.last,
            "top": [t if up else "?" for t, up in zip(k.top, k.top_up, strict=True)],
            "bottom": [t if up else "?" for t, up in zip(k.bottom, k.bottom_up, strict=True)],
            "customers": len(k.customers),
            "dead": k.dead,
        }
    if over:
        scores = [sum(scoring.breakdown(state, s).values()) for s in range(state.num_players)]
        out["scores"] = scores
        out["ranks"] = list(scoring.ranks(state, scores))
        if state.solo:
            out["title"] = scoring.title(scores[0])
            out["title_rank"] = scoring.title_rank(scores[0])
            out["titles"] = len(scoring.titles())
    return out
