"""The `good` AI level for Coffee Traders (games/coffee/strategy.py): legal answers through
whole games (André included at 2 players), the same answers for the same generator, and the
obviously right choice in a few hand-made positions."""

from __future__ import annotations

import random

import pytest

from meeple_hall.games.coffee import engine, strategy
from meeple_hall.games.coffee.data import COFFEES, KOPI
from meeple_hall.games.coffee.sell import contract_wants
from meeple_hall.games.coffee.state import CoffeeState
from meeple_hall.games.core import Action, Decision


def assert_legal(decision: Decision, choices: tuple[str, ...]) -> None:
    ids = {o.id for o in decision.options}
    assert decision.min_choices <= len(choices) <= decision.max_choices
    assert len(set(choices)) == len(choices)
    assert set(choices) <= ids, (decision.kind, choices)


def random_answer(decision: Decision, rng: random.Random) -> tuple[str, ...]:
    k = rng.randint(decision.min_choices, decision.max_choices)
    return tuple(o.id for o in rng.sample(list(decision.options), k))


def play(num_players: int, seed: int, good: set[int], until=None) -> CoffeeState:
    """A game, `good` seats played by the strategy and the others at random, to its end or
    until `until(state, decision)` holds for the pending decision."""
    state = engine.new(num_players, seed)
    rng = random.Random(seed)
    while pending := engine.decisions(state):
        d = pending[0]
        if until is not None and until(state, d):
            return state
        if d.seat in good:
            choices = strategy.choose(state, d, rng)
            assert_legal(d, choices)
        else:
            choices = random_answer(d, rng)
        state = engine.apply(state, Action(d.seat, choices))
    return state


@pytest.mark.parametrize(("num_players", "good"), [(2, {0, 1}), (3, {2}), (4, {1})])
def test_legal_answers_through_a_whole_game(num_players: int, good: set[int]) -> None:
    state = play(num_players, seed=21, good=good)
    result = engine.result(state)
    assert result is not None and len(result.scores) == num_players


def test_the_same_generator_gives_the_same_game() -> None:
    def first_refresh(state: CoffeeState, decision: Decision) -> bool:
        return state.period == 2

    first = engine.dump(play(3, seed=8, good={0, 1, 2}, until=first_refresh))
    assert engine.dump(play(3, seed=8, good={0, 1, 2}, until=first_refresh)) == first


def at_last_sell(seat: int):
    def condition(state: CoffeeState, decision: Decision) -> bool:
        return state.period == 3 and decision.kind == "sell" and decision.seat == seat

    return condition


def test_fulfils_a_contract_rather_than_dropping_out_in_the_last_sell_phase() -> None:
    state = play(3, seed=4, good=set(), until=at_last_sell(0))
    player = state.players[0]
    letter = sorted(player.contracts)[0]
    for coffee in player.coffee:
        player.coffee[coffee] = 0
    for coffee, n in contract_wants(state, 0, letter).items():
        player.coffee[coffee] += n
    (decision,) = engine.decisions(state)
    assert decision.option(f"contract.{letter}") is not None
    # After the last Sell phase coffee is worth nothing (EN "End of Game").
    assert strategy.choose(state, decision, random.Random(1)) != ("drop",)


def test_trades_away_the_coffee_its_contracts_do_not_need() -> None:
    state = play(3, seed=4, good=set(), until=at_last_sell(0))
    player = state.players[0]
    letter = sorted(player.contracts)[0]
    player.contracts = {letter: player.contracts[letter]}
    wants = contract_wants(state, 0, letter)
    # The needed kind comes first in the options, the spare kind after it.
    needed = next(c for c in COFFEES if c in wants)
    spare = next(c for c in COFFEES[COFFEES.index(needed) + 1 :] if c not in wants)
    for coffee in player.coffee:
        player.coffee[coffee] = 0
    player.coffee[needed] = player.ratio
    player.coffee[spare] = player.ratio
    player.coffee[KOPI] = 1
    target = next(c for c in COFFEES if c not in (needed, spare))
    # Trading 4 (or 3, 2) coffee for 1: the spare kind goes, the kind the contract needs stays.
    state = engine.apply(state, Action(0, (f"convert.{target}",)))
    (decision,) = engine.decisions(state)
    assert decision.kind == "convert"
    choice = strategy.choose(state, decision, random.Random(1))
    assert_legal(decision, choice)
    assert all(unit.startswith(spare) for unit in choice)


def test_puts_warehouses_on_the_coffee_it_holds_most_of() -> None:
    def at_storage(state: CoffeeState, decision: Decision) -> bool:
        return decision.kind == "storage"

    state = play(3, seed=4, good=set(), until=at_storage)
    (decision, *_) = engine.decisions(state)
    player = state.players[decision.seat]
    player.coffee.update(dict.fromkeys(player.coffee, 2))
    most = COFFEES[-1]
    player.coffee[most] = 9
    (decision, *_) = (d for d in engine.decisions(state) if d.seat == decision.seat)
    choice = strategy.choose(state, decision, random.Random(1))
    assert_legal(decision, choice)
    assert most in choice
