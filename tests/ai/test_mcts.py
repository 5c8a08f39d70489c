"""The strong level's search, on Pebbles (tests/testgame.py), a game small enough to reason
about: who wins is plain, and the secrets are the other hands and the deck."""

from __future__ import annotations

import math
import random

from meeple_hall.games.ai import mcts
from meeple_hall.games.ai.levels import random_policy
from meeple_hall.games.core import Action, Decision, Option
from tests.testgame import PebblesEngine, PebblesState, pebble_value

engine = PebblesEngine()


def points(state: PebblesState) -> list[float]:
    return [
        float(sum(pebble_value(x) for x in p.pebbles) + sum(p.kept) + p.coins)
        for p in state.players
    ]


def last_pick(pool: list[str], coins: tuple[int, int]) -> PebblesState:
    """Round 3, seat 1 (index 0) picks first, then seat 2; both hold cards 1, 2 and 3 and
    the deck is empty, so each will keep 2 + 3."""
    state = engine.new(2, seed=3)
    state.round, state.step, state.order = 3, "pick", [0, 1]
    state.pool = list(pool)
    state.deck = []
    for player, n in zip(state.players, coins, strict=True):
        player.coins, player.pebbles, player.kept, player.hand = n, [], [], [1, 2, 3]
    return state


def search(state: PebblesState, seat: int, iterations: int, seed: int = 1, **kw) -> tuple:
    return mcts.search(
        engine,
        state,
        seat,
        think=60,
        rng=random.Random(seed),
        policy=random_policy,
        evaluate=points,
        iterations=iterations,
        **kw,
    )


def test_strong_takes_the_only_pebble_that_wins() -> None:
    # With red-10 seat 1 ends on 10 + 5 = 15 against at most 8 + 1 + 5 = 14; with any other
    # pebble it gets 6 and seat 2 takes red-10.
    state = last_pick(["blue-1", "green-1", "red-10", "red-1"], coins=(0, 8))
    assert search(state, 0, iterations=200) == ("red-10",)


def test_a_multi_select_gets_a_legal_answer() -> None:
    state = last_pick(["blue-1", "red-10"], coins=(0, 0))
    state = engine.apply(state, Action(0, ("red-10",)))
    state = engine.apply(state, Action(1, ("blue-1",)))
    state.players[0].hand = [5, 1, 7]
    keep = engine.decisions(state)[0]
    answer = search(state, 0, iterations=150)
    assert 1 <= len(answer) <= 2 and set(answer) <= {o.id for o in keep.options}
    assert set(answer) == {"c5", "c7"}  # keeping the two best cards is plainly best


def test_the_search_cannot_see_the_other_hand() -> None:
    """Two states that differ only in what seat 2 holds and the deck hides give the same
    search, visit for visit: it works on determinizations alone."""
    a = engine.new(2, seed=8)
    b = engine.new(2, seed=8)
    b.players[1].hand, b.deck[:3] = b.deck[:3], b.players[1].hand
    assert a.players[1].hand != b.players[1].hand
    stats_a, stats_b = mcts.Stats(), mcts.Stats()
    # A fixed horizon: one sized from the measured step time could differ between the runs.
    assert search(a, 0, 60, stats=stats_a, horizon=1000) == search(
        b, 0, 60, stats=stats_b, horizon=1000
    )
    assert stats_a == stats_b
    assert 0 < stats_a.iterations <= 60 + stats_a.candidates


def test_a_forced_answer_is_given_without_searching() -> None:
    decision = Decision(0, "only", "Take it", (Option("x", "X"),))
    assert mcts.only_answer(decision) == ("x",)
    assert (
        mcts.only_answer(Decision(0, "two", "One of", (Option("x", "X"), Option("y", "Y")))) is None
    )


def test_rewards_share_a_tied_first_place_and_prefer_a_larger_lead() -> None:
    tied = mcts.rewards([10.0, 10.0, 4.0], (1, 1, 3), scale=10, ref=0)
    assert tied[0] == tied[1] > tied[2]
    narrow = mcts.rewards([11.0, 10.0], (1, 2), scale=10, ref=0)
    wide = mcts.rewards([30.0, 10.0], (1, 2), scale=10, ref=0)
    assert wide[0] > narrow[0] > narrow[1] > wide[1]
    assert all(0 <= r <= 1 for r in [*tied, *narrow, *wide])
    assert (
        mcts.rewards([40.0], (1,), scale=10, ref=30)[0]
        > 0.5
        > mcts.rewards([20.0], (1,), scale=10, ref=30)[0]
    )


def test_the_search_stops_on_the_clock() -> None:
    state = engine.new(3, seed=2)
    stats = mcts.Stats()
    answer = mcts.search(
        engine, state, 0, 0.2, random.Random(1), random_policy, points, stats=stats
    )
    assert answer in [(o.id,) for o in engine.decisions(state)[0].options]
    assert stats.iterations >= 1  # it played out what the clock allowed, then answered


