"""The conformance checks every game's tests run (the OpenSpiel-style random playout).

`check_conformance(engine, num_players, seed)` plays one game with random legal choices
and checks, along the way, everything the engine contract promises:

- every pending decision is well formed (option ids of the one grammar), and the game
  reaches an end with a result;
- every offered choice is legal (sampled steps try each option, or random subsets);
- refused actions raise `IllegalAction` with a readable message and change nothing;
- `dump`/`load` round-trips exactly, and a save is the game (`check_save`): a loaded state
  gives the same decisions (options in the same order), views (dict order included) and,
  after the same move, the same state and events; so does one loaded from a dump written
  before dumps kept dict order (sorted keys);
- `apply(state, action, decision=)` refuses a decision that is not the state's own (one
  forged, one from an earlier state) and takes an equal one (a loaded state's);
- views for every seat and for spectators are JSON-safe, carry `num_players`, and show
  neither the generator's state nor a face-down stack (fields marked HIDDEN) in its order;
- each seat's breakdown adds up to its score; ranks follow the scores' order;
- replaying the action log from the same seed gives the same bytes;
- a converted game's words (games/text_checks.py): prompts, labels, options, log events and
  score categories are messages that render in every language, labels fit and differ;
- `determinize(state, seat, seed)` leaves `state` alone, shows `seat` the same view and the
  same decisions, round-trips, and draws secrets again: over the game, two seeds give
  different face-down stacks (when a stack ever holds two different things), and seeds give
  different private views for every other seat whose private view takes several values
  before the end (so held a secret at several points); random playouts from determinized
  states reach an end;
- undo (games/undo_checks.py): the engine's `reveals` catches every draw, turn-over and
  secret shown; an undo restores the exact earlier state, and is never offered across a
  draw or reveal nor after another seat's move (other than a simultaneous answer).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from meeple_hall.games.core import serial
from meeple_hall.games.core.contract import (
    OPTION_ID,
    Action,
    Decision,
    Engine,
    IllegalAction,
    Option,
    Result,
    is_option_id,
)
from meeple_hall.games.core.hidden import face_down, secrets
from meeple_hall.games.text_checks import check_game_texts, check_result_texts, check_texts
from meeple_hall.games.undo_checks import check_undo

Chooser = Callable[[Decision, random.Random], tuple[str, ...]]


def random_choices(decision: Decision, rng: random.Random) -> tuple[str, ...]:
    """A uniformly sized random legal answer to a decision."""
    k = rng.randint(decision.min_choices, decision.max_choices)
    return tuple(o.id for o in rng.sample(list(decision.options), k))


def random_turn_tokens(
    engine: Engine, state: Any, seat: int, rng: random.Random, most: int
) -> list[str]:
    """`/move` tokens for the seat's next decisions (random legal answers, worked out on a
    copy of the state) until another seat is asked, or `most` tokens."""
    tokens: list[str] = []
    while len(tokens) < most and (pending := engine.decisions(state)):
        if pending[0].seat != seat:
            break
        picked = random_choices(pending[0], rng)
        tokens.append(",".join(picked) or "none")
        state = engine.apply(state, Action(seat, picked))
    return tokens


@dataclass
class Playout:
    state: Any
    actions: list[Action]
    result: Result


def check_decisions(engine: Engine, state: Any, num_players: int) -> list[Decision]:
    pending = engine.decisions(state)
    seats = [d.seat for d in pending]
    assert len(seats) == len(set(seats)), f"two decisions for one seat: {seats}"
    for d in pending:
        assert 0 <= d.seat < num_players, f"decision for seat {d.seat}"
        assert d.kind and d.prompt, f"decision without kind or prompt: {d}"
        ids = [o.id for o in d.options]
        assert ids, f"decision {d.kind} offers nothing"
        # Typed moves match ids whatever their case, so ids differ by more than case.
        assert len({i.lower() for i in ids}) == len(ids), f"{d.kind} repeats option ids: {ids}"
        for option_id in ids:
            assert is_option_id(option_id), (
                f"{d.kind} offers {option_id!r}, outside the option-id grammar {OPTION_ID.pattern}"
            )
        assert 0 <= d.min_choices <= d.max_choices <= len(ids), (
            f"{d.kind}: choices {d.min_choices}..{d.max_choices} of {len(ids)}"
        )
    return pending


def check_steps(engine: Engine, pending: list[Decision]) -> None:
    """A game that declares its steps (`engine.steps`, games/core/steps.py) asks only
    through them: every pending decision is of a declared step kind."""
    steps = getattr(engine, "steps", None)
    if steps is None:
        return
    for decision in pending:
        assert decision.kind in steps.kinds, f"decision kind {decision.kind!r} is not a step"


def check_views(engine: Engine, state: Any, num_players: int) -> None:
    secrets = _telltale_secrets(state)
    for seat in [None, *range(num_players)]:
        view = engine.view(state, seat)
        text = json.dumps(view, allow_nan=False)
        assert json.loads(text) == view, f"view for seat {seat} is not plain JSON"
        assert view.get("num_players") == num_players
        compact = json.dumps(view, separators=(",", ":"))
        for secret in secrets:
            assert secret not in compact, f"view for seat {seat} shows hidden {secret}"


def _telltale_secrets(state: Any) -> list[str]:
    """Secrets no view could show by coincidence: the generators' states, and face-down
    stacks of four or more ids, whole and in their order."""
    found = []
    for secret in secrets(state):
        if isinstance(secret, int):
            found.append(str(secret))
            continue
        stacks = secret.values() if isinstance(secret, dict) else [secret]
        for stack in stacks:
            ids = isinstance(stack, list) and len(stack) >= 4
            if ids and all(isinstance(x, str | int) and not isinstance(x, bool) for x in stack):
                found.append(json.dumps(stack, separators=(",", ":")))
    return found


def check_round_trip(engine: Engine, state: Any) -> None:
    text = engine.dump(state)
    assert engine.dump(engine.load(text)) == text, "dump/load is not an exact round trip"


@dataclass(frozen=True)
class Shown:
    """What a state decides and shows: its decisions, every view as JSON keeping its dicts'
    order (the spectators' first), and its result as JSON keeping its breakdowns' order."""

    decisions: list[Decision]
    views: list[str]
    result: str


def shown(engine: Engine, state: Any, num_players: int) -> Shown:
    views = [json.dumps(engine.view(state, seat)) for seat in [None, *range(num_players)]]
    result = engine.result(state)
    scores = "" if result is None else json.dumps([result.scores, result.ranks, result.breakdown])
    return Shown(engine.decisions(state), views, scores)


def check_shows_the_same(
    engine: Engine, expected: Shown, state: Any, num_players: int, what: str
) -> None:
    """`state` decides and shows what `expected` says, in the same order."""
    got = shown(engine, state, num_players)
    assert got.decisions == expected.decisions, (
        f"{what}: the decisions differ: "
        f"{_options(expected.decisions)} became {_options(got.decisions)}"
    )
    for seat, (mine, theirs) in enumerate(zip(expected.views, got.views, strict=True)):
        assert mine == theirs, (
            f"{what}: the view for seat {seat - 1 if seat else None} differs: "
            f"{_difference(json.loads(mine), json.loads(theirs))}"
        )
    assert got.result == expected.result, f"{what}: the result differs"


def check_save(
    engine: Engine,
    state: Any,
    num_players: int,
    move: tuple[Action, Any] | None,
    *,
    sorted_too: bool = True,
) -> None:
    """A save is the game: `load(dump(state))` gives the same decisions, options in the same
    order (so the same decision hashes, bot/live.py), the same views for every seat and for
    spectators, dict order included, and the same result; `move` (an action and the state it
    led to) leads it to the same state and events; a decision of the loaded state is taken
    for `state`'s own (a panel worked out before a restart). A state loaded from the dump of
    `state` written as dumps were before they kept dict order (sorted keys) decides, shows
    and moves on the same too (unless not `sorted_too`)."""
    live = shown(engine, state, num_players)
    loaded_own: Decision | None = None
    writers = [("dump", engine.dump), ("sorted-key dump", serial.canonical)]
    for label, write in writers if sorted_too else writers[:1]:
        loaded = engine.load(write(state))
        check_shows_the_same(engine, live, loaded, num_players, f"after load({label})")
        if move is None:
            continue
        action, after = move
        assert write(engine.apply(loaded, action)) == write(after), (
            f"after load({label}), {action} leads to another state or other events"
        )
        if loaded_own is None:
            loaded_own = next(d for d in engine.decisions(loaded) if d.seat == action.seat)
    if move is not None and loaded_own is not None:
        taken = engine.apply(state, action, decision=loaded_own)
        assert engine.dump(taken) == engine.dump(after), (
            "the loaded state's decision, given for the live state, led elsewhere"
        )


# `check_saves` tries refused actions (each followed by a dump) and loads a sorted-key dump
# (as dumps were written before they kept dict order) at every few states only.
REFUSALS_EVERY = 4
SORTED_EVERY = 5


def check_saves(engine: Engine, num_players: int, seed: int, max_steps: int = 5_000) -> int:
    """Play one random game, checking at every state that a save is the game (`check_save`;
    a sorted-key dump every SORTED_EVERY-th state and at the end) and, every REFUSALS_EVERY-th
    state, that decisions not the state's own are refused; return the states checked."""
    rng = random.Random(seed)
    state = engine.new(num_players=num_players, seed=seed)
    earlier: list[Decision] = []
    for step in range(max_steps):
        pending = engine.decisions(state)
        if not pending:
            check_save(engine, state, num_players, None)
            return step + 1
        if step % REFUSALS_EVERY == 0:
            check_refusals(engine, state, pending, num_players, earlier)
        decision = rng.choice(pending)
        action = Action(decision.seat, random_choices(decision, rng))
        after = engine.apply(state, action, decision=decision)
        check_save(engine, state, num_players, (action, after), sorted_too=step % SORTED_EVERY == 0)
        state, earlier = after, pending
    raise AssertionError(f"no end after {max_steps} steps")


def _difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON values first differ, dict order included."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return f"{path or '.'}: keys {list(a)} became {list(b)}"
        pairs = [(a[k], b[k], f"{path}.{k}") for k in a]
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        pairs = [(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b, strict=True))]
    else:
        return f"{path}: {a!r} became {b!r}"
    return next((_difference(x, y, at) for x, y, at in pairs if json.dumps(x) != json.dumps(y)), "")


