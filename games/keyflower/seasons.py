"""Setup, the start of each season and the end-of-season sequence, in the rulebook's order."""

from __future__ import annotations

from meeple_hall.games.core import Msg, Option, Rng
from meeple_hall.games.core.messages import jsonable
from meeple_hall.games.core.steps import Chosen, Offer
from meeple_hall.games.keyflower import supply
from meeple_hall.games.keyflower.components import SEASONS, season_tiles, setup_table, spec
from meeple_hall.games.keyflower.offers import Ask, KeyflowerStep, offer, option, tile_option
from meeple_hall.games.keyflower.placing import abilities, winner
from meeple_hall.games.keyflower.scoring import score
from meeple_hall.games.keyflower.state import KeyflowerState, Move, Player, Tile
from meeple_hall.games.keyflower.transport import UPGRADABLE, upgrade
from meeple_hall.games.keyflower.words import (
    amount,
    amounts,
    count,
    group,
    item,
    m,
    season_name,
    seat_name,
    tile_label,
    tile_name,
)


def clockwise(state: KeyflowerState, first: int) -> list[int]:
    n = state.num_players
    return [(first + i) % n for i in range(n)]


def setup(num_players: int, rng: Rng) -> KeyflowerState:
    table = setup_table()
    counts = table.by_players[num_players]
    homes = rng.sample([f"H{i}" for i in range(1, 7)], num_players)
    boats = [t for t in season_tiles("boat") if spec(t).min_players <= num_players]
    turn_order = sorted(
        (t for t in season_tiles("turn_order") if str(num_players) in (spec(t).sides or {})),
        key=lambda t: spec(t).number,
    )
    start_tile = next(t for t in turn_order if (spec(t).sides or {})[str(num_players)] == "start")
    state = KeyflowerState(
        rng=rng,
        num_players=num_players,
        players=[Player(home=h, screen={}, skills={}, village=[h]) for h in homes],
        tiles={h: Tile(h, placed=True) for h in homes},
        bag=dict(table.workers),
        green=table.green,
        supply=dict(table.resources),
        skill_pile=dict(table.skills),
        summer_stack=rng.shuffled(season_tiles("summer")),
        autumn_stack=rng.shuffled(season_tiles("autumn")),
        turn_order=turn_order,
        start_tile=start_tile,
        boats=boats,
        boat_workers={b: {} for b in boats},
        boat_skills={b: {} for b in boats},
    )
    for t in [*turn_order, *boats]:
        state.tiles[t] = Tile(t)
    for p in state.players:
        p.screen = supply.draw_workers(state, table.start_workers)
    state.start = min(range(num_players), key=lambda s: int(homes[s][1:]))
    winter = rng.shuffled(season_tiles("winter"))
    for i, p in enumerate(state.players):
        each = counts["winter_each"]
        p.winter_hand = sorted(winter[i * each : (i + 1) * each])
    state.offer = rng.sample(season_tiles("spring"), counts["season_tiles"])
    begin_season(state)
    return state


def begin_season(state: KeyflowerState) -> None:
    name = SEASONS[state.season]
    n = setup_table().by_players[state.num_players]["season_tiles"]
    if name in ("summer", "autumn"):
        stack = state.summer_stack if name == "summer" else state.autumn_stack
        state.offer, stack[:] = stack[:n], []
    if name != "winter":
        for t in state.offer:
            side = "ab"[state.rng.below(2)] if spec(t).is_summer_boat else ""
            state.tiles[t] = Tile(t, side=side)
        load_boats(state, name)
    state.current = state.start
    state.passes = 0
    state.move = Move()
    state.phase = "winter" if name == "winter" else "play"
    state.log.append(m("log.begins", season=season_name(name), seat=seat_name(state.start)))


def load_boats(state: KeyflowerState, season: str) -> None:
    """Workers one at a time boat by boat while the bag lasts, then skill tiles."""
    wanted = {b: (spec(b).contents or {})[season][0] for b in state.boats}
    while any(wanted.values()) and sum(state.bag.values()) > 0:
        for b in state.boats:
            if wanted[b]:
                supply.merge(state.boat_workers[b], supply.draw_workers(state, 1))
                wanted[b] -= 1
    for b in state.boats:
        supply.merge(
            state.boat_skills[b], supply.draw_skills(state, (spec(b).contents or {})[season][1])
        )


def reveal_winter(state: KeyflowerState) -> None:
    chosen = [t for p in state.players for t in p.winter_pick]
    state.offer = state.rng.shuffled(chosen)
    for p in state.players:
        p.winter_chosen = len(p.winter_pick)
        p.winter_hand, p.winter_pick = [], []
    for t in state.offer:
        state.tiles[t] = Tile(t)
    counts = [
        m("seat_count", seat=seat_name(i), n=p.winter_chosen) for i, p in enumerate(state.players)
    ]
    state.log.append(m("log.revealed", counts=counts))
    state.phase = "play"


