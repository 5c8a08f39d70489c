"""Undo, Board Game Arena's way: a seat takes back its own latest decisions, never across a
random draw or anything revealed, and never once another seat has acted since (other seats'
answers to decisions that were open at the same time as the one taken back do not count).

An undo is an entry appended to the action log, never a deletion: `(UNDO, "<seq>")` from the
seat whose move number `seq` it takes back. `UNDO` starts with `!`, outside the option-id
grammar (`OPTION_ID`), so no game's move can be mistaken for one. The state after any log is
the setup followed by the moves still standing, in order (`standing`), which is what
`replay` arrives at one entry at a time.

Which moves draw or reveal is the engine's to say: `engine.reveals(before, action, after)`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from meeple_hall.games.core.contract import Action, Engine, GameError, IllegalAction
from meeple_hall.games.core.engine import Views
from meeple_hall.games.core.hidden import hidden_parts

UNDO = "!undo"


class Entry(Protocol):
    """One line of an action log (the store's `LoggedAction` is one). An entry may also say
    it is `chained`: made in one submission with the entry before it."""

    @property
    def seq(self) -> int: ...

    @property
    def seat(self) -> int: ...

    @property
    def choices(self) -> tuple[str, ...]: ...


def undo_choices(seq: int) -> tuple[str, ...]:
    """The log choices of an undo taking back move number `seq`."""
    return (UNDO, str(seq))


def undone_seq(choices: Sequence[str]) -> int | None:
    """The move an undo entry takes back, or None for an ordinary move."""
    if len(choices) == 2 and choices[0] == UNDO and choices[1].isdigit():
        return int(choices[1])
    return None


def undone(entries: Iterable[Entry]) -> set[int]:
    """The numbers of the moves taken back in this log."""
    return {seq for e in entries if (seq := undone_seq(e.choices)) is not None}


E = TypeVar("E", bound=Entry)


def standing(entries: Sequence[E]) -> list[E]:
    """The moves that still count: neither taken back nor undo entries themselves."""
    gone = undone(entries)
    return [e for e in entries if undone_seq(e.choices) is None and e.seq not in gone]


class NoUndo(Exception):
    """Why a seat cannot undo now: `nothing` (no move of its own to take back), `reveal` (a
    draw or a reveal since), `other_acted` (another seat has acted since), or `too_far`
    (more than HELD_MOST moves back)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Step:
    """A move still standing: its log number, the action, whether it drew or revealed
    (None: not asked yet, and it neither drew nor turned anything over), and whether it
    was made in one submission with the move before it (`chained`: a panel's folded line,
    taken back with it by one undo)."""

    seq: int
    action: Action
    reveals: bool | None
    chained: bool = False


@dataclass(frozen=True, eq=False)
class UndoPlan:
    """What an undo by `seat` would do: take back move `target`, leaving `state`.
    `chained`: the move was made in one submission with the seat's move before it."""

    seat: int
    target: int
    state: Any
    history: History
    chained: bool = False


# The most states kept for undo in one game: a move further back is not taken back (in
# practice other seats have moved since long before that, unless nothing is ever drawn).
HELD_MOST = 50


@dataclass(frozen=True, eq=False)
class History:
    """The moves standing in a game, with the states an undo may return to.

    `befores` keeps the state before each move made since the last draw or reveal (no undo
    reaches further back). `complete` is False when the history starts at a snapshot rather
    than at the setup: a seat with no move in it may have one before the snapshot.
    """

    steps: tuple[Step, ...] = ()
    befores: dict[int, Any] = field(default_factory=dict)
    complete: bool = True
    # the state after the last step with its hidden parts, so each move's draw test reads
    # them once
    hidden: tuple[Any, list[Any]] | None = None
    # `engine.reveals` of the steps it was asked about (by log number; shared by the
    # histories that follow, as a move's answer never changes), so it is asked once a move
    asked: dict[int, bool] = field(default_factory=dict)

    def moved(
        self,
        engine: Engine,
        seq: int,
        action: Action,
        before: Any,
        after: Any,
        *,
        ask: bool = True,
        views: Views | None = None,
        chained: bool = False,
    ) -> History:
        """The history once `action`, log entry `seq`, took `before` to `after`. With `ask`
        false (the bot's moves, replaying a log) only draws and turn-overs (a generator or a
        marked field changed) are looked for now; the rest of `engine.reveals` waits until
        an undo needs it. `views`: see `Engine.reveals`. `chained`: made in one submission
        with the move before it."""
        known = self.hidden
        hidden_before = known[1] if known and known[0] is before else hidden_parts(before)
        hidden_after = hidden_parts(after)
        if hidden_before != hidden_after:
            reveals: bool | None = True
        else:
            reveals = engine.reveals(before, action, after, views=views) if ask else None
        befores = {} if reveals else {**self.befores, seq: before}
        if len(befores) > HELD_MOST:
            del befores[next(iter(befores))]
        return dataclasses.replace(
            self,
            steps=(*self.steps, Step(seq, action, reveals, chained)),
            befores=befores,
            hidden=(after, hidden_after),
        )

    def last_own(self, seat: int) -> int | None:
        """Where the seat's latest standing move is in `steps`."""
        return next(
            (i for i in range(len(self.steps) - 1, -1, -1) if self.steps[i].action.seat == seat),
            None,
        )

    def plan_undo(
        self, engine: Engine, state: Any, seat: int, *, views: Views | None = None
    ) -> UndoPlan:
        """Take back the seat's latest standing move in `state` (the state after the last
        step), or say why not (NoUndo). `views`: see `Engine.reveals`."""
        index = self.last_own(seat)
        if index is None:
            raise NoUndo("nothing")
        target, later = self.steps[index], self.steps[index + 1 :]
        before = self.befores.get(target.seq)
        if before is None and not any(step.reveals for step in self.steps[index:]):
            raise NoUndo("too_far")
        if before is None or any(
            self._reveals(engine, i, state, views) for i in range(index, len(self.steps))
        ):
            raise NoUndo("reveal")
        # Only answers to decisions that were already open beside the one taken back, and
        # still the same when given, may stand (simultaneous decisions).
        open_then = {d.seat: d for d in engine.decisions(before)}
        history = dataclasses.replace(
            self,
            steps=self.steps[:index],
            befores={s: b for s, b in self.befores.items() if s < target.seq},
        )
        state = before
        for step in later:
            mine = next((d for d in engine.decisions(state) if d.seat == step.action.seat), None)
            if mine is None or open_then.get(step.action.seat) != mine:
                raise NoUndo("other_acted")
            try:
                after = engine.apply(state, step.action)
            except IllegalAction:
                raise NoUndo("other_acted") from None
            history = history.moved(
                engine, step.seq, step.action, state, after, views=views, chained=step.chained
            )
            if history.steps[-1].reveals:
                raise NoUndo("reveal")
            state = after
        return UndoPlan(seat, target.seq, state, history, target.chained)

    def _reveals(self, engine: Engine, index: int, state: Any, views: Views | None) -> bool:
        """Whether the step at `index` revealed anything, asking the engine if not known."""
        step = self.steps[index]
        if step.reveals is not None:
            return step.reveals
        if step.seq not in self.asked:
            following = self.steps[index + 1].seq if index + 1 < len(self.steps) else None
            after = state if following is None else self.befores[following]
            self.asked[step.seq] = engine.reveals(
                self.befores[step.seq], step.action, after, views=views
            )
        return self.asked[step.seq]


def with_chain(engine: Engine, plan: UndoPlan, *, views: Views | None = None) -> list[UndoPlan]:
    """`plan`, and after it the undos taking back the rest of the moves made in one
    submission with the move it takes back (a panel's folded line: one click, one undo),
    latest first, as far as undo allows: a chain never crosses a draw, but one of its moves
    may have shown a secret, and that move and the ones before it then stand. Each plan
    starts from the one before it; the last gives the state and history after them all."""
    plans = [plan]
    while plans[-1].chained:
        last = plans[-1]
        try:
            more = last.history.plan_undo(engine, last.state, last.seat, views=views)
        except NoUndo:
            break
        if more.target != last.target - 1:
            break
        plans.append(more)
    return plans


def replay_entry(engine: Engine, state: Any, history: History, entry: Entry) -> tuple[Any, History]:
    """One log entry replayed: an ordinary move is applied; an undo entry takes back the
    move it names, which must be what an undo by that seat would take back now."""
    target = undone_seq(entry.choices)
    if target is None:
        action = Action(entry.seat, tuple(entry.choices))
        after = engine.apply(state, action)
        chained = bool(getattr(entry, "chained", False))
        return after, history.moved(
            engine, entry.seq, action, state, after, ask=False, chained=chained
        )
    try:
        plan = history.plan_undo(engine, state, entry.seat)
    except NoUndo as exc:
        raise GameError(f"log entry {entry.seq}: an undo that was not allowed ({exc})") from exc
    if plan.target != target:
        raise GameError(f"log entry {entry.seq} takes back {target}, not {plan.target}")
    return plan.state, plan.history


def replay(
    engine: Engine,
    entries: Iterable[Entry],
    state: Any,
    history: History | None = None,
) -> tuple[Any, History]:
    """Replay log entries (undo entries included) from `state`, the state before them
    (the setup, or a snapshot: then pass `History(complete=False)`)."""
    history = History() if history is None else history
    for entry in entries:
        state, history = replay_entry(engine, state, history, entry)
    return state, history


def rebuild(
    engine: Engine,
    num_players: int,
    seed: int,
    options: dict[str, str] | None,
    entries: Iterable[Entry],
) -> Any:
    """The state after a whole log, from the game's setup: what an export promises."""
    state = engine.new(num_players, seed, options)
    return replay(engine, entries, state)[0]


def snapshot_holds(snapshot_seq: int, entries_after: Iterable[Entry]) -> bool:
    """Whether a snapshot taken after entry `snapshot_seq` is still the game's past: no later
    undo takes back a move at or before it."""
    return all(
        (target := undone_seq(e.choices)) is None or target > snapshot_seq for e in entries_after
    )
