"""Small tools to set a table up exactly as a rulebook example describes it."""

from __future__ import annotations

from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.data import components
from meeple_hall.games.core import Action


def tile_ids(face: str) -> list[int]:
    return [t.id for t in components().tiles if t.face == face]


def tid(face: str, nth: int = 0) -> int:
    return tile_ids(face)[nth]


def table(num_players: int = 2, seed: int = 1, tiebreak: str = "written"):
    """A fresh game in phase A, round 1, seat 0 to play, with empty storage."""
    state = engine.new(num_players, seed=seed, options={"tiebreak": tiebreak, "start": "seat1"})
    assert state.active == 0
    return state


def setup_player(
    state, seat=0, dice=None, storage=(), workers=None, silver=None, estate=None, goods=None
):
    player = state.players[seat]
    if dice is not None:
        player.dice = list(dice)
        player.used = [False, False]
    player.storage = [tid(f) if isinstance(f, str) else f for f in storage]
    if workers is not None:
        player.workers = workers
    if silver is not None:
        player.silver = silver
    if estate:
        for hex_id, face in estate.items():
            player.estate[hex_id] = tid(face) if isinstance(face, str) else face
    if goods is not None:
        player.goods = dict(goods)
    return player


def play(state, *choices):
    """Answer the pending decision(s) in order; a tuple answers one multi-choice decision."""
    for choice in choices:
        seat = engine.decisions(state)[0].seat
        picked = choice if isinstance(choice, tuple) else (choice,)
        state = engine.apply(state, Action(seat, picked))
    return state


def options(state):
    return [o.id for o in engine.decisions(state)[0].options]


def decision(state):
    return engine.decisions(state)[0]
