"""The `good` AI level for Village (games/village/strategy.py): legal answers through whole
games, the same answers for the same generator, and the obviously right choice in a few
hand-made positions."""

from __future__ import annotations

import random

import pytest

from meeple_hall.games.core import Action, Decision
from meeple_hall.games.village import engine, strategy
from meeple_hall.games.village.state import CHURCH, COUNCIL, FARM, Frame, VillageState
from tests.games.village.test_rulebook_examples import at_turn, choose


def assert_legal(decision: Decision, choices: tuple[str, ...]) -> None:
    ids = {o.id for o in decision.options}
    assert decision.min_choices <= len(choices) <= decision.max_choices
    assert len(set(choices)) == len(choices)
    assert set(choices) <= ids, (decision.kind, choices)


def play(num_players: int, seed: int, good: set[int]) -> VillageState:
    """A whole game, `good` seats played by the strategy and the others at random."""
    state = engine.new(num_players, seed)
    rng = random.Random(seed)
    while pending := engine.decisions(state):
        d = pending[0]
        if d.seat in good:
            choices = strategy.choose(state, d, rng)
            assert_legal(d, choices)
        else:
            choices = (rng.choice(d.options).id,)
        state = engine.apply(state, Action(d.seat, choices))
    return state


# Solo (against Karla) and 2 players in the default run; 3 and 4 players, the same answers
# over longer games (about 2 and 7 s), in the slow part.
@pytest.mark.parametrize(
    ("num_players", "good"),
    [
        (1, {0}),
        (2, {0, 1}),
        pytest.param(3, {1}, marks=pytest.mark.slow),
        pytest.param(4, {0, 3}, marks=pytest.mark.slow),
    ],
)
def test_legal_answers_through_a_whole_game(num_players: int, good: set[int]) -> None:
    state = play(num_players, seed=11, good=good)
    result = engine.result(state)
    assert result is not None and len(result.scores) == num_players


def test_the_same_generator_gives_the_same_game() -> None:
    first = engine.dump(play(1, seed=5, good={0}))
    assert engine.dump(play(1, seed=5, good={0})) == first


def test_serves_a_customer_on_its_own_market_day() -> None:
    state = engine.new(2, seed=3, options={"compensation": "off"})
    state = at_turn(state, 0, market=["orange"], harvest=["brown"])
    state.stalls = ["c02", "c01", "c03", "", ""]
    state.players[0].goods.update(horse=1, plow=1)
    state.players[0].grain = 3
    state.players[0].coins = 0  # no second sale: it would cost a green cube (or a coin)
    state = choose(state, 0, "market-orange")
    (decision,) = engine.decisions(state)
    assert decision.kind == "market"
    # The first sale of one's market day is free: c01 (horse + plow) brings 6 prestige,
    # c02 (3 grain) only 3.
    assert strategy.choose(state, decision, random.Random(1)) == ("serve-c01",)


def test_the_member_who_dies_goes_where_the_chronicle_has_room() -> None:
    state = engine.new(2, seed=3, options={"compensation": "off"})
    player = state.players[0]
    # The councillor comes first among the options.
    councillor = next(i for i, m in enumerate(player.members) if m.place == FARM)
    at_home = next(i for i, m in enumerate(player.members) if m.place == FARM and i != councillor)
    player.members[councillor].place, player.members[councillor].stage = COUNCIL, 1
    for i, m in enumerate(player.members):
        if m.place == FARM and i != at_home:
            m.place = "supply"
    state.chronicle["council"] = ["1" if s == "" else s for s in state.chronicle["council"]]
    player.deaths_due = 1
    state.stack = [Frame("die", 0)]
    (decision,) = engine.decisions(state)
    # Dying in the council finds its chronicle full (a grave, no points); from the
    # farmyard the member enters the chronicle (EN "A family member passes away").
    assert strategy.choose(state, decision, random.Random(1)) == (f"die-{at_home}",)


def test_moves_a_young_member_up_in_the_church_when_grain_allows() -> None:
    state = engine.new(2, seed=3, options={"compensation": "off"})
    player = state.players[0]
    young = next(i for i, m in enumerate(player.members) if m.number == 4)
    player.members[young].place, player.members[young].stage = CHURCH, 1
    player.grain = 2
    state.phase, state.mass_stage, state.mass_order = "mass", "advance", [0, 1]
    state.stack = [Frame("advance", 0)]
    (decision,) = engine.decisions(state)
    # Stage 1 -> 2 costs 1 grain and makes the member worth 3 instead of 2 at the end.
    assert strategy.choose(state, decision, random.Random(1)) == (f"up-{young}",)
