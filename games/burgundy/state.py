"""The state of a game of The Castles of Burgundy. Tiles are ids into data.components().tiles."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from meeple_hall.games.core import Msg, Rng
from meeple_hall.games.core.clone import clone as clone  # the strategy copies parts
from meeple_hall.games.core.hidden import HIDDEN

CASTLE_DIE = 2  # die slot of a castle's extra action (slots 0 and 1 are the player's dice)


@dataclass
class Player:
    estate: dict[int, int] = field(default_factory=dict)  # hex id -> tile id
    storage: list[int] = field(default_factory=list)
    goods: dict[int, int] = field(default_factory=dict)  # goods kind (die number) -> tiles
    sold: dict[int, int] = field(default_factory=dict)
    silver: int = 1
    workers: int = 0
    points: dict[str, int] = field(default_factory=dict)  # points scored during play
    dice: list[int] = field(default_factory=lambda: [1, 1])
    used: list[bool] = field(default_factory=lambda: [True, True])
    bonus: list[str] = field(default_factory=list)  # "mine:large", "ship:small", ...
    bought: bool = False

    @property
    def score(self) -> int:
        return sum(self.points.values())

    def __deepcopy__(self, memo: dict[int, Any]) -> Player:
        """A copy sharing nothing that changes, field by field (the state's copy calls it for
        each player: see `BurgundyState.__deepcopy__`)."""
        out = object.__new__(Player)
        out.__dict__ = {
            "estate": self.estate.copy(),
            "storage": self.storage[:],
            "goods": self.goods.copy(),
            "sold": self.sold.copy(),
            "silver": self.silver,
            "workers": self.workers,
            "points": self.points.copy(),
            "dice": self.dice[:],
            "used": self.used[:],
            "bonus": self.bonus[:],
            "bought": self.bought,
        }
        return out


@dataclass
class Frame:
    """A step of the current turn waiting for a decision (the top of the stack is asked)."""

    kind: str
    slot: int = -1
    value: int = 0
    tile: int = -1
    types: list[str] = field(default_factory=list)
    goods: list[int] = field(default_factory=list)
    depots: list[int] = field(default_factory=list)
    source: str = ""

    def __deepcopy__(self, memo: dict[int, Any]) -> Frame:
        out = object.__new__(Frame)
        out.__dict__ = {
            "kind": self.kind,
            "slot": self.slot,
            "value": self.value,
            "tile": self.tile,
            "types": self.types[:],
            "goods": self.goods[:],
            "depots": self.depots[:],
            "source": self.source,
        }
        return out


@dataclass
class BurgundyState:
    rng: Rng
    players: list[Player]
    tiebreak: str
    # face-down: tile piles by back colour (top = end), goods stacks on phase spaces A-E
    supply: dict[str, list[int]] = field(metadata=HIDDEN)
    phase_goods: list[list[int]] = field(metadata=HIDDEN)
    depots: list[list[int]]  # 6 depots x 4 hex spaces: tile id or -1
    depot_goods: list[list[int]]  # goods on depots 1-6
    black: list[int]  # black depot spaces: tile id or -1
    bridge: list[list[int]]  # turn order track, each space a stack listed top first
    bonus_left: dict[str, list[str]]  # tile type -> bonus tiles still on the board
    phase: int = 0
    round: int = 0
    round_goods: list[int] = field(default_factory=list)
    white: int = 0
    order: list[int] = field(default_factory=list)
    turn: int = 0
    stack: list[Frame] = field(default_factory=list)
    box: list[int] = field(default_factory=list)  # hex tiles out of the game
    goods_out: list[int] = field(default_factory=list)
    log: list[Msg | str] = field(default_factory=list)  # events (plain text in old saves)
    over: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> BurgundyState:
        """A copy sharing nothing that changes, written out field by field: the engine copies
        the state before every move, and the bot for every line a panel unfolds (a die's
        panel tries some fifty moves). Every field is a number, a text, a message or a list
        or dict of them but for the generator, the players and the stack, copied by their
        own `__deepcopy__` (called directly: `copy.deepcopy` would add its memo to each).
        tests/games/test_clone.py checks that a copy shares nothing that can change. (The
        lists of lists are copied by `map`: a comprehension is a call of its own.)"""
        out = object.__new__(BurgundyState)
        out.__dict__ = {
            "rng": Rng(self.rng.state),
            "players": list(map(Player.__deepcopy__, self.players, repeat(memo))),
            "tiebreak": self.tiebreak,
            "supply": {back: pile[:] for back, pile in self.supply.items()},
            "phase_goods": list(map(list.copy, self.phase_goods)),
            "depots": list(map(list.copy, self.depots)),
            "depot_goods": list(map(list.copy, self.depot_goods)),
            "black": self.black[:],
            "bridge": list(map(list.copy, self.bridge)),
            "bonus_left": {t: left[:] for t, left in self.bonus_left.items()},
            "phase": self.phase,
            "round": self.round,
            "round_goods": self.round_goods[:],
            "white": self.white,
            "order": self.order[:],
            "turn": self.turn,
            "stack": list(map(Frame.__deepcopy__, self.stack, repeat(memo))),
            "box": self.box[:],
            "goods_out": self.goods_out[:],
            "log": self.log[:],
            "over": self.over,
        }
        return out

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def active(self) -> int:
        return self.order[self.turn]
