"""Setup, phases A–E, five rounds each, and whose turn it is."""

from __future__ import annotations

from functools import cache

from meeple_hall.games.burgundy.data import PHASES, TYPES, components
from meeple_hall.games.burgundy.effects import phase_income, say
from meeple_hall.games.burgundy.rules import can_buy, free_dice, table
from meeple_hall.games.burgundy.state import BurgundyState, Player
from meeple_hall.games.burgundy.words import goods, m, seat_name
from meeple_hall.games.core import Msg, Rng


def new_game(num_players: int, rng: Rng, tiebreak: str, start: str) -> BurgundyState:
    comp = components()
    spec = table()
    # "Roll a die to determine the starting player"; the table may also seat them first.
    first = rng.below(num_players) if start == "random" else 0
    clockwise = [(first + k) % num_players for k in range(num_players)]
    supply = {back: rng.shuffled(ids) for back, ids in comp.piles().items()}
    goods_spec = spec["goods"]
    kinds = range(1, goods_spec["kinds"] + 1)
    goods = rng.shuffled([k for k in kinds for _ in range(goods_spec["per_kind"])])
    per_phase = goods_spec["per_phase"]
    phase_goods = [goods[i * per_phase : (i + 1) * per_phase] for i in range(len(PHASES))]
    rest = goods[len(PHASES) * per_phase :]
    players = []
    for seat in range(num_players):
        player = Player(
            silver=spec["players"]["start_silverlings"],
            workers=spec["players"]["start_workers"][clockwise.index(seat)],
        )
        player.estate[comp.estate.start] = supply["castle"].pop()
        dealt, rest = rest[: goods_spec["per_player"]], rest[goods_spec["per_player"] :]
        for g in dealt:
            player.goods[g] = player.goods.get(g, 0) + 1
        players.append(player)
    bridge: list[list[int]] = [[] for _ in range(spec["players"]["bridge_spaces"])]
    bridge[0] = clockwise
    state = BurgundyState(
        rng=rng,
        players=players,
        tiebreak=tiebreak,
        supply=supply,
        phase_goods=phase_goods,
        depots=[[-1] * 4 for _ in range(6)],
        depot_goods=[[] for _ in range(6)],
        black=[-1] * spec["black_depot"][str(num_players)],
        bridge=bridge,
        bonus_left={t: ["large", "small"] for t in TYPES},
        goods_out=rest,
    )
    say(state, m("log.starts", seat=seat_name(first)))
    start_phase(state)
    return state


def start_phase(state: BurgundyState) -> None:
    """Clear the hex tiles left on the board, refill the depots, lay out the phase's goods."""
    n = state.num_players
    for depot in state.depots:
        state.box.extend(t for t in depot if t >= 0)
        depot[:] = [-1] * 4
    state.box.extend(t for t in state.black if t >= 0)
    state.black = [-1] * len(state.black)
    depots = table()["depots"]
    for d in range(6):
        for space, (kind, min_players) in enumerate(depots[str(d + 1)]):
            if min_players > n:
                continue
            kind = space_kind(kind, n, state.phase)
            if state.supply[kind]:
                state.depots[d][space] = state.supply[kind].pop()
    for space in range(len(state.black)):
        if state.supply["black"]:
            state.black[space] = state.supply["black"].pop()
    state.round_goods = state.phase_goods[state.phase]
    state.phase_goods[state.phase] = []
    say(state, m("log.phase", phase=PHASES[state.phase]))
    state.round = 0
    start_round(state)


def space_kind(kind: str, num_players: int, phase: int) -> str:
    """The tile colour a depot space takes: depot 6's dark green space holds a mine instead
    of a castle in phases B and D of a 3-player game (2011 rules, phase setup note)."""
    if kind != "castle_or_mine":
        return kind
    if num_players == 4:
        return "castle"
    return table()["depots"]["castle_or_mine_3p"][PHASES[phase]]


def turn_order(state: BurgundyState) -> list[int]:
    """Furthest along the bridge first; in a stack, top first."""
    return [seat for stack in reversed(state.bridge) for seat in stack]


def start_round(state: BurgundyState) -> None:
    state.round += 1
    state.order = turn_order(state)
    state.turn = 0
    for player in state.players:
        player.dice = [state.rng.between(1, 6), state.rng.between(1, 6)]
        player.used = [False, False]
        player.bought = False
    state.white = state.rng.between(1, 6)
    kind = state.round_goods.pop(0)
    state.depot_goods[state.white - 1].append(kind)
    say(state, m("log.round", round=state.round, white=state.white, goods=goods(kind)))
    say(state, to_play(state.active))


@cache
def to_play(seat: int) -> Msg:
    """The event of a seat's turn beginning (made once a seat: every turn's end writes it)."""
    return m("log.to_play", seat=seat_name(seat))


def advance(state: BurgundyState) -> None:
    """After a step: end the turn when nothing is left to do, then the round and the phase."""
    seat = state.active
    if state.stack or free_dice(state.players[seat]) or can_buy(state, seat):
        return
    end_turn(state)


def end_turn(state: BurgundyState) -> None:
    state.turn += 1
    if state.turn < state.num_players:
        say(state, to_play(state.active))
        return
    if state.round < 5:
        start_round(state)
        return
    phase_income(state)
    if state.phase == len(PHASES) - 1:
        state.over = True
        say(state, m("log.over"))
        return
    state.phase += 1
    start_phase(state)
