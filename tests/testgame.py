"""Pebbles: a small game that exercises every part of the table, for tests only.

Each of three rounds: every player secretly and simultaneously bids coins; then, highest
bid first (ties by seat), each player takes one pebble from an open pool of 30 (more than
a select menu holds, so panels page); then each player keeps 1 or 2 of the 3 cards in
their secret hand (a multi-select). Score: pebbles plus kept cards plus unspent coins.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple_hall.games.core import (
    Decision,
    GameEngine,
    GameOption,
    Option,
    Result,
    Rng,
    ranks_from_scores,
)
from meeple_hall.games.core.hidden import HIDDEN

ROUNDS = 3
POOL_SIZE = 30
COLOURS = ("red", "blue", "green")


@dataclass
class Player:
    coins: int = 5
    hand: list[int] = field(default_factory=list)
    pebbles: list[str] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)
    bid: int | None = None


@dataclass
class PebblesState:
    rng: Rng
    players: list[Player]
    pool: list[str]
    deck: list[int] = field(metadata=HIDDEN)
    round: int = 1
    step: str = "bid"
    order: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


def pebble_value(pebble: str) -> int:
    return int(pebble.split("-")[1])


class PebblesEngine(GameEngine[PebblesState]):
    id = "pebbles"
    name = "Pebbles"
    min_players = 1
    max_players = 4
    state_type = PebblesState
    options = (
        GameOption(
            id="coins",
            label="Starting coins",
            choices=(Option("3", "3 coins"), Option("5", "5 coins")),
            default="5",
        ),
    )

    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> PebblesState:
        pool = [f"{c}-{v}" for v in range(1, 11) for c in COLOURS]
        deck = rng.shuffled(range(1, 41))
        players = [Player(coins=int(options["coins"])) for _ in range(num_players)]
        state = PebblesState(rng=rng, players=players, pool=pool, deck=deck)
        self._deal(state)
        return state

    def _deal(self, state: PebblesState) -> None:
        for player in state.players:
            player.hand = [state.deck.pop() for _ in range(3)]

    def resample_private(self, state: PebblesState, seat: int, rng: Rng) -> None:
        """Other hands and the deck are one lot of unseen cards, dealt again by size; a
        secret bid already made by another player is any bid it could have made."""
        others = [p for i, p in enumerate(state.players) if i != seat]
        for p in others:
            if p.bid is not None and state.step == "bid":
                p.bid = rng.below(p.coins + 1)
        pool = rng.shuffled(sorted([c for p in others for c in p.hand] + state.deck))
        for p in others:
            size = len(p.hand)
            p.hand, pool = pool[:size], pool[size:]
        state.deck = pool

    def decisions(self, state: PebblesState) -> list[Decision]:
        if state.step == "bid":
            return [
                Decision(
                    seat=seat,
                    kind="bid",
                    prompt="Bid coins for first pick",
                    options=tuple(Option(f"bid{n}", f"Bid {n}") for n in range(p.coins + 1)),
                )
                for seat, p in enumerate(state.players)
                if p.bid is None
            ]
        if state.step == "pick":
            return [
                Decision(
                    seat=state.order[0],
                    kind="pick",
                    prompt="Take a pebble",
                    options=tuple(Option(p, p.replace("-", " ")) for p in state.pool),
                )
            ]
        if state.step == "keep":
            seat = state.order[0]
            hand = state.players[seat].hand
            return [
                Decision(
                    seat=seat,
                    kind="keep",
                    prompt="Keep one or two cards",
                    options=tuple(Option(f"c{c}", f"Card {c}") for c in hand),
                    min_choices=1,
                    max_choices=2,
                )
            ]
        return []

    def perform(self, state: PebblesState, decision: Decision, choices: tuple[str, ...]) -> None:
        player = state.players[decision.seat]
        if decision.kind == "bid":
            player.bid = int(choices[0].removeprefix("bid"))
            if all(p.bid is not None for p in state.players):
                state.order = sorted(
                    range(len(state.players)), key=lambda s: (-(state.players[s].bid or 0), s)
                )
                for p in state.players:
                    p.coins -= p.bid or 0
                state.log.append("bids " + " ".join(str(p.bid) for p in state.players))
                state.step = "pick"
        elif decision.kind == "pick":
            state.pool.remove(choices[0])
            player.pebbles.append(choices[0])
            state.order.pop(0)
            if not state.order:
                state.order = list(range(len(state.players)))
                state.step = "keep"
        elif decision.kind == "keep":
            player.kept.extend(int(c[1:]) for c in choices)
            player.hand = []
            state.order.pop(0)
            if not state.order:
                self._end_round(state)

    def _end_round(self, state: PebblesState) -> None:
        if state.round == ROUNDS:
            state.step = "over"
            return
        state.round += 1
        state.step = "bid"
        for p in state.players:
            p.bid = None
        self._deal(state)

    def view(self, state: PebblesState, seat: int | None) -> dict[str, Any]:
        players = [
            {
                "coins": p.coins,
                "pebbles": list(p.pebbles),
                "kept": len(p.kept),
                "has_bid": p.bid is not None and state.step == "bid",
            }
            for p in state.players
        ]
        view: dict[str, Any] = {
            "num_players": len(state.players),
            "round": state.round,
            "step": state.step,
            "pool": list(state.pool),
            "players": players,
            "log": state.log[-5:],
        }
        if seat is not None:
            me = state.players[seat]
            view["you"] = {"seat": seat, "hand": list(me.hand), "kept": list(me.kept)}
        return view

    def shows_secret(self, before: PebblesState, action: Any, after: PebblesState) -> bool:
        """The last secret bid shows everyone's bids."""
        return before.step == "bid" and after.step != "bid"

    def result(self, state: PebblesState) -> Result | None:
        if state.step != "over":
            return None
        breakdown = tuple(
            {
                "pebbles": sum(pebble_value(x) for x in p.pebbles),
                "cards": sum(p.kept),
                "coins": p.coins,
            }
            for p in state.players
        )
        scores = tuple(sum(b.values()) for b in breakdown)
        return Result(scores=scores, ranks=ranks_from_scores(list(scores)), breakdown=breakdown)