def end_season(state: KeyflowerState) -> None:
    """The rulebook's "End of season", step by step; then the boats are taken."""
    _return_losing_bids(state)
    _remove_tiles_nobody_bid_for(state)
    _hand_out_won_tiles(state)
    _empty_villages(state)
    _settle_turn_order(state)
    if SEASONS[state.season] == "winter":
        state.turn_order = []
    next_boat(state)


def _return_losing_bids(state: KeyflowerState) -> None:
    """1. Unsuccessful bids go back behind their screens."""
    for tid in [*state.offer, *state.turn_order]:
        tile = state.tiles[tid]
        won = winner(tile)
        for g in tile.bids:
            if g.seat != won:
                supply.add(state.players[g.seat].screen, g.colour, g.count)
        tile.bids = [g for g in tile.bids if g.seat == won]


def _remove_tiles_nobody_bid_for(state: KeyflowerState) -> None:
    """2. Village tiles nobody bid for leave the game; their workers go to the bag."""
    for tid in list(state.offer):
        tile = state.tiles[tid]
        if not tile.bids:
            for g in tile.workers:
                supply.to_bag(state, g.colour, g.count)
            del state.tiles[tid]
            state.offer.remove(tid)


def _hand_out_won_tiles(state: KeyflowerState) -> None:
    """3. From the start player clockwise: won tiles with their workers; winning bids to
    the bag."""
    for seat in clockwise(state, state.start):
        p = state.players[seat]
        for tid in state.offer:
            tile = state.tiles[tid]
            if winner(tile) != seat:
                continue
            for g in tile.workers:
                supply.add(p.screen, g.colour, g.count)
            for g in tile.bids:
                supply.to_bag(state, g.colour, g.count)
            tile.workers, tile.bids, tile.uses = [], [], []
            p.to_place.append(tid)
            state.log.append(m("log.wins", seat=seat_name(seat), tile=tile_name(tid)))
    state.offer = []


def _empty_villages(state: KeyflowerState) -> None:
    """4. Workers in one's own village go back behind the screen."""
    for p in state.players:
        for tid in p.village:
            tile = state.tiles[tid]
            for g in tile.workers:
                supply.add(p.screen, g.colour, g.count)
            tile.workers, tile.uses = [], []


def _settle_turn_order(state: KeyflowerState) -> None:
    """5. Turn-order tiles: their winners pick boats first, the start keyple's winner starts
    the next season; in winter the tiles go into the winners' villages. Winning bids go to
    the bag first: boat 1a draws after them."""
    won = [(tid, winner(state.tiles[tid])) for tid in state.turn_order]
    for tid in state.turn_order:
        for g in state.tiles[tid].bids:
            supply.to_bag(state, g.colour, g.count)
        state.tiles[tid].bids = []
    new_start = dict(won).get(state.start_tile)
    order: list[int] = []
    for tid, seat in won:
        if seat is None:
            continue
        if seat not in order:
            order.append(seat)
        if SEASONS[state.season] == "winter":
            state.players[seat].to_place.append(tid)
    first = state.start if new_start is None else new_start
    order += [s for s in clockwise(state, first) if s not in order]
    state.start_won = new_start is not None
    state.start = first
    state.pick_order = order
    state.boats_left = list(state.boats)
    state.phase = "boats"


def next_boat(state: KeyflowerState) -> None:
    """Resolve picks with only one boat left; move on when everyone has a boat."""
    while state.pick_order and len(state.boats_left) == 1:
        take_boat(state, state.pick_order[0], state.boats_left[0])
    if not state.pick_order:
        if not state.start_won:
            state.start = (state.start + 1) % state.num_players
        state.phase = "place"
        after_placing(state)


def take_boat(state: KeyflowerState, seat: int, boat: str) -> None:
    state.pick_order.remove(seat)
    state.boats_left.remove(boat)
    p = state.players[seat]
    if SEASONS[state.season] == "winter":
        p.boat = boat
        p.to_place.append(boat)
        state.log.append(m("log.takes_boat", seat=seat_name(seat), tile=tile_name(boat)))
    else:
        supply.merge(p.screen, state.boat_workers[boat])
        supply.merge(p.skills, state.boat_skills[boat])
        state.log.append(
            m(
                "log.takes_from_boat",
                seat=seat_name(seat),
                workers=group(state.boat_workers[boat], "worker"),
                skills=group(state.boat_skills[boat], "skill_tile"),
                tile=tile_name(boat),
            )
        )
        state.boat_workers[boat], state.boat_skills[boat] = {}, {}
    # Boats 1a and 1b work "at the end of summer and autumn": a summer boat won this summer,
    # taken in step 3, already counts when the boats are emptied in step 5.
    own = abilities(state, seat, won=True)
    if "1a" in own:
        drawn = supply.draw_workers(state, 2)
        supply.merge(p.screen, drawn)
        state.log.append(
            m("log.boat_1a", seat=seat_name(seat), workers=count("worker", sum(drawn.values())))
        )
    if "1b" in own:
        green = supply.take_green(state, 1)
        supply.add(p.screen, "green", green)
        state.log.append(
            m("log.boat_1b", seat=seat_name(seat), workers=count("green_worker", green))
        )


