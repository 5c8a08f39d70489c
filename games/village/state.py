"""The state of a game of Village: plain dataclasses that dump to JSON exactly."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from meeple_hall.games.core import Msg, Rng
from meeple_hall.games.core.hidden import HIDDEN, TURNED_UP

KARLA = -1
"""Karla's owner mark in the chronicle, graves, black bag and market."""

# Where a family member can be: not yet born, alive somewhere, or dead.
SUPPLY, FARM, WORKSHOP, COUNCIL, TRAVEL, CHURCH, BAG = (
    "supply",
    "farm",
    "workshop",
    "council",
    "travel",
    "church",
    "bag",
)
CHRONICLE, GRAVE, REMOVED = "chronicle", "grave", "removed"
VISIBLE = (FARM, WORKSHOP, COUNCIL, TRAVEL, CHURCH)
ON_BOARD = (WORKSHOP, COUNCIL, TRAVEL, CHURCH)
ALIVE = (*VISIBLE, BAG)


@dataclass
class Member:
    number: int
    place: str = SUPPLY
    where: str = ""  # workshop, city, or chronicle category
    stage: int = 0  # council or church stage, 1..4

    def __deepcopy__(self, memo: dict[int, Any]) -> Member:
        return Member(self.number, self.place, self.where, self.stage)


@dataclass
class Player:
    members: list[Member]
    cubes: dict[str, int]
    goods: dict[str, int]
    grain: int = 0
    coins: int = 1
    prestige: int = 0
    time: int = 0  # time spent so far; the marker stands on space time % track length
    deaths_due: int = 0
    customers: list[str] = field(default_factory=list)
    cities: list[str] = field(default_factory=list)
    marker_coin: bool = False  # solo: the next-start-player marker, usable as a coin

    def __deepcopy__(self, memo: dict[int, Any]) -> Player:
        # The engine copies the state before every action; this is the hot part of it.
        return Player(
            members=[Member(m.number, m.place, m.where, m.stage) for m in self.members],
            cubes=dict(self.cubes),
            goods=dict(self.goods),
            grain=self.grain,
            coins=self.coins,
            prestige=self.prestige,
            time=self.time,
            deaths_due=self.deaths_due,
            customers=list(self.customers),
            cities=list(self.cities),
            marker_coin=self.marker_coin,
        )


@dataclass
class Karla:
    """The solo automaton: her family, church, time ring and fate tiles."""

    beside: list[int]  # numbers 1 and 2 beside her board
    waiting: list[int]  # numbers 3 and 4 waiting on the church
    church: dict[int, int] = field(default_factory=dict)  # stage -> member number
    ring: list[list[str]] = field(default_factory=list)  # cubes on each ring space
    last: int = -1  # ring space of the last cube placed
    top: list[str] = field(default_factory=list, metadata=HIDDEN)  # fate tiles, "quill" or "blank"
    top_up: list[bool] = field(default_factory=list, metadata=TURNED_UP)
    bottom: list[str] = field(default_factory=list, metadata=HIDDEN)
    bottom_up: list[bool] = field(default_factory=list, metadata=TURNED_UP)
    customers: list[str] = field(default_factory=list)
    dead: int = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> Karla:
        return Karla(
            beside=self.beside[:],
            waiting=self.waiting[:],
            church=self.church.copy(),
            ring=list(map(list.copy, self.ring)),
            last=self.last,
            top=self.top[:],
            top_up=self.top_up[:],
            bottom=self.bottom[:],
            bottom_up=self.bottom_up[:],
            customers=self.customers[:],
            dead=self.dead,
        )


@dataclass
class Frame:
    """A step the game waits for (its kind, games/village/steps.py); `space` and `data`
    carry its context. Stored in saves as it is."""

    kind: str
    seat: int
    space: str = ""
    data: list[str] = field(default_factory=list)