def _options(pending: list[Decision]) -> list[tuple[int, str, list[str]]]:
    return [(d.seat, d.kind, [o.id for o in d.options]) for d in pending]


def check_refusals(
    engine: Engine,
    state: Any,
    pending: list[Decision],
    num_players: int,
    earlier: Sequence[Decision] = (),
) -> None:
    """Actions the rules do not allow are refused with a message and change nothing: an
    option not offered, a seat not asked, and a decision that is not the state's own (one
    with an option the state does not offer, and any of `earlier`, decisions of an earlier
    state, that differs from the seat's decision now)."""
    before = engine.dump(state)
    idle = [s for s in range(num_players) if s not in {d.seat for d in pending}]
    attempts: list[tuple[Action, Decision | None]] = [
        (Action(pending[0].seat, ("no-such-option",) * max(1, pending[0].min_choices)), None)
    ]
    if idle:
        decision = pending[0]
        attempts.append((Action(idle[0], random_choices(decision, random.Random(0))), None))
    forged = replace(
        pending[0],
        options=(*pending[0].options, Option("not-offered", "not offered")),
        min_choices=1,
        max_choices=1,
    )
    attempts.append((Action(forged.seat, ("not-offered",)), forged))
    own = {d.seat: d for d in pending}
    for stale in earlier:
        if stale.seat in own and stale != own[stale.seat]:
            choices = random_choices(stale, random.Random(1))
            attempts.append((Action(stale.seat, choices), stale))
    for action, given in attempts:
        try:
            engine.apply(state, action, decision=given)
        except IllegalAction as exc:
            assert str(exc).strip(), "IllegalAction without a message"
        else:
            raise AssertionError(f"{action} was accepted (decision given: {given})")
        assert engine.dump(state) == before, "a refused action changed the state"


