"""Shared helpers for the Village tests: random playouts and conservation checks."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from meeple_hall.games.core import Action
from meeple_hall.games.village import data, engine
from meeple_hall.games.village.state import BAG, CHRONICLE, GRAVE, VillageState


def load_script(name: str) -> dict:
    """A recorded game (players, seed, options, actions as [seat, choice]) from this folder."""
    return json.loads(Path(__file__).with_name(name).read_text())


def replay(script: dict) -> list[VillageState]:
    """The state before every action of a recorded game, and the end state last."""
    state = engine.new(script["players"], script["seed"], script["options"])
    states = [state]
    for seat, choice in script["actions"]:
        state = engine.apply(state, Action(seat, (choice,)))
        states.append(state)
    return states


def playout(num_players: int, seed: int, **options: str) -> Iterator[VillageState]:
    """Every state of one random game, first to last."""
    rng = random.Random(seed)
    state = engine.new(num_players, seed, options or None)
    yield state
    while pending := engine.decisions(state):
        d = pending[0]
        state = engine.apply(state, Action(d.seat, (rng.choice(d.options).id,)))
        yield state


def check_conservation(state: VillageState) -> None:
    rules = data.rules()
    total: Counter[str] = Counter(state.supply)
    total.update(state.green_bag)
    for cubes in state.spaces.values():
        total.update(cubes)
    for player in state.players:
        total.update(player.cubes)
        assert min(player.cubes.values()) >= 0
        assert min(player.goods.values()) >= 0
        assert 0 <= player.grain <= rules["grain_cap"]
        assert player.coins >= 0
    if state.karla is not None:
        for cubes in state.karla.ring:
            total.update(cubes)
    for colour in data.colours():
        assert total[colour] == rules["cubes_per_colour"], (colour, total)
    assert total["black"] == rules["plague_cubes"]

    tiles = state.customer_stack + [t for t in state.stalls if t] + state.queue
    for player in state.players:
        tiles += player.customers
    if state.karla is not None:
        tiles += state.karla.customers
    assert sorted(tiles) == sorted(data.customers())

    assert state.black_bag.count("monk") == rules["monks"]
    for seat, player in enumerate(state.players):
        assert len(player.members) == len(rules["family"]["numbers"])
        in_bag = [t for t in state.black_bag if t.startswith(f"{seat}:")]
        assert len(in_bag) == sum(1 for m in player.members if m.place == BAG)
        mark = str(seat)
        written = sum(slots.count(mark) for slots in state.chronicle.values())
        assert written == sum(1 for m in player.members if m.place == CHRONICLE)
        assert state.graves.count(mark) == sum(1 for m in player.members if m.place == GRAVE)
    if state.karla is not None:
        k = state.karla
        in_bag = sum(1 for t in state.black_bag if t.startswith("k:"))
        alive = len(k.beside) + len(k.waiting) + len(k.church) + in_bag
        assert alive + k.dead == len(rules["family"]["numbers"])
