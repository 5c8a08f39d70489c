"""What the table shows: the spectator's view, plus a seat's own screen and winter hand.

Behind a screen (workers, skill tiles), the winter hand, who chose which winter tile, the
bag and the stacks are never in the spectator's view; the bag and the skill pile show only
how many they hold, as players may feel the bag and see the pile.
"""

from __future__ import annotations

from typing import Any

from meeple_hall.games.core.contract import LOG_SHOWN
from meeple_hall.games.core.messages import event_json
from meeple_hall.games.core.order import in_order
from meeple_hall.games.keyflower.components import COLOURS, RESOURCES, SEASONS, SKILLS, spec
from meeple_hall.games.keyflower.placing import effect
from meeple_hall.games.keyflower.scoring import CATEGORIES
from meeple_hall.games.keyflower.state import Group, KeyflowerState, Tile
from meeple_hall.games.keyflower.village import edges_at
from meeple_hall.games.keyflower.words import m, season_name


def _groups(groups: list[Group]) -> list[dict[str, Any]]:
    return [
        {"seat": g.seat, "colour": g.colour, "count": g.count, "lying": g.lying} for g in groups
    ]


def tile_view(state: KeyflowerState, tile: Tile) -> dict[str, Any]:
    s = spec(tile.id)
    e = effect(state, tile.id)
    out: dict[str, Any] = {
        "id": tile.id,
        "name": s.name,
        "kind": s.kind,
        "upgraded": tile.upgraded,
        "effect": e.get("effect", ""),
        "detail": {k: v for k, v in e.items() if k not in ("effect", "points")},
        "points": e.get("points", 0),
        "resources": in_order(tile.resources, RESOURCES),
        "workers": _groups(tile.workers),
        "bids": _groups(tile.bids),
        "edges": edges_at(tile.id, tile.rot),
    }
    if tile.side:
        ability = s.front["ability"] if tile.side == "a" else (s.back or {}).get("ability", "")
        out["ability"] = ability
    if tile.placed:
        out["q"], out["r"], out["rot"] = tile.q, tile.r, tile.rot
    if s.kind == "turn_order":
        out["number"] = s.number
        out["start"] = tile.id == state.start_tile
    return out


def hand_view(tile_id: str, chosen: bool) -> dict[str, Any]:
    """A winter tile in a player's hand: its face, as only its holder sees it."""
    s = spec(tile_id)
    return {
        "id": tile_id,
        "name": s.name,
        "kind": s.kind,
        "effect": s.front.get("effect", ""),
        "detail": {k: v for k, v in s.front.items() if k not in ("effect", "points")},
        "points": s.front.get("points", 0),
        "edges": s.edges,
        "chosen": chosen,
    }


def public_view(state: KeyflowerState, active: list[int]) -> dict[str, Any]:
    """What everyone sees (the spectator's view); `active`: the seats asked now."""
    players = []
    for i, p in enumerate(state.players):
        players.append(
            {
                "seat": i,
                "home": p.home,
                "village": [tile_view(state, state.tiles[t]) for t in p.village],
                "to_place": [tile_view(state, state.tiles[t]) for t in p.to_place],
                "winter_hand": len(p.winter_hand),
                "winter_chosen": bool(p.winter_pick)
                if state.phase == "winter"
                else p.winter_chosen,
                "boat": p.boat,
                "start_player": i == state.start,
            }
        )
    out: dict[str, Any] = {
        "num_players": state.num_players,
        "season": SEASONS[state.season],
        "round": state.season + 1,
        "phase": state.phase,
        "start_player": state.start,
        "active_seats": active,
        "offer": [tile_view(state, state.tiles[t]) for t in state.offer],
        "turn_order": [tile_view(state, state.tiles[t]) for t in state.turn_order],
        "boats": [
            {
                "id": b,
                "name": spec(b).name,
                "workers": in_order(state.boat_workers[b], COLOURS),
                "skills": in_order(state.boat_skills[b], SKILLS),
                "taken": state.phase == "boats" and b not in state.boats_left,
            }
            for b in state.boats
            if not any(p.boat == b for p in state.players)
        ],
        "players": players,
        "bag": sum(state.bag.values()),
        "green": state.green,
        "skill_pile": sum(state.skill_pile.values()),
        "supply": dict(state.supply),
        "log": [event_json(event) for event in state.log[-LOG_SHOWN:]],
        "status": m(
            f"status.{state.phase}",
            season=season_name(SEASONS[state.season]),
            round=state.season + 1,
        ).to_json(),
    }
    if state.phase == "over":
        out["final"] = [
            {"breakdown": in_order(f["breakdown"], CATEGORIES), "lines": list(f["lines"])}
            for f in state.final
        ]
    return out


def own_view(state: KeyflowerState, seat: int) -> dict[str, Any]:
    """What only the seat sees: behind its screen, and its winter hand."""
    me = state.players[seat]
    return {
        "seat": seat,
        "screen": in_order(me.screen, COLOURS),
        "skills": in_order(me.skills, SKILLS),
        "winter_hand": [hand_view(t, t in me.winter_pick) for t in me.winter_hand],
        "winter_pick": list(me.winter_pick),
    }