def test_the_good_answer_stands_unless_another_beats_it_clearly() -> None:
    run = mcts.Search(
        engine, engine.new(2, seed=1), 0, random.Random(1), random_policy, points, 10.0, None
    )
    run.good_turn = (("a",), ("a2",))
    good = mcts.Candidate((), [0.50, 0.60, 0.40, 0.55, 0.45])
    noisy = mcts.Candidate((("b",),), [0.55, 0.52, 0.47, 0.50, 0.49])  # +0.006 on average
    run.candidates = [good, noisy]
    assert run.best() == (("a",), ("a2",))  # the good player's whole turn
    better = mcts.Candidate((("c",),), [0.56, 0.65, 0.47, 0.60, 0.52])  # +0.06, every round
    run.candidates = [good, noisy, better]
    assert run.best() == (("c",),)
    too_few = mcts.Candidate((("d",),), [0.9, 0.9, 0.9])  # three rounds are not enough
    run.candidates = [good, too_few]
    assert run.best() == (("a",), ("a2",))
    four = mcts.Candidate((), good.values[:4])
    steady = mcts.Candidate((("f",),), [0.52, 0.62, 0.42, 0.57])  # +0.02 in each of 4 rounds
    run.candidates = [four, steady]
    assert run.best() == (("a",), ("a2",))  # no spread seen, but 4 rounds do not make it sure
    clear = mcts.Candidate((("e",),), [0.60, 0.70, 0.50, 0.65])  # +0.1 in each of 4 rounds
    run.candidates = [four, steady, clear]
    assert run.best() == (("e",),)


def test_paired_margins_compare_the_rounds_both_played() -> None:
    a = mcts.Candidate(("a",), [0.5, 0.7, 0.6])
    b = mcts.Candidate(("b",), [0.4, 0.6, 0.5, 0.9])
    mean, se, n = mcts.paired(a, b)
    assert n == 3 and abs(mean - 0.1) < 1e-9
    assert abs(se - mcts.SD_FLOOR / 3**0.5) < 1e-9  # equal margins: the least spread assumed


def test_every_candidate_of_a_round_plays_the_same_determinization() -> None:
    """Common random numbers: one determinization per round, whatever the candidates."""
    seen: list[int] = []

    class Counting(PebblesEngine):
        def determinize(self, state, seat, seed):
            seen.append(seed)
            return super().determinize(state, seat, seed)

    state = last_pick(["blue-1", "green-1", "red-10", "red-1"], coins=(0, 8))
    stats = mcts.Stats()
    mcts.search(
        Counting(),
        state,
        0,
        60,
        random.Random(4),
        random_policy,
        points,
        iterations=40,
        stats=stats,
    )
    assert stats.rounds >= mcts.MIN_ROUNDS
    assert len(seen) == 1 + stats.rounds  # the first one picks the candidates
    assert stats.iterations <= stats.rounds * stats.candidates


def test_the_search_stops_early_once_one_answer_is_left() -> None:
    state = last_pick(["blue-1", "green-1", "red-10", "red-1"], coins=(0, 8))
    stats = mcts.Stats()
    assert search(state, 0, iterations=500, stats=stats) == ("red-10",)
    assert stats.candidates == mcts.CANDIDATES
    assert stats.iterations < 500  # the other pebbles were dropped, not played out to the end


def test_a_playout_stops_where_the_phase_ends() -> None:
    """With the game's phases marked (here Pebbles' rounds), a playout ends at the first
    turn boundary after the phase changed, not at the horizon."""
    state = engine.new(2, seed=5)
    seen: list[PebblesState] = []

    def recording(s: PebblesState) -> list[float]:
        seen.append(s)
        return points(s)

    run = mcts.Search(
        engine,
        state,
        0,
        random.Random(1),
        random_policy,
        recording,
        10.0,
        None,
        phase=lambda s: s.round,
    )
    det = engine.determinize(state, 0, 7)
    run.playout(det, (), horizon=1000, seed=3, deadline=None)
    assert seen[-1].round == state.round + 1 and engine.result(seen[-1]) is None
    run.phase = None
    run.playout(det, (), horizon=1000, seed=3, deadline=None)
    assert len(seen) == 1  # played to the end: valued by the result, not the evaluation


def test_at_three_players_every_rival_counts_not_only_the_leader() -> None:
    """The target at 3 and 4 players is the average rank: a point taken from the trailing
    rival is worth something, and second place is worth more than third."""
    assert mcts.margin_reward([10.0, 20.0, 0.0], 0, 10, 0) > mcts.margin_reward(
        [10.0, 20.0, 9.0], 0, 10, 0
    )
    second, first, third = mcts.rewards([15.0, 20.0, 5.0], (2, 1, 3), scale=10, ref=0)
    assert first > second > third
    # At two players it is the margin to the one rival, as before.
    assert mcts.margin_reward([12.0, 10.0], 0, 10, 0) == 0.5 + 0.5 * math.tanh(0.2)


def first_option(state: PebblesState, decision: Decision, rng: random.Random) -> tuple[str, ...]:
    """A weak good player: always the first pebble offered."""
    return (decision.options[0].id,)


def test_a_game_whose_ratings_are_sound_starts_from_the_plan_rated_best() -> None:
    """With `rated_prior` (the game marks its evaluation sound where a turn ends) the answer,
    before any playout, is the plan rated best there; without it, the good player's turn."""
    state = last_pick(["blue-1", "green-1", "red-10", "red-1"], coins=(0, 8))

    def answer(rated_prior: bool) -> tuple[str, ...]:
        plan = mcts.search_turn(
            engine,
            state,
            0,
            think=60,
            rng=random.Random(1),
            policy=first_option,
            evaluate=points,
            iterations=0,
            rated_prior=rated_prior,
        )
        return plan[0]

    assert answer(rated_prior=False) == ("blue-1",)
    assert answer(rated_prior=True) == ("red-10",)
