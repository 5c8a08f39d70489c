"""The four actions and what each placed tile does, with scoring during play."""

from __future__ import annotations

from games.burgundy.data import PHASES, components
from games.burgundy.rules import area_of, board_tiles, knows, open_hexes, table, tile
from games.burgundy.state import BurgundyState, Frame, Player

# Buildings that let the player take a tile of these types from a numbered depot.
TAKE_EFFECTS = {
    "market": ["ship", "animal"],
    "carpenter": ["building"],
    "church": ["mine", "knowledge", "castle"],
}


def gain(player: Player, category: str, points: int) -> None:
    if points:
        player.points[category] = player.points.get(category, 0) + points


def say(state: BurgundyState, text: str) -> None:
    state.log.append(text)
    del state.log[:-12]


def name(seat: int) -> str:
    return f"Seat {seat + 1}"


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
    say(state, f"{name(seat)} takes {tile(tile_id).face}")


def discard(state: BurgundyState, seat: int, frame: Frame, old: int) -> None:
    player = state.players[seat]
    player.storage.remove(old)
    state.box.append(old)
    player.storage.append(frame.tile)
    say(state, f"{name(seat)} discards {tile(old).face}")


def sell(state: BurgundyState, seat: int, kind: int) -> None:
    player = state.players[seat]
    count = player.goods.pop(kind)
    player.sold[kind] = player.sold.get(kind, 0) + count
    gain(player, "goods sold", count * table()["scoring"]["sell_per_tile"][str(state.num_players)])
    player.silver += 2 if knows(player, 3) else 1
    if knows(player, 4):
        player.workers += 1
    say(state, f"{name(seat)} sells {count} goods {kind}")


def take_workers(state: BurgundyState, seat: int) -> None:
    player = state.players[seat]
    player.workers += 4 if knows(player, 14) else table()["scoring"]["workers_action"]
    if knows(player, 13):
        player.silver += 1
    say(state, f"{name(seat)} takes workers")


def place(state: BurgundyState, seat: int, tile_id: int, hex_id: int) -> None:
    """Put a stored tile on the estate, score what it completes, then carry out its effect."""
    player = state.players[seat]
    player.storage.remove(tile_id)
    player.estate[hex_id] = tile_id
    t = tile(tile_id)
    say(state, f"{name(seat)} places {t.face} on {hex_id}")
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
        gain(player, "areas", scoring["area_by_size"][len(area) - 1])
        gain(player, "phase bonus", scoring["phase_bonus"][PHASES[state.phase]])
        say(state, f"{name(seat)} completes an area of {len(area)}")
    colour = components().estate.hexes[hex_id].type
    hexes = [h for h, x in components().estate.hexes.items() if x.type == colour]
    if all(h in player.estate for h in hexes) and state.bonus_left[colour]:
        size = state.bonus_left[colour].pop(0)
        player.bonus.append(f"{colour}:{size}")
        gain(player, "bonus tiles", scoring[f"bonus_{size}"][str(state.num_players)])
        say(state, f"{name(seat)} takes the {size} {colour} bonus tile")


def load_goods(state: BurgundyState, seat: int, depots: list[int], kinds: list[int]) -> None:
    """Move every goods tile of `kinds` from the chosen depots to the player's storage."""
    player = state.players[seat]
    for d in depots:
        keep = []
        for g in state.depot_goods[d - 1]:
            if g in kinds:
                player.goods[g] = player.goods.get(g, 0) + 1
            else:
                keep.append(g)
        state.depot_goods[d - 1] = keep
    where = f"from depot {'+'.join(map(str, depots))}" if depots else "from no depot"
    say(state, f"{name(seat)} ships goods {where}")


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
            say(state, f"{name(seat)} earns {mines} from mines")
