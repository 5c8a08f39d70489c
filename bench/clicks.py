"""Clicks per move through the panels, before and after folding decisions (issue 14).

    python bench/clicks.py [--games 2] [--level good] [--only keyflower,burgundy]

Plays whole games with the AI (`good` by default: moves players make) and replays each log
through the panel model (`meeple_hall.bot.panel_clicks`): the panels are built as the bot
builds them, and the component interactions a person needs after **Take turn** are counted
for every logged move, once with folding off (each decision its own panel, as before
issue 14) and once with the games' declarations (`FOLDED` in each renderer module).

A *turn* is a seat's consecutive log entries; a *move* is a turn, or a part of one that
starts again with the turn's first kind of decision (a Castles of Burgundy turn is two die
actions). A move's shape is the decision kinds it answered. Printed per game: clicks per
logged entry and per move, the share of moves done in at most two clicks, and the most
frequent shapes with their clicks before → after. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from meeple_hall import games
from meeple_hall.bot.panel_clicks import Answer, NoLine, clicks, model_game
from meeple_hall.games import Action
from meeple_hall.games.ai import levels

PLAYERS = {"keyflower": 4, "burgundy": 3, "village": 3, "coffee": 3}


@dataclass
class Move:
    shape: tuple[str, ...]
    before: int = 0
    after: int = 0


@dataclass
class Figures:
    entries: int = 0
    moves: list[Move] = field(default_factory=list)
    clicks_before: int = 0
    clicks_after: int = 0
    seconds: float = 0.0


def play(game_id: str, players: int, seed: int, level: str) -> tuple[list[Any], list[Action]]:
    """A whole game: the state before each logged action, and the actions."""
    engine = games.get(game_id)
    state = engine.new(players, seed)
    states, log = [], []
    while decisions := engine.decisions(state):
        decision = decisions[0]
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


def measure(game_id: str, players: int, seeds: list[int], level: str) -> Figures:
    engine = games.get(game_id)
    figures = Figures()
    start = time.perf_counter()
    for seed in seeds:
        states, log = play(game_id, players, seed, level)
        before = count(game_id, players, states, log, fold=False)
        after = count(game_id, players, states, log, fold=True)
        kinds = [
            next(d.kind for d in engine.decisions(s) if d.seat == a.seat)
            for s, a in zip(states, log, strict=True)
        ]
        figures.entries += len(log)
        figures.clicks_before += sum(before)
        figures.clicks_after += sum(after)
        move: Move | None = None
        for i, action in enumerate(log):
            new_turn = i == 0 or log[i - 1].seat != action.seat
            if new_turn:
                turn_kind = kinds[i]
            if new_turn or kinds[i] == turn_kind:
                move = Move(())
                figures.moves.append(move)
            assert move is not None
            move.shape += (kinds[i],)
            move.before += before[i]
            move.after += after[i]
    figures.seconds = time.perf_counter() - start
    return figures


def report(game_id: str, players: int, figures: Figures, top: int) -> None:
    moves = figures.moves
    share = {
        name: sum(getattr(m, name) <= 2 for m in moves) / len(moves) for name in ("before", "after")
    }
    print(f"\n## {game_id}, {players} players: {figures.entries} log entries, {len(moves)} moves")
    print("| | before | after |")
    print("| --- | --- | --- |")
    print(
        f"| clicks per log entry | {figures.clicks_before / figures.entries:.2f} |"
        f" {figures.clicks_after / figures.entries:.2f} |"
    )
    for name, pick in (("mean", statistics.mean), ("max", max)):
        print(
            f"| clicks per move, {name} | {pick(m.before for m in moves):.2f} |"
            f" {pick(m.after for m in moves):.2f} |"
        )
    print(f"| moves in ≤ 2 clicks | {share['before']:.0%} | {share['after']:.0%} |")
    shapes: dict[tuple[str, ...], list[Move]] = defaultdict(list)
    for m in moves:
        shapes[m.shape].append(m)
    print(f"\nMost frequent moves (clicks after Take turn, mean; {figures.seconds:.0f} s):")
    print("| move (decisions) | count | before | after |")
    print("| --- | --- | --- | --- |")
    frequent = Counter({shape: len(ms) for shape, ms in shapes.items()}).most_common(top)
    for shape, n in frequent:
        ms = shapes[shape]
        print(
            f"| {' → '.join(shape)} | {n} | {statistics.mean(m.before for m in ms):.2f} |"
            f" {statistics.mean(m.after for m in ms):.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per title (default 2)")
    parser.add_argument("--level", default="good", choices=("random", "good"))
    parser.add_argument("--only", default=",".join(PLAYERS), help="comma-separated game ids")
    parser.add_argument("--top", type=int, default=6, help="move shapes listed per game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"AI level {args.level}, {args.games} game(s) per title, seeds from {args.seed}")
    for game_id in args.only.split(","):
        players = PLAYERS[game_id]
        seeds = [random.Random(f"{args.seed}:{n}").randrange(1 << 30) for n in range(args.games)]
        report(game_id, players, measure(game_id, players, seeds, args.level), args.top)


if __name__ == "__main__":
    main()
