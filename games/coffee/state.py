"""The state of a game of Coffee Traders: the central board, the player boards, André."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple_hall.games.core import Msg, Rng
from meeple_hall.games.core.clone import clone_state
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

    # the engine copies the state before every move (and a panel for every line it unfolds):
    # `clone_state` shares the log's messages, which a pickled copy built again one by one
    __deepcopy__ = clone_state

    def say(self, text: Msg | str) -> None:
        self.log.append(text)
        del self.log[:-LOG_KEPT]
