"""Clicks per move through the panels: unfolded, folded before issue 29, after its first,
second, third and fourth rounds, at the end of session 14, and now.

    python bench/clicks.py [--games 2] [--level good|first|random] [--only keyflower,burgundy]
        [--containing transport]

Plays whole games with the AI (`good` by default: moves players make; `first` answers every
decision with its first option, as a player driving each panel by its first line would)
and replays each log through the panel model (`meeple_hall.bot.panel_clicks`): the panels
are built as the bot builds them, and the component interactions a person needs after
**Take turn** are counted for every logged move eight times, in one run: with folding off
(each decision its own panel, as before issue 14), with the decision kinds each game
folded before issue 29 (`FOLDED_BEFORE_29`), after its first, second, third and fourth
rounds (`FOLDED_ROUND_1` to `FOLDED_ROUND_4`; the rounds' panels offer no sets of several
choices and fold Coffee Traders' kinds after the decisions they did then,
`FOLDED_AFTER_ROUND_4`), as at the end of session 14 (the kinds folded now, what they
folded after then: `FOLDED_AFTER_SESSION_14`), and with the games' declarations now
(`FOLDED`, `FOLDED_AFTER`, `folds_line` and `pick_sets` in `bot/presenters/<game>.py`).

A *turn* is a seat's consecutive log entries; a *move* is a turn, or a part of one that
starts again with the turn's first kind of decision (a Castles of Burgundy turn is two die
actions). A move's shape is the decision kinds it answered. Printed per game: clicks per
logged entry, per move and per turn, the share of moves done in at most two clicks, the clicks
past the second summed over the moves (and, with `--containing`, the same for the moves that
answer a decision of those kinds), the most frequent shapes with their clicks each way, the
shapes still over two clicks now, costliest first, and the panels that changed since session
14: per decision kind, their lines and the processor time of working them out
(`panel_lines`, at every logged decision, both ways one after the other), session 14 → now.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from meeple_hall import games
from meeple_hall.bot import presenters
from meeple_hall.bot.panel_clicks import Answer, NoLine, clicks, model_game
from meeple_hall.bot.panels import STEP_BACK, panel_lines
from meeple_hall.games import Action, Decision
from meeple_hall.games.ai import levels

PLAYERS = {"keyflower": 4, "burgundy": 3, "village": 3, "coffee": 3}
# The decision kinds each game's panels folded before issue 29 (commit f55594c).
FOLDED_BEFORE_29 = {
    "keyflower": frozenset({"location", "count", "from", "what", "to", "upgrade", "pay"}),
    "burgundy": frozenset({"take", "place"}),
    "village": frozenset({"harvest"}),
    "coffee": frozenset({"plant_row", "build_site", "piggy_pay"}),
}
# The kinds folded after issue 29's first round (commit c8d1990): Burgundy's die with its
# action and tile, Keyflower's outbid workers with the colour; none of the placing, buying,
# discarding and dying folded since.
FOLDED_ROUND_1 = {
    "keyflower": FOLDED_BEFORE_29["keyflower"] | {"gather"},
    "burgundy": FOLDED_BEFORE_29["burgundy"] | {"action"},
    "village": FOLDED_BEFORE_29["village"],
    "coffee": FOLDED_BEFORE_29["coffee"],
}
# What a Keyflower use asks once its workers are placed (a Tavern's `discard` among them).
KEYFLOWER_USE_ASKS = ("resource", "skill", "discard")
# The kinds folded after its second round (session 11, commit 851f028): Keyflower's tile
# with its cell and turn and a use's asks, Burgundy's buying and discards, Village's dying;
# none of Village's privileges and rewards and Coffee Traders' second deliveries folded since.
FOLDED_ROUND_2 = {
    "keyflower": FOLDED_ROUND_1["keyflower"] | {"place_at", "place_rot", *KEYFLOWER_USE_ASKS},
    "burgundy": FOLDED_ROUND_1["burgundy"] | {"buy", "discard"},
    "village": FOLDED_ROUND_1["village"] | {"die"},
    "coffee": FOLDED_ROUND_1["coffee"],
}
# The kinds folded after its third round (commit c50cb62): Village's privileges and rewards,
# Coffee Traders' second deliveries; none of Keyflower's transport folded since.
FOLDED_ROUND_3 = {
    **FOLDED_ROUND_2,
    "village": FOLDED_ROUND_2["village"] | {"privilege", "reward"},
    "coffee": FOLDED_ROUND_2["coffee"] | {"sell_second"},
}
# The kinds folded after its fourth round (commits 5923a33, f2079ae): Keyflower's transport
# after the workers placed, Burgundy's ship after a town hall and its goods, Coffee Traders'
# farm after a plantation; no choice of several offered as sets of it since, nor Coffee
# Traders' coffee for a "different kinds" space, its Arabica step, a warehouse's coffee and
# a delivery after a trade folded (session 14).
FOLDED_ROUND_4 = {
    "keyflower": FOLDED_ROUND_3["keyflower"] | {"transport"},
    "burgundy": FOLDED_ROUND_3["burgundy"] | {"ship", "shipgoods"},
    "village": FOLDED_ROUND_3["village"],
    "coffee": FOLDED_ROUND_3["coffee"] | {"farm"},
}
# What Keyflower's transport folded after until session 15 (never after a carry: no Finish
# folded with a carry).
KEYFLOWER_TRANSPORT_AFTER = frozenset({"count", "gather", "mix", "upgrade", "pay"})
# What Coffee Traders' folded kinds folded after in the rounds, and Keyflower's transport.
FOLDED_AFTER_ROUND_4 = {
    "coffee": {"sell_second": frozenset({"sell"}), "farm": frozenset({"plant_space"})},
    "keyflower": {"transport": KEYFLOWER_TRANSPORT_AFTER},
}
# The kinds folded at the end of session 14 are those folded now; what they folded after
# then, where it changed since (session 15: Keyflower's Finish after a carry).
FOLDED_AFTER_SESSION_14 = {
    "keyflower": {"transport": KEYFLOWER_TRANSPORT_AFTER},
}
# The ways of counting: no folding, the kinds folded before issue 29, after its first,
# second, third and fourth rounds, at the end of session 14, and the kinds now.
WAYS = ("unfolded", "before", "round 1", "round 2", "round 3", "round 4", "session 14", "now")
ROUNDS = {
    "before": FOLDED_BEFORE_29,
    "round 1": FOLDED_ROUND_1,
    "round 2": FOLDED_ROUND_2,
    "round 3": FOLDED_ROUND_3,
    "round 4": FOLDED_ROUND_4,
}
# The panels compared apart: session 14's and now.
PANEL_WAYS = ("session 14", "now")


@dataclass
class Move:
    shape: tuple[str, ...]
    clicks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(WAYS, 0))


@dataclass
class Figures:
    entries: int = 0
    moves: list[Move] = field(default_factory=list)
    turns: list[Move] = field(default_factory=list)
    clicks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(WAYS, 0))
    seconds: float = 0.0
    # per decision kind and way: each panel's lines and processor time (ms)
    panels: dict[str, dict[str, list[tuple[int, float]]]] = field(
        default_factory=lambda: defaultdict(lambda: {way: [] for way in PANEL_WAYS})
    )


class _Folding:
    """A game's presenter with other folded kinds: the panels as they were (a round's: no
    sets of several choices, what the kinds folded after then)."""

    def __init__(
        self, presenter: Any, folded: frozenset[str], after: dict[str, Any], sets: bool
    ) -> None:
        self._presenter = presenter
        self.FOLDED = folded
        self._sets = sets
        self.FOLDED_AFTER = {**getattr(presenter, "FOLDED_AFTER", {}), **after}

    def __getattr__(self, name: str) -> Any:
        if name == "pick_sets" and not self._sets:
            raise AttributeError(name)
        return getattr(self._presenter, name)


def folding(game_id: str, way: str) -> tuple[frozenset[str], dict[str, Any], bool] | None:
    """A way's folded kinds, what they fold after where that differs from now, and whether
    its panels offer sets of several choices; None for now (the presenter as it is)."""
    if way in ROUNDS:
        return ROUNDS[way][game_id], FOLDED_AFTER_ROUND_4.get(game_id, {}), False
    if way == "session 14":
        kinds = presenters.folded_kinds(game_id)
        return kinds, FOLDED_AFTER_SESSION_14.get(game_id, {}), True
    return None


@contextmanager
def folded_as(game_id: str, way: str) -> Iterator[None]:
    presenter = presenters.for_game(game_id)
    declared = folding(game_id, way)
    if declared is not None:
        presenters.register(game_id, _Folding(presenter, *declared))
    try:
        yield
    finally:
        presenters.register(game_id, presenter)


def first_answer(decision: Decision) -> tuple[str, ...]:
    """The decision's first options (as few as it takes), never a step back."""
    ids = [o.id for o in decision.options if o.id not in STEP_BACK]
    return tuple(ids[: decision.min_choices or (1 if decision.max_choices == 1 else 0)])


