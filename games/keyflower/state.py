"""The state of a Keyflower table: plain dataclasses that dump and load exactly."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple_hall.games.core import Msg, Rng
from meeple_hall.games.core.clone import clone
from meeple_hall.games.core.hidden import HIDDEN


@dataclass
class Group:
    """Workers of one colour one seat put at a tile: a bid beside it or a use on it."""

    seat: int
    colour: str
    count: int
    lying: bool = False  # placed under boat 4a / 4b against the tile's colour

    def __deepcopy__(self, memo: dict[int, Any]) -> Group:
        return Group(self.seat, self.colour, self.count, self.lying)


@dataclass
class Tile:
    id: str
    upgraded: bool = False
    side: str = ""  # summer boats: "a" or "b"
    placed: bool = False
    q: int = 0
    r: int = 0
    rot: int = 0
    resources: dict[str, int] = field(default_factory=dict)
    workers: list[Group] = field(default_factory=list)
    uses: list[int] = field(default_factory=list)
    bids: list[Group] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any]) -> Tile:
        return Tile(
            self.id,
            self.upgraded,
            self.side,
            self.placed,
            self.q,
            self.r,
            self.rot,
            dict(self.resources),
            _copies(self.workers),
            list(self.uses),
            _copies(self.bids),
        )


def _copies(groups: list[Group]) -> list[Group]:
    """Each group copied (most tiles have none: then no comprehension is run)."""
    return [Group(g.seat, g.colour, g.count, g.lying) for g in groups] if groups else []


@dataclass
class Player:
    home: str
    screen: dict[str, int]
    skills: dict[str, int]
    village: list[str]
    winter_hand: list[str] = field(default_factory=list)
    winter_pick: list[str] = field(default_factory=list)
    winter_chosen: int = 0
    to_place: list[str] = field(default_factory=list)
    placing: str = ""
    placing_at: str = ""
    boat: str = ""

    def __deepcopy__(self, memo: dict[int, Any]) -> Player:
        return Player(
            self.home,
            dict(self.screen),
            dict(self.skills),
            list(self.village),
            list(self.winter_hand),
            list(self.winter_pick),
            self.winter_chosen,
            list(self.to_place),
            self.placing,
            self.placing_at,
            self.boat,
        )


@dataclass
class Move:
    """The part of the current turn chosen so far (a turn is several small decisions)."""

    stage: str = "action"
    action: str = ""
    tile: str = ""
    colour: str = ""
    groups: list[str] = field(default_factory=list)
    carry: int = 0
    upgrades: int = 0
    source: str = ""
    resource: str = ""
    upgrading: str = ""  # the tile being upgraded, while its payment is chosen
    mix: dict[str, int] = field(default_factory=dict)  # boat 4b: workers of each colour

    def __deepcopy__(self, memo: dict[int, Any]) -> Move:
        return Move(
            self.stage,
            self.action,
            self.tile,
            self.colour,
            list(self.groups),
            self.carry,
            self.upgrades,
            self.source,
            self.resource,
            self.upgrading,
            dict(self.mix),
        )


@dataclass
class KeyflowerState:
    rng: Rng
    num_players: int
    players: list[Player]
    tiles: dict[str, Tile]
    bag: dict[str, int]
    green: int
    supply: dict[str, int]
    skill_pile: dict[str, int]
    summer_stack: list[str] = field(metadata=HIDDEN)
    autumn_stack: list[str] = field(metadata=HIDDEN)
    turn_order: list[str]
    start_tile: str
    boats: list[str]
    boat_workers: dict[str, dict[str, int]]
    boat_skills: dict[str, dict[str, int]]
    season: int = 0
    phase: str = "play"
    start: int = 0
    current: int = 0
    passes: int = 0
    offer: list[str] = field(default_factory=list)
    move: Move = field(default_factory=Move)
    pick_order: list[int] = field(default_factory=list)
    boats_left: list[str] = field(default_factory=list)
    start_won: bool = False
    log: list[Msg | str] = field(default_factory=list)  # events (plain text in old saves)
    final: list[dict[str, Any]] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any]) -> KeyflowerState:
        """A fast copy: the engine copies the state on every action, the bot for every line
        a panel unfolds (its players and tiles copied by their own `__deepcopy__`, called
        directly: `copy.deepcopy` would add its memo to each)."""
        out = object.__new__(KeyflowerState)
        out.__dict__.update(self.__dict__)
        out.rng = Rng(self.rng.state)
        out.players = [p.__deepcopy__(memo) for p in self.players]
        out.tiles = {k: t.__deepcopy__(memo) for k, t in self.tiles.items()}
        out.bag = dict(self.bag)
        out.supply = dict(self.supply)
        out.skill_pile = dict(self.skill_pile)
        out.boat_workers = {k: dict(v) for k, v in self.boat_workers.items()}
        out.boat_skills = {k: dict(v) for k, v in self.boat_skills.items()}
        out.summer_stack = list(self.summer_stack)
        out.autumn_stack = list(self.autumn_stack)
        out.turn_order = list(self.turn_order)
        out.boats = list(self.boats)
        out.offer = list(self.offer)
        out.pick_order = list(self.pick_order)
        out.boats_left = list(self.boats_left)
        out.log = list(self.log)
        out.move = self.move.__deepcopy__(memo)
        out.final = clone(self.final) if self.final else []  # the scores, once the game is over
        return out
