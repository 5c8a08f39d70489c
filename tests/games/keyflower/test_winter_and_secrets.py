"""Winter's secret simultaneous choice, the views' secrets, and conservation of pieces."""

from __future__ import annotations

import json
import random

from meeple_hall.games.core import Action
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.games.testing import random_choices


def _to_winter(seed: int, num_players: int = 3) -> KeyflowerState:
    state = engine.new(num_players, seed)
    rng = random.Random(seed)
    while state.phase != "winter":
        d = rng.choice(engine.decisions(state))
        state = engine.apply(state, Action(d.seat, random_choices(d, rng)))
    return state


def test_winter_tiles_are_chosen_by_everyone_at_once_and_revealed_together() -> None:
    s = _to_winter(5)
    pending = engine.decisions(s)
    assert sorted(d.seat for d in pending) == [0, 1, 2]
    assert all(d.kind == "winter" and d.min_choices == 1 for d in pending)
    hands = [list(p.winter_hand) for p in s.players]
    s = engine.apply(s, Action(0, tuple(hands[0][:2])))
    assert sorted(d.seat for d in engine.decisions(s)) == [1, 2]
    assert engine.view(s, None)["offer"] == []
    s = engine.apply(s, Action(1, tuple(hands[1][:1])))
    s = engine.apply(s, Action(2, tuple(hands[2])))
    assert sorted(s.offer) == sorted(hands[0][:2] + hands[1][:1] + hands[2])
    assert [p["winter_chosen"] for p in engine.view(s, None)["players"]] == [2, 1, 3]
    assert s.phase == "play"


def test_views_keep_screens_hands_and_the_bag_secret() -> None:
    s = _to_winter(6)
    public = json.dumps(engine.view(s, None))
    for p in s.players:
        for tile in p.winter_hand:
            assert tile not in public
    assert '"screen"' not in public and '"skills": {' not in public.split('"boats"')[0]
    mine = engine.view(s, 1)
    assert mine["you"]["screen"] == s.players[1].screen
    assert [t["id"] for t in mine["you"]["winter_hand"]] == s.players[1].winter_hand
    other = json.dumps(engine.view(s, 0)["you"])
    assert all(t not in other for t in s.players[1].winter_hand)


def _pieces(s: KeyflowerState) -> tuple[int, int, int]:
    workers = sum(s.bag.values()) + s.green
    workers += sum(sum(p.screen.values()) for p in s.players)
    workers += sum(sum(w.values()) for w in s.boat_workers.values())
    resources = sum(s.supply.values())
    for t in s.tiles.values():
        workers += sum(g.count for g in [*t.workers, *t.bids])
        resources += sum(t.resources.values())
    skills = sum(s.skill_pile.values()) + sum(sum(p.skills.values()) for p in s.players)
    skills += sum(sum(k.values()) for k in s.boat_skills.values())
    return workers, resources, skills


def test_workers_resources_and_skills_never_appear_from_nowhere() -> None:
    for num_players, seed in ((3, 12), (6, 13)):
        s = engine.new(num_players, seed)
        rng = random.Random(seed)
        assert _pieces(s) == (140, 120, 48)
        while engine.decisions(s):
            d = rng.choice(engine.decisions(s))
            s = engine.apply(s, Action(d.seat, random_choices(d, rng)))
            assert _pieces(s) == (140, 120, 48), s.log[-3:]
        assert engine.result(s) is not None
