"""The four actions and what each placed tile does, with scoring during play."""

from __future__ import annotations

from functools import cache, lru_cache

from meeple_hall.games.burgundy.data import PHASES, components
from meeple_hall.games.burgundy.rules import area_of, board_tiles, knows, open_hexes, table, tile
from meeple_hall.games.burgundy.state import BurgundyState, Frame, Player
from meeple_hall.games.burgundy.words import (
    count,
    goods,
    goods_stacks,
    hex_name,
    m,
    seat_name,
    space_name,
    tile_name,
    type_name,
)
from meeple_hall.games.core import Msg

# Buildings that let the player take a tile of these types from a numbered depot.
TAKE_EFFECTS = {
    "market": ["ship", "animal"],
    "carpenter": ["building"],
    "church": ["mine", "knowledge", "castle"],
}


def gain(player: Player, category: str, points: int) -> None:
    if points:
        player.points[category] = player.points.get(category, 0) + points


# Events kept in the state for the table's log (the bot shows the last 15); as many as the
# other games keep, so a whole round of four players still reads from its first line.
LOG_KEPT = 40


def say(state: BurgundyState, event: Msg) -> None:
    state.log.append(event)
    del state.log[:-LOG_KEPT]


# The events of the actions, made once each (a panel tries every action: each line's move
# writes its event).
@cache
def _takes(seat: int, face: str) -> Msg:
    return m("log.takes", seat=seat_name(seat), tile=tile_name(face))


@cache
def _discards(seat: int, face: str) -> Msg:
    return m("log.discards", seat=seat_name(seat), tile=tile_name(face))


@lru_cache(maxsize=1024)
def _sells(seat: int, kind: int, sold: int) -> Msg:
    return m("log.sells", seat=seat_name(seat), goods=goods(kind), tiles=count("tiles", sold))


@lru_cache(maxsize=256)
def _takes_workers(seat: int, workers: int) -> Msg:
    return m("log.takes_workers", seat=seat_name(seat), workers=count("workers", workers))


@lru_cache(maxsize=4096)
def _places(seat: int, face: str, hex_id: int) -> Msg:
    return m("log.places", seat=seat_name(seat), tile=tile_name(face), hex=hex_name(hex_id))


def lift(state: BurgundyState, tile_id: int) -> None:
    """Take a tile off the game board (a numbered depot or the black depot)."""
    for depot in state.depots:
        if tile_id in depot:
            depot[depot.index(tile_id)] = -1
            return
    state.black[state.black.index(tile_id)] = -1


def to_storage(state: BurgundyState, seat: int, tile_id: int) -> None:
    """Move a board tile to storage; with all 3 spaces full, a discard is asked first."""
    lift(state, tile_id)
    player = state.players[seat]
    if len(player.storage) >= table()["players"]["storage_spaces"]:
        state.stack.append(Frame("discard", tile=tile_id))
    else:
        player.storage.append(tile_id)
    say(state, _takes(seat, tile(tile_id).face))


def discard(state: BurgundyState, seat: int, frame: Frame, old: int) -> None:
    player = state.players[seat]
    player.storage.remove(old)
    state.box.append(old)
    player.storage.append(frame.tile)
    say(state, _discards(seat, tile(old).face))


def sale(state: BurgundyState, seat: int, kind: int) -> tuple[int, int, int]:
    """What selling all goods of one kind brings: points, silverlings and workers
    (knowledge tiles 3 and 4 add a silverling and a worker)."""
    player = state.players[seat]
    points = player.goods[kind] * table()["scoring"]["sell_per_tile"][str(state.num_players)]
    return points, 2 if knows(player, 3) else 1, 1 if knows(player, 4) else 0


def sell(state: BurgundyState, seat: int, kind: int) -> None:
    player = state.players[seat]
    points, silver, workers = sale(state, seat, kind)
    sold = player.goods.pop(kind)
    player.sold[kind] = player.sold.get(kind, 0) + sold
    gain(player, "goods sold", points)
    player.silver += silver
    player.workers += workers
    say(state, _sells(seat, kind, sold))


def workers_taken(state: BurgundyState, seat: int) -> tuple[int, int]:
    """What the take-workers action brings: workers and silverlings (knowledge tile 14
    makes it 4 workers, tile 13 adds a silverling)."""
    player = state.players[seat]
    workers = 4 if knows(player, 14) else table()["scoring"]["workers_action"]
    return workers, 1 if knows(player, 13) else 0


def take_workers(state: BurgundyState, seat: int) -> None:
    player = state.players[seat]
    workers, silver = workers_taken(state, seat)
    player.workers += workers
    player.silver += silver
    say(state, _takes_workers(seat, workers))


def place(state: BurgundyState, seat: int, tile_id: int, hex_id: int) -> None:
    """Put a stored tile on the estate, score what it completes, then carry out its effect."""
    player = state.players[seat]
    player.storage.remove(tile_id)
    player.estate[hex_id] = tile_id
    t = tile(tile_id)
    say(state, _places(seat, t.face, hex_id))
    score_completion(state, seat, hex_id)
    if t.type == "animal":
        score_animal(player, hex_id)
    elif t.type == "castle":
        state.stack.append(Frame("castle"))
    elif t.type == "ship":
        if any(state.depot_goods):
            state.stack.append(Frame("ship"))
        advance_bridge(state, seat)
    elif t.type == "building":
        building(state, seat, t.building)


