"""The state of a game of Coffee Traders: the central board, the player boards, André."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple_hall.games.core import Msg, Rng
from meeple_hall.games.core.clone import clone
from meeple_hall.games.core.hidden import HIDDEN, TURNED_UP

# Events kept for the table's log (the view gives the last 15); as many as the other games
# keep, so a whole round of four players still reads from its first line.
LOG_KEPT = 40


@dataclass
class Plantation:
    owner: int
    level: int
    staffed: bool = False
    # the space in the row below that supports it (None in row 1 and when reached by truck)
    support: int | None = None
    truck: bool = False


@dataclass
class Pathway:
    owner: int | None = None
    donkeys: int = 0


@dataclass
class Cooperative:
    rows: list[list[Plantation | None]]
    # "<lower row>.<lower space>.<upper space>" -> donkeys on that pathway
    pathways: dict[str, Pathway]
    # building kind -> owner per building space (None = empty)
    buildings: dict[str, list[int | None]]
    town: int = 6
    traders: list[int] = field(default_factory=list)
    stock: int = 3
    coin: bool = True
    animals: list[str] = field(default_factory=list)


@dataclass
class Player:
    coins: int = 3
    donkeys: int = 1
    trucks: int = 0
    civets: int = 0  # in the company supply (row bonus in 1980), worth 1 VP each
    markers: int = 3
    color_marker: bool = False
    color_marker_used: bool = False
    markers_used: int = 0
    bonus: list[str] = field(default_factory=lambda: ["marker", "trader", "coins"])
    plantations: dict[str, list[int]] = field(default_factory=dict)
    farms: list[str] = field(default_factory=list)
    planted: int = 0
    row_b_level3: bool = False
    pool: int = 2
    traders: int = 3
    traders_out: int = 0
    traders_retired: int = 0
    track_trader: bool = True
    track_truck: bool = True
    built: dict[str, int] = field(
        default_factory=lambda: {"warehouse": 1, "production": 0, "fairtrade": 0, "hospital": 0}
    )
    ratio: int = 4
    coffee: dict[str, int] = field(default_factory=dict)
    stocks: list[str] = field(default_factory=list)
    contracts: dict[str, str] = field(default_factory=dict)
    # letters whose contract lies 3-player side up at 4-5 players (the handicap variant)
    hard_sides: list[str] = field(default_factory=list)
    fulfilled: list[str] = field(default_factory=list)
    row_items: list[str] = field(default_factory=list)
    counters: list[str] = field(default_factory=list)
    minus_tokens: int = 0
    sumatra: int = 1
    arabica: dict[str, int] = field(default_factory=dict)
    milestones: dict[str, int] = field(default_factory=dict)
    wild_stock: bool = False


@dataclass
class Andre:
    seat: int
    stack: list[int]
    fair_trade_posts: int
    traders: int
    traders_out: int
    markers: int
    contracts: list[str] = field(metadata=HIDDEN)
    counters: list[str] = field(metadata=HIDDEN)
    flipped: list[str] = field(default_factory=list, metadata=TURNED_UP)
    work_turn: int = 0


@dataclass
class Prompt:
    """A choice that must be made before play goes on (a bonus, a piggyback, a payment)."""

    seat: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class CoffeeState:
    rng: Rng
    num_players: int
    rules_players: int
    players: list[Player]
    coops: dict[str, Cooperative]
    andre: Andre | None
    order: list[int]
    bars: dict[str, list[int | None]]
    bar_animals: dict[str, str]
    wild_stock: int
    milestones: list[str]
    milestone_marks: dict[str, list[int]]
    contract_bonus: dict[str, list[str]]
    seventh: dict[str, int | None]
    donkey_taken: dict[str, bool]
    general_workers: int
    vicious: bool = False
    period: int = 1
    phase: str = "work"
    step: str = ""
    turn: int = 0
    done: list[bool] = field(default_factory=list)
    passes: int = 0
    next_order: list[int] = field(default_factory=list)
    owed: dict[int, int] = field(default_factory=dict)
    prompts: list[Prompt] = field(default_factory=list)
    over: bool = False
    log: list[Msg | str] = field(default_factory=list)  # events (plain text in old saves)

    @property
    def seats(self) -> range:
        return range(len(self.players))

    def is_andre(self, seat: int) -> bool:
        return self.andre is not None and seat == self.andre.seat

    # the engine copies the state before every move (and a panel for every line it unfolds,
    # hundreds a move): each part copied by the copy below written for it (`copy_state`)
    def __deepcopy__(self, memo: dict[int, Any]) -> CoffeeState:
        return copy_state(self)

    def say(self, text: Msg | str) -> None:
        self.log.append(text)
        del self.log[:-LOG_KEPT]


# -- copies -------------------------------------------------------------------------------
# A state is a tree (it survives `dump`/`load`), so a copy needs no memo: each class below is
# copied by a function written for its fields, lists and dicts of plain values by `[:]` and
# `.copy()`, numbers, text and messages shared (they never change). That is several times
# faster than `clone`'s walk over every field. A new field holding a list, a dict or an
# object needs its line here: tests/games/test_clone.py finds any part a copy shares.


def _new(kind: type, fields: dict[str, Any]) -> Any:
    out: Any = object.__new__(kind)
    out.__dict__ = fields
    return out


def copy_cooperative(coop: Cooperative) -> Cooperative:
    fields = coop.__dict__.copy()
    fields["rows"] = [
        [None if p is None else _new(Plantation, p.__dict__.copy()) for p in row]
        for row in coop.rows
    ]
    fields["pathways"] = {k: _new(Pathway, w.__dict__.copy()) for k, w in coop.pathways.items()}
    fields["buildings"] = {k: v[:] for k, v in coop.buildings.items()}
    fields["traders"] = coop.traders[:]
    fields["animals"] = coop.animals[:]
    out: Cooperative = _new(Cooperative, fields)
    return out


def copy_player(player: Player) -> Player:
    fields = player.__dict__.copy()
    fields["bonus"] = player.bonus[:]
    fields["plantations"] = {k: v[:] for k, v in player.plantations.items()}
    fields["farms"] = player.farms[:]
    fields["built"] = player.built.copy()
    fields["coffee"] = player.coffee.copy()
    fields["stocks"] = player.stocks[:]
    fields["contracts"] = player.contracts.copy()
    fields["hard_sides"] = player.hard_sides[:]
    fields["fulfilled"] = player.fulfilled[:]
    fields["row_items"] = player.row_items[:]
    fields["counters"] = player.counters[:]
    fields["arabica"] = player.arabica.copy()
    fields["milestones"] = player.milestones.copy()
    out: Player = _new(Player, fields)
    return out


def copy_andre(andre: Andre) -> Andre:
    fields = andre.__dict__.copy()
    fields["stack"] = andre.stack[:]
    fields["contracts"] = andre.contracts[:]
    fields["counters"] = andre.counters[:]
    fields["flipped"] = andre.flipped[:]
    out: Andre = _new(Andre, fields)
    return out


def copy_prompt(prompt: Prompt) -> Prompt:
    data = {k: v if type(v) in _SHARED else clone(v) for k, v in prompt.data.items()}
    out: Prompt = _new(Prompt, {"seat": prompt.seat, "kind": prompt.kind, "data": data})
    return out


_SHARED = frozenset({type(None), bool, int, str})


def copy_state(state: CoffeeState) -> CoffeeState:
    fields = state.__dict__.copy()
    fields["rng"] = Rng(state.rng.state)
    fields["players"] = [copy_player(p) for p in state.players]
    fields["coops"] = {k: copy_cooperative(c) for k, c in state.coops.items()}
    fields["andre"] = None if state.andre is None else copy_andre(state.andre)
    fields["order"] = state.order[:]
    fields["bars"] = {k: v[:] for k, v in state.bars.items()}
    fields["bar_animals"] = state.bar_animals.copy()
    fields["milestones"] = state.milestones[:]
    fields["milestone_marks"] = {k: v[:] for k, v in state.milestone_marks.items()}
    fields["contract_bonus"] = {k: v[:] for k, v in state.contract_bonus.items()}
    fields["seventh"] = state.seventh.copy()
    fields["donkey_taken"] = state.donkey_taken.copy()
    fields["done"] = state.done[:]
    fields["next_order"] = state.next_order[:]
    fields["owed"] = state.owed.copy()
    fields["prompts"] = [copy_prompt(p) for p in state.prompts]
    fields["log"] = state.log[:]
    out: CoffeeState = _new(CoffeeState, fields)
    return out
