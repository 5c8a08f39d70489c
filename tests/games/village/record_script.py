"""Record the scripted games of test_scripted_game.py and test_scripted_solo.py: a seeded
chooser that prefers purposeful moves (taking cubes from spaces whose action it can carry out,
serving customers, promoting in the council, the well only when the action can follow) plays
a whole game, and the answers are written to a JSON file beside this one.

Run from the repository root: `python -m tests.games.village.record_script PLAYERS SEED FILE`
(the scripts were recorded with `4 25 scripted_game.json` and `1 39 scripted_solo.json`).
The recorded file is the test's input; this chooser is only how it was produced.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from meeple_hall.games.core import Action, Decision
from meeple_hall.games.village import data, engine
from meeple_hall.games.village.economy import has_goods
from meeple_hall.games.village.state import FARM, Frame, VillageState

# How much the chooser likes each action space when it can act there.
LIKING = {
    "travel": 2.0,
    "council": 1.6,
    "church": 1.3,
    "crafts": 1.5,
    "market": 1.0,
    "harvest": 1.0,
    "family": 1.0,
}


def useful(state: VillageState, seat: int, space: str) -> bool:
    player = state.players[seat]
    if space == "market":
        return any(t and has_goods(player, data.customers()[t].wants) for t in state.stalls)
    offer = engine.steps.by_kind[space].offer(state, Frame(space, seat))
    doable = [o for o in offer.options if o.id != "skip"]
    if space == "harvest":
        return bool(doable) and player.grain <= 3
    if space == "family":
        return bool(doable) and sum(m.place == FARM for m in player.members) <= 2
    return bool(doable)


def well_useful(state: VillageState, seat: int, option: str) -> bool:
    action = option.split("-")[2]
    if action == "market":
        return useful(state, seat, "market")
    after = engine.apply(state, Action(seat, (option,)))
    pending = engine.decisions(after)
    return bool(pending) and pending[0].kind == action and useful(after, seat, action)


def take_cube(state: VillageState, seat: int, ids: list[str], rng: random.Random) -> str:
    best, best_score = ids[0], -99.0
    for oid in ids:
        parts = oid.split("-")
        score = rng.random()
        if parts[0] == "free":
            score += 2 if useful(state, seat, parts[1]) else 0
        elif parts[0] == "well":
            score += (2.5 if well_useful(state, seat, oid) else -9) + (rng.random() - 0.6) * 3
        else:
            space, colour = parts
            score -= 1.5 if colour == "black" else 0
            if useful(state, seat, space):
                score += 2 * LIKING[space]
            elif space == "market":
                score -= 1
        if score > best_score:
            best, best_score = oid, score
    return best


def crafts_choice(
    state: VillageState, seat: int, doable: list[str], rng: random.Random
) -> str | None:
    """The mill now and then, else a tool or animal the farm lacks (most of the time)."""
    if "mill" in doable and rng.random() < 0.3:
        return "mill"
    goods = state.players[seat].goods
    wanted = []
    if not goods["plow"]:
        wanted += [o for o in doable if o.startswith("smithy")]
    if not goods["ox"] and not goods["horse"]:
        wanted += [o for o in doable if o.startswith("stables")]
    if not goods["wagon"]:
        wanted += [o for o in doable if o.startswith("wainwright")]
    return rng.choice(wanted) if wanted and rng.random() < 0.7 else None


def choose(state: VillageState, decision: Decision, rng: random.Random) -> str:
    ids = [o.id for o in decision.options]
    seat, kind = decision.seat, decision.kind
    if kind == "turn":
        return take_cube(state, seat, ids, rng)
    plain = [o for o in ids if "-coins" not in o]
    coined = [o for o in ids if "-coins" in o]
    if kind == "harvest":
        return "harvest"
    if kind == "market":
        serve = [o for o in plain if o.startswith("serve")]
        if not serve or rng.random() < 0.12:
            return "pass"
        return rng.choice(coined) if coined and rng.random() < 0.3 else rng.choice(serve)
    if kind == "buy":
        buys = [o for o in ids if o.startswith("buy")]
        coins = state.players[seat].coins
        return rng.choice(buys) if buys and rng.random() < 0.9 and coins else "done"
    if kind == "advance":
        ups = [o for o in ids if o.startswith("up")]
        return rng.choice(ups) if ups and rng.random() < 0.85 else "done"
    if kind == "privilege":
        doable = [o for o in ids if o != "none"]
        if "p4" in doable and rng.random() < 0.7:
            return "p4"
        return rng.choice(doable) if doable else "none"
    doable = [o for o in plain if o != "skip"]
    if kind == "crafts" and (picked := crafts_choice(state, seat, doable, rng)):
        return picked
    if kind == "council":
        promote = [o for o in doable if o.startswith("promote")]
        if promote and rng.random() < 0.7:
            return rng.choice(promote)
    if kind == "family":
        recall = [o for o in doable if o.startswith("recall")]
        if rng.random() < 0.25 and recall:
            return rng.choice(recall)
        if "born" in doable:
            return "born"
    if coined and rng.random() < 0.3:
        return rng.choice(coined)
    return rng.choice(doable or ids)


def record(players: int, seed: int) -> list[list[int | str]]:
    rng = random.Random(seed * 7919 + 1)
    state = engine.new(players, seed, SOLO if players == 1 else GROUP)
    moves: list[list[int | str]] = []
    while pending := engine.decisions(state):
        decision = pending[0]
        choice = choose(state, decision, rng)
        moves.append([decision.seat, choice])
        state = engine.apply(state, Action(decision.seat, (choice,)))
    return moves


SOLO = {"karla": "standard"}
GROUP = {"compensation": "on"}

if __name__ == "__main__":
    players, seed, name = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    script = {
        "_source": "tests/games/village/record_script.py "
        f"{players} {seed} {name}: a seeded purposeful chooser",
        "seed": seed,
        "players": players,
        "options": SOLO if players == 1 else GROUP,
        "actions": record(players, seed),
    }
    text = json.dumps(script, separators=(",", ":"))
    Path(__file__).with_name(name).write_text(text + "\n")