def building(state: BurgundyState, seat: int, kind: str) -> None:
    player = state.players[seat]
    scoring = table()["scoring"]
    if kind == "watchtower":
        gain(player, "watchtowers", scoring["watchtower"])
    elif kind == "boarding":
        player.workers += scoring["boarding_workers"]
    elif kind == "bank":
        player.silver += scoring["bank_silverlings"]
    elif kind == "warehouse":
        if player.goods:
            state.stack.append(Frame("warehouse"))
    elif kind == "townhall":
        if any(open_hexes(player, t) for t in player.storage):
            state.stack.append(Frame("townhall"))
    elif board_tiles(state, TAKE_EFFECTS[kind]):
        state.stack.append(Frame("effect_take", types=TAKE_EFFECTS[kind], source=kind))


def score_animal(player: Player, hex_id: int) -> None:
    """The new tile's animals, plus every earlier tile of that animal in the same pasture."""
    new = tile(player.estate[hex_id])
    scoring = [
        tile(player.estate[h])
        for h in area_of(hex_id)
        if h in player.estate and tile(player.estate[h]).animal == new.animal
    ]
    points = sum(t.value for t in scoring)
    if knows(player, 7):
        points += len(scoring)
    gain(player, "animals", points)


def score_completion(state: BurgundyState, seat: int, hex_id: int) -> None:
    """A filled area scores by size plus the phase bonus; a filled colour takes a bonus tile."""
    player = state.players[seat]
    scoring = table()["scoring"]
    area = area_of(hex_id)
    if all(h in player.estate for h in area):
        points = scoring["area_by_size"][len(area) - 1]
        bonus = scoring["phase_bonus"][PHASES[state.phase]]
        gain(player, "areas", points)
        gain(player, "phase bonus", bonus)
        event = m(
            "log.completes_scoring",
            seat=seat_name(seat),
            space=space_name(components().estate.hexes[hex_id].type),
            spaces=count("spaces", len(area)),
            points=count("points", points),
            bonus=bonus,
        )
        say(state, event)
    colour = components().estate.hexes[hex_id].type
    hexes = [h for h, x in components().estate.hexes.items() if x.type == colour]
    if all(h in player.estate for h in hexes) and state.bonus_left[colour]:
        size = state.bonus_left[colour].pop(0)
        player.bonus.append(f"{colour}:{size}")
        gain(player, "bonus tiles", scoring[f"bonus_{size}"][str(state.num_players)])
        bonus = m(f"bonus.{size}", type=type_name(colour))
        say(state, m("log.bonus", seat=seat_name(seat), bonus=bonus))


def load_goods(state: BurgundyState, seat: int, depots: list[int], kinds: list[int]) -> None:
    """Move every goods tile of `kinds` from the chosen depots to the player's storage."""
    player = state.players[seat]
    taken = []
    for d in depots:
        keep = []
        for g in state.depot_goods[d - 1]:
            if g in kinds:
                player.goods[g] = player.goods.get(g, 0) + 1
                taken.append(g)
            else:
                keep.append(g)
        state.depot_goods[d - 1] = keep
    who = seat_name(seat)
    if taken:
        goods = goods_stacks(taken)
        say(state, m("log.ships_goods", seat=who, goods=goods, depots=depots, n=len(depots)))
    elif depots:
        say(state, m("log.ships_no_room", seat=who, depots=depots, n=len(depots)))
    else:
        say(state, m("log.ships_nothing", seat=who))


def ship_goods(state: BurgundyState, seat: int, depots: list[int]) -> None:
    """Take the goods of the depots within the limit of 3 kinds; ask which when over it."""
    player = state.players[seat]
    found = sorted({g for d in depots for g in state.depot_goods[d - 1]})
    held = [g for g in found if g in player.goods]
    new = [g for g in found if g not in player.goods]
    room = table()["goods"]["storage_kinds"] - len(player.goods)
    if len(new) <= room:
        load_goods(state, seat, depots, found)
    elif room == 0:
        load_goods(state, seat, depots, held)
    else:
        state.stack.append(Frame("shipgoods", depots=depots, goods=new))


def advance_bridge(state: BurgundyState, seat: int) -> None:
    """Move one space forward on the turn order track, on top of any stack there."""
    for i, stack in enumerate(state.bridge):
        if seat in stack:
            stack.remove(seat)
            target = min(i + 1, len(state.bridge) - 1)
            state.bridge[target].insert(0, seat)
            return


def phase_income(state: BurgundyState) -> None:
    """End of a phase: a silverling per mine (and a worker per mine with knowledge 2)."""
    for seat, player in enumerate(state.players):
        mines = sum(1 for t in player.estate.values() if tile(t).type == "mine")
        player.silver += mines
        if knows(player, 2):
            player.workers += mines
        if mines:
            say(state, m("log.mines", seat=seat_name(seat), silver=count("silverlings", mines)))
