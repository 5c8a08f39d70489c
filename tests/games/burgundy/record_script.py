"""Record the scripted game of test_scripted_game.py: a seeded chooser that prefers purposeful
moves (placing before taking, taking tiles that fit the estate, selling big stacks, using every
building's effect) plays a whole game, and the answers are written to scripted_game.json.

Run from the repository root: `python -m tests.games.burgundy.record_script SEED PLAYERS`.
The recorded file is the test's input; this chooser is only how it was produced.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.rules import open_hexes, plays, tile
from meeple_hall.games.burgundy.state import CASTLE_DIE, BurgundyState
from meeple_hall.games.burgundy.steps import STEPS
from meeple_hall.games.core import Action, Decision

SCRIPT = Path(__file__).with_name("scripted_game.json")


def _weight_die(state: BurgundyState, seat: int, oid: str, meaning: Any) -> float:
    player = state.players[seat]
    if oid == "buy":
        return 6.0 if len(player.storage) < 3 else 0.5
    if oid == "end":
        return 1.0
    slot, value = meaning
    best = 1.0
    for p in plays(state, seat, slot, value):
        if p.action == "place":
            best = max(best, 12.0 - 4 * p.cost)
        elif p.action == "take" and len(player.storage) < 3:
            best = max(best, 5.0 - 2 * p.cost + 3 * bool(open_hexes(player, p.tile)))
        elif p.action == "sell":
            best = max(best, 2.0 * player.goods[value] - 2 * p.cost)
    return max(best, 0.2)


def _weight(state: BurgundyState, decision: Decision, oid: str, meaning: Any) -> float:
    seat, kind = decision.seat, decision.kind
    player = state.players[seat]
    if kind in ("die", "castle"):
        if kind == "castle" and isinstance(meaning, tuple) and meaning[0] == CASTLE_DIE:
            return 1.0 + 10 * any(
                p.action == "place" for p in plays(state, seat, CASTLE_DIE, meaning[1])
            )
        return _weight_die(state, seat, oid, meaning)
    if kind == "action":
        frame = state.stack[-1]
        return {
            "place": 12.0,
            "take": 4.0 if len(player.storage) < 3 else 0.3,
            "sell": 2.0 * player.goods.get(frame.value, 0),
            "workers": 1.0,
        }[oid]
    if kind in ("take", "buy", "effect_take"):
        if meaning is None:
            return 0.1
        tile_id = meaning.tile if kind == "take" else meaning
        built = {tile(t).building for t in player.estate.values()}
        fresh = tile(tile_id).building not in built
        return 1.0 + 4 * bool(open_hexes(player, tile_id)) + 2 * fresh
    if kind in ("place", "townhall"):
        if meaning is None:
            return 0.1
        tile_id = meaning.tile if kind == "place" else meaning[0]
        return 3.0 if tile(tile_id).type == "building" else 2.0
    if kind == "warehouse":
        return 0.1 if meaning is None else float(player.goods[meaning])
    return 1.0


def choose(state: BurgundyState, decision: Decision, rng: random.Random) -> tuple[str, ...]:
    if decision.kind == "shipgoods":
        ids = [o.id for o in decision.options]
        return tuple(rng.sample(ids, decision.min_choices))
    frame = STEPS.top(state)
    meanings = STEPS.step(frame).offer(state, frame).meanings
    ids = list(meanings)
    weights = [_weight(state, decision, oid, meanings[oid]) for oid in ids]
    return (rng.choices(ids, weights)[0],)


OPTIONS = {"start": "seat1"}  # seat 1 starts, so the script reads seat by seat


def record(seed: int, num_players: int) -> tuple[BurgundyState, list[list[Any]]]:
    rng = random.Random(seed)
    state = engine.new(num_players, seed=seed, options=OPTIONS)
    actions: list[list[Any]] = []
    while not state.over:
        decision = engine.decisions(state)[0]
        picked = choose(state, decision, rng)
        actions.append([decision.seat, *picked])
        state = engine.apply(state, Action(decision.seat, picked))
    return state, actions


if __name__ == "__main__":
    seed, players = int(sys.argv[1]), int(sys.argv[2])
    _, moves = record(seed, players)
    SCRIPT.write_text(
        json.dumps(
            {"seed": seed, "players": players, "options": OPTIONS, "actions": moves},
            separators=(",", ":"),
        )
        + "\n"
    )
