"""Small tools to set up Keyflower positions and play moves as typed tokens."""

from __future__ import annotations

from meeple_hall.games.core import Action
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.state import KeyflowerState, Tile


def play(state: KeyflowerState, seat: int, *tokens: str) -> KeyflowerState:
    """Apply one single-choice decision per token, as a player typing `bid S07 red 2`."""
    for token in tokens:
        state = engine.apply(state, Action(seat, (token,)))
    return state


def options(state: KeyflowerState, seat: int | None = None) -> list[str]:
    """The option ids offered, without the "back" every half-made placement offers."""
    pending = engine.decisions(state)
    d = pending[0] if seat is None else next(d for d in pending if d.seat == seat)
    return [o.id for o in d.options if o.id != "back"]


def table(num_players: int = 3, seed: int = 1, offer: tuple[str, ...] = ()) -> KeyflowerState:
    """A fresh spring table with known screens (4 of each colour), seat 0 to start."""
    state = engine.new(num_players, seed)
    for p in state.players:
        for colour, n in p.screen.items():
            state.bag[colour] = state.bag.get(colour, 0) + n
        p.screen = {"blue": 4, "red": 4, "yellow": 4}
        for colour in ("blue", "red", "yellow"):
            state.bag[colour] -= 4
    if offer:
        for t in state.offer:
            del state.tiles[t]
        state.offer = list(offer)
        for t in offer:
            state.tiles[t] = Tile(t)
    state.start = state.current = 0
    return state


def give_tile(state: KeyflowerState, seat: int, tile_id: str, q: int, r: int, rot: int = 0) -> None:
    """Put a tile straight into a seat's village at a cell (for setting up positions)."""
    state.tiles[tile_id] = Tile(tile_id, placed=True, q=q, r=r, rot=rot)
    state.players[seat].village.append(tile_id)


def boat_picking(side: str) -> KeyflowerState:
    """Summer's end at 2 players, boats emptied: seat 0 holds summer boat 1<side> and
    picks a boat first."""
    s = table(num_players=2)
    s.season = 1
    give_tile(s, 0, "U09", 5, 5)
    s.tiles["U09"].side = side
    s.pick_order, s.boats_left = [0, 1], list(s.boats)
    s.boat_workers = {b: {} for b in s.boats}
    s.boat_skills = {b: {} for b in s.boats}
    return s