def check_offered_choices_are_legal(
    engine: Engine, state: Any, decision: Decision, rng: random.Random, limit: int
) -> None:
    candidates: list[tuple[str, ...]]
    if decision.min_choices <= 1 <= decision.max_choices:
        candidates = [(o.id,) for o in decision.options[:limit]]
    else:
        candidates = [random_choices(decision, rng) for _ in range(min(limit, 5))]
    if decision.min_choices == 0:
        candidates.append(())
    for choices in candidates:
        try:
            engine.apply(state, Action(decision.seat, choices), decision=decision)
        except IllegalAction as exc:
            raise AssertionError(
                f"offered choice {choices} of {decision.kind} refused: {exc}"
            ) from exc


# A seat's secrets must be seen drawn again once its private view has shown this many
# different values before the end (it then held something hidden at two points or more).
# Points where it holds nothing hidden (a Village player before serving a customer) do
# not count: nothing there could be drawn again.
MIN_SECRET_STATES = 3
# Determinizations compared at one point while a seat's secrets have not yet been seen
# drawn again: with few possible draws, two seeds often deal the same.
SEEDS_PER_POINT = 4


@dataclass
class SecretsSeen:
    """What the determinize checks saw over one game (see `check_determinize`)."""

    stacks_can_vary: bool = False
    stacks_varied: bool = False
    private_views: dict[int, set[str]] = field(default_factory=dict)
    private_varied: set[int] = field(default_factory=set)
    checks: int = 0

    def check_end(self) -> None:
        if self.stacks_can_vary:
            assert self.stacks_varied, "determinize never drew a face-down stack again"
        for seat, seen in sorted(self.private_views.items()):
            # A secret can be known by elimination at a few points (late in a game every
            # other good has been seen): ask for a new draw only over enough of them.
            if len(seen) >= MIN_SECRET_STATES:
                assert seat in self.private_varied, (
                    f"determinize never drew seat {seat}'s secrets again for another seat "
                    f"(its private view took {len(seen)} values before the end)"
                )