def play(game_id: str, players: int, seed: int, level: str) -> tuple[list[Any], list[Action]]:
    """A whole game: the state before each logged action, and the actions."""
    engine = games.get(game_id)
    state = engine.new(players, seed)
    states, log = [], []
    while decisions := engine.decisions(state):
        decision = decisions[0]
        if level == "first":
            choices = first_answer(decision)
        else:
            choices = levels.choose(engine, state, decision.seat, level, seed * 100_003 + len(log))
        states.append(state)
        log.append(Action(decision.seat, choices))
        state = engine.apply(state, log[-1])
    return states, log


def count(
    game_id: str, players: int, states: list[Any], log: list[Action], fold: bool
) -> list[int]:
    """Clicks charged to each log entry (an interaction is charged to its first entry)."""
    engine = games.get(game_id)
    charged = [0] * len(log)
    i = 0
    while i < len(log):
        seat = log[i].seat
        run = []
        for action in log[i:]:
            if action.seat != seat:
                break
            run.append(action.choices)
        try:
            answer = clicks(model_game(engine, states[i], players, seq=i), seat, run, fold=fold)
        except NoLine:  # a step into a folded decision, then Back (random play only)
            answer = Answer(1, 1)
        charged[i] = answer.clicks
        i += answer.moves
    return charged