def after_placing(state: KeyflowerState) -> None:
    """When every new tile has its place: the next season, or Flipper and the end."""
    if any(p.to_place for p in state.players):
        return
    if SEASONS[state.season] != "winter":
        state.season += 1
        begin_season(state)
    elif flippable(state):
        state.phase = "flip"
    else:
        finish(state)


def flipper_seat(state: KeyflowerState) -> int | None:
    return next(
        (
            s
            for s, p in enumerate(state.players)
            if p.boat and spec(p.boat).front["effect"] == "flipper"
        ),
        None,
    )


def flippable(state: KeyflowerState) -> list[str]:
    seat = flipper_seat(state)
    if seat is None:
        return []
    return [
        t
        for t in state.players[seat].village
        if spec(t).kind in UPGRADABLE
        and spec(t).back is not None
        and not spec(t).is_summer_boat
        and not state.tiles[t].upgraded
    ]


def finish(state: KeyflowerState) -> None:
    state.phase = "over"
    state.final = []
    for seat in range(state.num_players):
        breakdown, lines = score(state, seat)
        state.final.append({"breakdown": breakdown, "lines": jsonable(lines)})
    state.log.append(m("log.over"))


# -- the steps between turns ------------------------------------------------------------------
class ChooseWinterTiles(KeyflowerStep):
    """Start of winter: every player at once chooses one or more winter tiles from the hand
    to put up for auction (rulebook, "Start of season")."""

    kind = "winter"

    def offer(self, state: KeyflowerState, frame: Ask) -> Offer:
        hand = state.players[frame.seat].winter_hand
        return offer(m("prompt.winter"), (tile_option(t) for t in hand), most=len(hand))

    def perform(self, state: KeyflowerState, frame: Ask, chosen: Chosen) -> None:
        state.players[frame.seat].winter_pick = list(chosen.ids)
        if all(p.winter_pick for p in state.players):
            reveal_winter(state)


class ChooseBoat(KeyflowerStep):
    """End of season: in turn order, each player takes a boat (its workers and skill
    tiles; in winter, the boat itself, which scores)."""

    kind = "boat"

    def offer(self, state: KeyflowerState, frame: Ask) -> Offer:
        winter = SEASONS[state.season] == "winter"
        return offer(
            m("prompt.boat_winter" if winter else "prompt.boat"),
            (_boat_option(state, b, winter) for b in state.boats_left),
        )

    def perform(self, state: KeyflowerState, frame: Ask, chosen: Chosen) -> None:
        take_boat(state, frame.seat, chosen.id)
        next_boat(state)


def _boat_option(state: KeyflowerState, boat: str, winter: bool) -> Option:
    if winter:
        return tile_option(
            boat, m("label.boat_scores", tile=tile_label(boat), scoring=_boat_scoring(boat))
        )
    on_board = state.boat_workers[boat]
    workers = amounts(on_board) if any(on_board.values()) else m("none.worker")
    skills = {k: n for k, n in sorted(state.boat_skills[boat].items()) if n}
    kinds = [amount(n, k) if n > 1 else item(k) for k, n in skills.items()]
    tiles = (
        m("label.skill_tiles", n=sum(skills.values()), kinds=kinds)
        if kinds
        else m("none.skill_tile")
    )
    label = m("label.boat_brings", tile=tile_label(boat), workers=workers, skills=tiles)
    return tile_option(boat, label)


def _boat_scoring(boat: str) -> Msg:
    """A winter boat's end scoring, as the rulebook's "Boats" describes it."""
    e = spec(boat).front
    return m(f"boat_scoring.{e['effect']}", per=e.get("per", 0), points=e.get("points", 0))


class FlipperUpgrade(KeyflowerStep):
    """The winter boat Flipper: upgrade one tile for free before scoring (or none)."""

    kind = "flip"

    def offer(self, state: KeyflowerState, frame: Ask) -> Offer:
        tiles = [tile_option(t) for t in flippable(state)]
        return offer(m("prompt.flip"), (*tiles, option("none", m("label.no_upgrade"))))

    def perform(self, state: KeyflowerState, frame: Ask, chosen: Chosen) -> None:
        if chosen.id != "none":
            upgrade(state, frame.seat, chosen.id)
        finish(state)


STEPS = (ChooseWinterTiles(), ChooseBoat(), FlipperUpgrade())