def private_view(engine: Engine, state: Any, seat: int) -> str:
    """The parts of a seat's view that a spectator's view does not have."""
    public = engine.view(state, None)
    mine = engine.view(state, seat)
    return json.dumps({k: v for k, v in mine.items() if public.get(k) != v}, sort_keys=True)


def _draws_again(
    engine: Engine, state: Any, seat: int, other: int, drawn: tuple[Any, Any], last_seed: int
) -> bool:
    """Whether determinizations for `seat` give `other` different private views: the two
    already drawn, then more seeds (up to SEEDS_PER_POINT in all) while they agree."""
    first = private_view(engine, drawn[0], other)
    if private_view(engine, drawn[1], other) != first:
        return True
    for k in range(1, SEEDS_PER_POINT - 1):
        det = engine.determinize(state, seat, last_seed + k * 1_000_003)
        if private_view(engine, det, other) != first:
            return True
    return False


def _could_vary(stack: Any) -> bool:
    if isinstance(stack, dict):
        return any(_could_vary(s) for s in stack.values())
    if isinstance(stack, list) and stack and all(isinstance(s, list) for s in stack):
        return _could_vary([x for s in stack for x in s])
    if isinstance(stack, list):
        return len({json.dumps(x, sort_keys=True) for x in stack}) > 1
    return False


def check_determinize(
    engine: Engine, state: Any, num_players: int, seen: SecretsSeen, playout: bool = False
) -> None:
    """Determinize `state` with two seeds, for the seats that must decide and one more seat
    in turn (so every seat is checked at many points), and check the contract's promises;
    with `playout`, also play the first determinization to its end at random."""
    seen.checks += 1
    before = engine.dump(state)
    pending = engine.decisions(state)
    checked = sorted({d.seat for d in pending} | {seen.checks % num_players})
    for seat in checked:
        seeds = (seen.checks * 7919 + seat * 2, seen.checks * 7919 + seat * 2 + 1)
        a, b = (engine.determinize(state, seat, seed) for seed in seeds)
        assert engine.dump(state) == before, "determinize changed the state it was given"
        for det in (a, b):
            assert engine.view(det, seat) == engine.view(state, seat), (
                f"determinize for seat {seat} changed what that seat sees"
            )
            mine = [d for d in engine.decisions(det) if d.seat == seat]
            assert mine == [d for d in pending if d.seat == seat], (
                f"determinize for seat {seat} changed that seat's decision"
            )
        check_round_trip(engine, a)
        if face_down(a) != face_down(b):
            seen.stacks_varied = True
        # one other seat in turn: are its secrets drawn again? (views are slow to build)
        other = (seat + 1 + seen.checks % max(1, num_players - 1)) % num_players
        if other != seat and pending and other not in seen.private_varied:
            # (a finished game may show every secret)
            seen.private_views.setdefault(other, set()).add(private_view(engine, state, other))
            if _draws_again(engine, state, seat, other, (a, b), seeds[1]):
                seen.private_varied.add(other)
        if playout and seat == checked[0]:
            play_to_end(engine, a, random.Random(seen.checks))
    if any(_could_vary(stack) for stack in face_down(state)):
        seen.stacks_can_vary = True