engine = PebblesEngine()


@dataclass
class DraftState:
    rng: Rng
    chosen: list[list[str]]
    step: int = 0


class DraftEngine(GameEngine[DraftState]):
    """Each player in turn keeps 2 to 5 of 40 cards, once: a multi-select too big for one menu,
    or none at all (the second round allows choosing nothing)."""

    id = "draft"
    name = "Draft"
    min_players = 1
    max_players = 2
    state_type = DraftState
    CARDS = tuple(f"k{n:02d}" for n in range(40))

    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> DraftState:
        return DraftState(rng=rng, chosen=[[] for _ in range(num_players)])

    def decisions(self, state: DraftState) -> list[Decision]:
        players = len(state.chosen)
        if state.step >= 2 * players:
            return []
        first_round = state.step < players
        return [
            Decision(
                seat=state.step % players,
                kind="draft",
                prompt="Keep cards" if first_round else "Keep more cards, or none",
                options=tuple(Option(c, f"Card {c[1:]}") for c in self.CARDS),
                min_choices=2 if first_round else 0,
                max_choices=5,
            )
        ]

    def perform(self, state: DraftState, decision: Decision, choices: tuple[str, ...]) -> None:
        state.chosen[decision.seat].extend(choices)
        state.step += 1

    def view(self, state: DraftState, seat: int | None) -> dict[str, Any]:
        return {"num_players": len(state.chosen), "kept": [len(c) for c in state.chosen]}

    def result(self, state: DraftState) -> Result | None:
        if self.decisions(state):
            return None
        breakdown = tuple({"cards": len(c)} for c in state.chosen)
        scores = tuple(b["cards"] for b in breakdown)
        return Result(scores=scores, ranks=ranks_from_scores(list(scores)), breakdown=breakdown)


draft = DraftEngine()