def count_ways(game_id: str, players: int, states: list[Any], log: list[Action]) -> dict:
    """Clicks charged to each log entry, each way of folding."""
    charged = {"unfolded": count(game_id, players, states, log, fold=False)}
    for way in WAYS[1:]:
        with folded_as(game_id, way):
            charged[way] = count(game_id, players, states, log, fold=True)
    return charged


def time_panels(game_id: str, states: list[Any], log: list[Action], figures: Figures) -> None:
    """Each logged decision's panel lines worked out session 14's way and now, one after
    the other (which first, in turns): how many lines, in how much processor time."""
    engine = games.get(game_id)
    for index, (state, action) in enumerate(zip(states, log, strict=True)):
        decision = next(d for d in engine.decisions(state) if d.seat == action.seat)
        for way in PANEL_WAYS[:: 1 if index % 2 else -1]:
            with folded_as(game_id, way):
                folded = presenters.folded_kinds(game_id)
                start = time.process_time()
                lines = panel_lines(engine, state, action.seat, decision, folded)
                spent = (time.process_time() - start) * 1000
            figures.panels[decision.kind][way].append((len(lines), spent))


def measure(game_id: str, players: int, seeds: list[int], level: str) -> Figures:
    engine = games.get(game_id)
    figures = Figures()
    start = time.perf_counter()
    for seed in seeds:
        states, log = play(game_id, players, seed, level)
        charged = count_ways(game_id, players, states, log)
        time_panels(game_id, states, log, figures)
        kinds = [
            next(d.kind for d in engine.decisions(s) if d.seat == a.seat)
            for s, a in zip(states, log, strict=True)
        ]
        figures.entries += len(log)
        for way in WAYS:
            figures.clicks[way] += sum(charged[way])
        move: Move | None = None
        for i, action in enumerate(log):
            new_turn = i == 0 or log[i - 1].seat != action.seat
            if new_turn:
                turn_kind = kinds[i]
                figures.turns.append(Move(()))
            figures.turns[-1].shape += (kinds[i],)
            for way in WAYS:
                figures.turns[-1].clicks[way] += charged[way][i]
            if new_turn or kinds[i] == turn_kind:
                move = Move(())
                figures.moves.append(move)
            assert move is not None
            move.shape += (kinds[i],)
            for way in WAYS:
                move.clicks[way] += charged[way][i]
    figures.seconds = time.perf_counter() - start
    return figures


def report(game_id: str, players: int, figures: Figures, top: int, containing: list[str]) -> None:
    moves = figures.moves
    print(f"\n## {game_id}, {players} players: {figures.entries} log entries, {len(moves)} moves")
    print("| | " + " | ".join(WAYS) + " |")
    print("| --- |" + " --- |" * len(WAYS))
    per_entry = [f"{figures.clicks[way] / figures.entries:.2f}" for way in WAYS]
    print("| clicks per log entry | " + " | ".join(per_entry) + " |")
    for name, pick in (("mean", statistics.mean), ("max", max)):
        row = [f"{pick(m.clicks[way] for m in moves):.2f}" for way in WAYS]
        print(f"| clicks per move, {name} | " + " | ".join(row) + " |")
    per_turn = [f"{statistics.mean(m.clicks[way] for m in figures.turns):.2f}" for way in WAYS]
    print(f"| clicks per turn ({len(figures.turns)}), mean | " + " | ".join(per_turn) + " |")
    share = [f"{sum(m.clicks[way] <= 2 for m in moves) / len(moves):.0%}" for way in WAYS]
    print("| moves in ≤ 2 clicks | " + " | ".join(share) + " |")
    past = [str(sum(max(0, m.clicks[way] - 2) for m in moves)) for way in WAYS]
    print("| clicks past two, summed | " + " | ".join(past) + " |")
    for kind in containing:
        report_containing(kind, moves)
    shapes: dict[tuple[str, ...], list[Move]] = defaultdict(list)
    for m in moves:
        shapes[m.shape].append(m)
    print(f"\nMost frequent moves (clicks after Take turn, mean; {figures.seconds:.0f} s):")
    print("| move (decisions) | count | " + " | ".join(WAYS) + " |")
    print("| --- | --- |" + " --- |" * len(WAYS))
    frequent = Counter({shape: len(ms) for shape, ms in shapes.items()}).most_common(top)
    for shape, n in frequent:
        ms = shapes[shape]
        row = [f"{statistics.mean(m.clicks[way] for m in ms):.2f}" for way in WAYS]
        print(f"| {' → '.join(shape)} | {n} | " + " | ".join(row) + " |")
    report_over_two(shapes, top)
    report_panels(figures)