def random_game(engine: Engine, num_players: int, seed: int) -> list[Any]:
    """Every state of a game played to its end at random: set up with `seed`, each move one
    of the pending decisions answered at random, both drawn from `random.Random(seed)`."""
    rng = random.Random(seed)
    state = engine.new(num_players, seed)
    states = [state]
    while pending := engine.decisions(state):
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        states.append(state)
    return states


def play_to_end(engine: Engine, state: Any, rng: random.Random, max_steps: int = 5_000) -> Any:
    for _ in range(max_steps):
        pending = engine.decisions(state)
        if not pending:
            assert engine.result(state) is not None, "no decisions left but no result"
            return state
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    raise AssertionError(f"a playout from a determinized state did not end in {max_steps} steps")


def check_result(result: Result | None, num_players: int) -> Result:
    assert result is not None, "no decisions left but no result"
    assert len(result.scores) == len(result.ranks) == len(result.breakdown) == num_players
    assert min(result.ranks) == 1
    for seat in range(num_players):
        parts = result.breakdown[seat]
        assert all(isinstance(v, int) for v in parts.values()), parts
        assert sum(parts.values()) == result.scores[seat], (
            f"seat {seat}: breakdown {parts} does not add up to {result.scores[seat]}"
        )
    for a in range(num_players):
        for b in range(num_players):
            if result.scores[a] > result.scores[b]:
                assert result.ranks[a] < result.ranks[b], "a higher score ranked lower"
    return result


def check_conformance(
    engine: Engine,
    num_players: int,
    seed: int,
    chooser_seed: int | None = None,
    options: dict[str, str] | None = None,
    max_steps: int = 5_000,
    deep_every: int = 7,
    choose: Chooser = random_choices,
    playout_every: int = 16,
    save_every: int | None = None,
) -> Playout:
    """Play one random game, checking the whole contract; return how it went.

    Deep checks (round trip, views, refusals, every offered choice, determinize) run on
    every `deep_every`-th step and on the last; pass 1 to check every step. Every
    `playout_every`-th deep check, from the second on, also plays a determinized copy to
    its end. A save is checked (`check_save`) every `save_every`-th step and on the last
    (every deep step by default; 1 checks every state).
    """
    save_every = save_every or deep_every
    seen = SecretsSeen()
    rng = random.Random(seed if chooser_seed is None else chooser_seed)
    check_game_texts(engine)
    state = engine.new(num_players=num_players, seed=seed, options=options)
    assert engine.result(state) is None or not engine.decisions(state)
    actions: list[Action] = []
    earlier: list[Decision] = []
    for step in range(max_steps):
        pending = check_decisions(engine, state, num_players)
        check_steps(engine, pending)
        deep = step % deep_every == 0
        save = step % save_every == 0
        if deep:
            check_round_trip(engine, state)
            check_views(engine, state, num_players)
            check_texts(engine, state, num_players)
            check_determinize(
                engine, state, num_players, seen, playout=seen.checks % playout_every == 1
            )
        if not pending:
            break
        assert engine.result(state) is None, "a result while decisions are pending"
        decision = rng.choice(pending)
        if deep:
            check_refusals(engine, state, pending, num_players, earlier)
            check_offered_choices_are_legal(engine, state, decision, rng, limit=12)
        action = Action(decision.seat, choose(decision, rng))
        before, state, earlier = state, engine.apply(state, action, decision=decision), pending
        if save:
            check_save(engine, before, num_players, (action, state))
        if deep:
            check_undo(engine, before, action, state, num_players, random.Random(step), choose)
        actions.append(action)
    else:
        raise AssertionError(f"no end after {max_steps} steps")
    check_round_trip(engine, state)
    check_save(engine, state, num_players, None)
    check_views(engine, state, num_players)
    check_determinize(engine, state, num_players, seen)
    seen.check_end()
    result = check_result(engine.result(state), num_players)
    check_texts(engine, state, num_players)
    check_result_texts(engine.id, result)
    replayed = engine.new(num_players=num_players, seed=seed, options=options)
    for action in actions:
        replayed = engine.apply(replayed, action)
    assert engine.dump(replayed) == engine.dump(state), "replay is not byte-identical"
    return Playout(state, actions, result)