@dataclass
class Market:
    trigger: int  # the seat that triggered the market day, KARLA for Karla
    order: list[int]
    passed: list[int] = field(default_factory=list)
    first_free: bool = True
    karla_due: bool = False
    front: int = 0  # the frontmost stall when the market day began
    carried: list[int] = field(default_factory=list)  # deaths due before the day began
    ending_before: bool = False  # the game end had been triggered before the day began

    def __deepcopy__(self, memo: dict[int, Any]) -> Market:
        return Market(
            self.trigger,
            self.order[:],
            self.passed[:],
            self.first_free,
            self.karla_due,
            self.front,
            self.carried[:],
            self.ending_before,
        )


@dataclass
class VillageState:
    rng: Rng
    players: list[Player]
    solo: bool
    karla_die: bool
    supply: dict[str, int]  # cubes by colour, plague as "black"
    green_bag: dict[str, int]
    spaces: dict[str, list[str]]
    black_bag: list[str]  # "monk", "<seat>:<member>" or "k:<number>"
    customer_stack: list[str] = field(metadata=HIDDEN)
    stalls: list[str]  # "" for an empty stall
    queue: list[str]
    chronicle: dict[str, list[str]]  # category -> owners: "" free, "x" blocked, seat, "k"
    graves: list[str]
    karla: Karla | None = None
    start_player: int = 0
    next_start: int | None = None  # holder of the next-start-player marker
    round: int = 1
    current: int = 0
    stack: list[Frame] = field(default_factory=list)
    market: Market | None = None
    phase: str = "turn"  # "turn", "mass" or "over"
    karla_pending: bool = False  # Karla takes a cube once the player's turn is over
    ending: bool = False
    ender: int | None = None  # whose member filled the last chronicle space or grave
    market_ender: int | None = None  # the trigger of the market day the end came in
    finals_set: bool = False
    final_turns: list[int] = field(default_factory=list)
    mass_stage: str = ""  # "buy" or "advance"
    mass_order: list[int] = field(default_factory=list)
    mass_bought: int = 0
    final_mass: bool = False
    last_take: list[str] = field(default_factory=list)  # [space, colour] of the last cube taken
    coins_chosen: int = -1  # coins the player chose to spend on the next payment, -1: fewest
    log: list[Msg | str] = field(default_factory=list)  # events (plain text in old saves)

    def __deepcopy__(self, memo: dict[int, Any]) -> VillageState:
        """The engine copies the state before every move, the bot for every line a panel
        unfolds: written out by hand (the generic `clone_state` walks every field). The
        fields not named here are numbers, texts, flags or None, shared as they are; the log
        holds messages and texts, which never change. tests/games/test_clone.py checks that
        a copy shares nothing that can change."""
        out = object.__new__(VillageState)
        fields = self.__dict__.copy()
        fields["rng"] = Rng(self.rng.state)
        fields["players"] = list(map(Player.__deepcopy__, self.players, repeat(memo)))
        fields["supply"] = self.supply.copy()
        fields["green_bag"] = self.green_bag.copy()
        fields["spaces"] = {space: cubes[:] for space, cubes in self.spaces.items()}
        fields["black_bag"] = self.black_bag[:]
        fields["customer_stack"] = self.customer_stack[:]
        fields["stalls"] = self.stalls[:]
        fields["queue"] = self.queue[:]
        fields["chronicle"] = {row: slots[:] for row, slots in self.chronicle.items()}
        fields["graves"] = self.graves[:]
        if self.karla is not None:
            fields["karla"] = self.karla.__deepcopy__(memo)
        fields["stack"] = [Frame(f.kind, f.seat, f.space, f.data[:]) for f in self.stack]
        if self.market is not None:
            fields["market"] = self.market.__deepcopy__(memo)
        fields["final_turns"] = self.final_turns[:]
        fields["mass_order"] = self.mass_order[:]
        fields["last_take"] = self.last_take[:]
        fields["log"] = self.log[:]
        out.__dict__ = fields
        return out

    @property
    def num_players(self) -> int:
        return len(self.players)