def report_panels(figures: Figures) -> None:
    """The decision kinds whose panels changed since session 14: lines and processor time, of
    the panels that changed and of all the kind's panels."""
    old, new = PANEL_WAYS
    rows = []
    for kind, ways in sorted(figures.panels.items()):
        pairs = list(zip(ways[old], ways[new], strict=True))
        changed = [(a, b) for a, b in pairs if a[0] != b[0]]
        if changed:
            rows.append((f"{kind}, changed", changed))
            rows.append((f"{kind}, all", pairs))
    if not rows:
        return
    print(f"\nPanels changed since {old} ({old} → {new}; every logged decision of the kind):")
    print("| decision | panels | lines median / p90 / max | ms median / p95 / max |")
    print("| --- | --- | --- | --- |")
    for name, pairs in rows:
        lines = " → ".join(_spread([p[i][0] for p in pairs], 0.9, "{:.0f}") for i in (0, 1))
        ms = " → ".join(_spread([p[i][1] for p in pairs], 0.95, "{:.1f}") for i in (0, 1))
        print(f"| {name} | {len(pairs)} | {lines} | {ms} |")


def _spread(values: list[float], high: float, form: str) -> str:
    """`median / p90 / max` (or p95) of the values."""
    ordered = sorted(values)
    at = ordered[min(len(ordered) - 1, int(high * len(ordered)))]
    return " / ".join(form.format(v) for v in (statistics.median(ordered), at, ordered[-1]))


def report_containing(kind: str, moves: list[Move]) -> None:
    """The moves that answer a decision of `kind`: how many, their clicks each way."""
    having = [m for m in moves if kind in m.shape]
    if not having:
        return
    mean = [f"{statistics.mean(m.clicks[way] for m in having):.2f}" for way in WAYS]
    print(f"| moves with {kind} ({len(having)}): clicks, mean | " + " | ".join(mean) + " |")
    share = [f"{sum(m.clicks[way] <= 2 for m in having) / len(having):.0%}" for way in WAYS]
    print(f"| moves with {kind}: in ≤ 2 clicks | " + " | ".join(share) + " |")
    past = [str(sum(max(0, m.clicks[way] - 2) for m in having)) for way in WAYS]
    print(f"| moves with {kind}: clicks past two, summed | " + " | ".join(past) + " |")


def report_over_two(shapes: dict[tuple[str, ...], list[Move]], top: int) -> None:
    """The moves still over two clicks now, costliest first: clicks past the second, summed
    over every move of the shape (the flows worth folding next)."""
    beyond = {shape: sum(max(0, m.clicks["now"] - 2) for m in ms) for shape, ms in shapes.items()}
    costly = [(shape, extra) for shape, extra in beyond.items() if extra]
    if not costly:
        return
    print("\nMoves over two clicks now (clicks past the second, summed):")
    print("| move (decisions) | moves over two / all | clicks past two | now, mean |")
    print("| --- | --- | --- | --- |")
    for shape, extra in sorted(costly, key=lambda item: -item[1])[:top]:
        ms = shapes[shape]
        over = sum(m.clicks["now"] > 2 for m in ms)
        mean = statistics.mean(m.clicks["now"] for m in ms)
        print(f"| {' → '.join(shape)} | {over} / {len(ms)} | {extra} | {mean:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per title (default 2)")
    parser.add_argument("--level", default="good", choices=("random", "good", "first"))
    parser.add_argument("--only", default=",".join(PLAYERS), help="comma-separated game ids")
    parser.add_argument("--top", type=int, default=6, help="move shapes listed per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--containing", default="", help="comma-separated decision kinds: their moves apart"
    )
    args = parser.parse_args()
    print(f"AI level {args.level}, {args.games} game(s) per title, seeds from {args.seed}")
    for game_id in args.only.split(","):
        players = PLAYERS[game_id]
        seeds = [random.Random(f"{args.seed}:{n}").randrange(1 << 30) for n in range(args.games)]
        figures = measure(game_id, players, seeds, args.level)
        report(game_id, players, figures, args.top, [k for k in args.containing.split(",") if k])


if __name__ == "__main__":
    main()
