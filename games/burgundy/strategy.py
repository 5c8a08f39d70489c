"""The `good` AI level for The Castles of Burgundy: a quick heuristic player.

It looks one die ahead. Every legal use of a die (take a tile, place a tile, sell goods, take
workers) is carried out on a copy of the state and the result is scored by `value`, an
estimate of the seat's final points that includes points not yet scored: goods it may still
sell, tiles in storage it may still place, areas half filled, mines that keep paying, workers
and silverlings. The other die, still free, is valued by a quick guess of its best use, so the
player keeps the die it can use better. The steps of one die use (die, action, tile or hex)
are separate decisions; each step runs the same search restricted to what is already chosen,
so the steps follow one plan. Follow-ups (ship, warehouse, market/church/carpenter, town hall,
castle, discard) are decided by the same search on their own.

Rules cited: the 2019 English rulebook in shared/rules/en (page numbers of its print) and the
2011 rules in shared/rules (the authority); the numbers come from data/burgundy.
"""

from __future__ import annotations

import copy
import random
from itertools import combinations
from typing import Any

from meeple_hall.games.burgundy import effects
from meeple_hall.games.burgundy.data import PHASES, TYPES, components
from meeple_hall.games.burgundy.rules import (
    Play,
    area_of,
    board_tiles,
    free_dice,
    knowledge,
    open_hexes,
    plays,
    table,
    tile,
    worker_cost,
)
from meeple_hall.games.burgundy.scoring import knowledge_points
from meeple_hall.games.burgundy.state import CASTLE_DIE, BurgundyState, Frame, Player, clone
from meeple_hall.games.burgundy.steps import STEPS
from meeple_hall.games.burgundy.turn import place_id, take_id
from meeple_hall.games.core import Decision

ROUNDS = len(PHASES) * 5
# A turn's dice are rolled before it starts and nothing in it is bid or hidden, so `value`
# where the seat's turn ends is a sound rating of the whole turn: the strong level starts
# from the turn rated best rather than from this player's one-die-ahead choice (games/ai/
# mcts.py, "The prior"). Measured at 0.5 s a decision (a busy machine's share of 2 s), 16
# games: +26 points of margin to good on the same deals, against +14 without it.
RATED_TURNS = True
STORED = 0.5  # a stored tile is worth this share of what placing it would bring
ACTION = 0.0  # less this for the die action placing it still needs

# Knowledge tiles with a lasting effect (2019 rulebook pp.9-11): what one is worth over a
# whole game, scaled down as the game runs out.
LASTING = {1: 3, 2: 5, 3: 3, 4: 4, 5: 3, 6: 3, 7: 5, 8: 6, 9: 3, 10: 3, 11: 3, 12: 4, 13: 3, 14: 4}
# Monasteries scoring at the end (pp.10-11): what they may still gain while the game lasts.
END_GROWTH = {15: 4.0, 24: 5.0, 25: 5.0, 26: 3.0}
BUILDING_EFFECT = {  # rulebook p.6, "The buildings": what placing each gives at once
    "watchtower": 4.0,  # 4 victory points
    "boarding": 0.0,  # 4 workers, valued as workers by `value`
    "bank": 0.0,  # 2 silverlings, valued as silver by `value`
    "carpenter": 2.5,  # take a building from any depot
    "church": 3.0,  # take a mine, monastery or castle
    "market": 2.5,  # take a ship or an animal
    "warehouse": 1.0,  # sell one kind of goods without a die (valued by the search)
    "townhall": 2.5,  # place another stored tile
}


class Context:
    """What stays fixed during one decision's search: the seat and how much game is left."""

    def __init__(self, state: BurgundyState, seat: int) -> None:
        self.seat = seat
        # rounds after the current one, and the fraction of the game still to come
        self.future = ROUNDS - (state.phase * 5 + state.round)
        self.frac = min(1.0, self.future / 12)
        self.phase = state.phase
        self.n = state.num_players
        spec = table()["scoring"]
        self.sell = spec["sell_per_tile"][str(self.n)]
        # Rulebook p.8, end of the game: each unsold goods tile 1 point, each silverling 1,
        # every 2 workers 1. While the game runs they are worth more: silver buys from the
        # black depot, workers turn dice, goods may still be sold for 2/3/4 points each.
        self.silver = 1.0 + 0.6 * self.frac
        self.worker = 0.5 + 0.9 * self.frac
        sell_chance = min(0.8, 0.3 * self.future)
        self.goods = 1.0 + (self.sell - 1.0) * sell_chance
        self._known: dict[frozenset, frozenset[int]] = {}
        self._open: dict[tuple[frozenset, int], list[int]] = {}
        self._potential: dict[tuple[frozenset, int, int], float] = {}
        self._storage: dict[tuple[frozenset, tuple[int, ...], int], float] = {}

    # The search meets the same duchies many times: what depends only on the estate is kept.
    def known(self, p: Player) -> frozenset[int]:
        key = frozenset(p.estate.items())
        if key not in self._known:
            self._known[key] = knowledge(p)
        return self._known[key]

    def open_hexes(self, p: Player, tile_id: int) -> list[int]:
        key = (frozenset(p.estate.items()), tile_id)
        if key not in self._open:
            self._open[key] = open_hexes(p, tile_id)
        return self._open[key]


# -- the value of a position -------------------------------------------------------------------
def evaluate(state: BurgundyState, seat: int) -> float:
    """The seat's estimated final points (for searches that cut their playouts short)."""
    return value(state, Context(state, seat))


def phase(state: BurgundyState) -> int:
    """The phase A–E: at its end come the mines' income and the new goods and tiles
    (rulebook p.8, "End of a phase"), so a search's cut-off playouts stop there."""
    return state.phase


def value(state: BurgundyState, ctx: Context) -> float:
    """An estimate of the seat's final score from this position."""
    p = state.players[ctx.seat]
    v = float(p.score) + knowledge_points(p)
    v += ctx.goods * sum(p.goods.values())
    v += ctx.silver * p.silver + ctx.worker * p.workers
    known = ctx.known(p)
    # Rulebook p.8, "End of a phase": a silverling per mine at the end of each phase (and a
    # worker per mine with monastery 2), so a mine keeps paying until phase E ends.
    mines = sum(1 for t in p.estate.values() if tile(t).type == "mine")
    phases_left = len(PHASES) - ctx.phase
    v += mines * phases_left * (1.0 + (ctx.worker if 2 in known else 0.0))
    v += sum(LASTING.get(k, 0) for k in known) * ctx.frac
    v += sum(END_GROWTH.get(k, 4.0 if 16 <= k <= 23 else 0.0) for k in known) * ctx.frac
    v += _estate_progress(state, p, ctx)
    v += _storage(state, p, ctx)
    return v + _frames(state, ctx)


def _storage(state: BurgundyState, p: Player, ctx: Context) -> float:
    """Stored tiles are worth part of what placing them would bring (each still needs a die
    action, rulebook p.5). Two tiles cannot both fill the same hex: each stored tile gets its
    own hex, best first, and a tile left without one counts for little."""
    if not p.storage:
        return 0.0
    key = (frozenset(p.estate.items()), tuple(sorted(p.storage)), _richest(state))
    if key in ctx._storage:
        return ctx._storage[key]
    options = sorted(
        ((placement(state, p, t, h, ctx), t, h) for t in p.storage for h in ctx.open_hexes(p, t)),
        reverse=True,
    )
    placed: dict[int, float] = {}
    used: set[int] = set()
    for gain, t, h in options:
        if t not in placed and h not in used:
            placed[t] = gain
            used.add(h)
    total = sum(_stored(placed.get(t, 0.0), state, p, t, ctx) for t in p.storage)
    found = total * min(1.0, ctx.future / 2)
    ctx._storage[key] = found
    return found


def _stored(gain: float, state: BurgundyState, p: Player, tile_id: int, ctx: Context) -> float:
    """A stored tile: most of what placing it brings, less the die action it still needs."""
    return max(0.3 * base(state, p, tile_id, ctx), STORED * gain - ACTION)


def _richest(state: BurgundyState) -> int:
    return max(len(g) for g in state.depot_goods)


def _estate_progress(state: BurgundyState, p: Player, ctx: Context) -> float:
    """Half-filled areas and colours: rulebook p.7, a completed area scores 1-36 by size plus
    the phase bonus (10 in A down to 2 in E); the first to fill a colour takes the large bonus
    tile, the second the small one."""
    spec = table()["scoring"]
    estate = components().estate
    seen: set[tuple[int, ...]] = set()
    v = 0.0
    for hid in p.estate:
        area = estate.area_of[hid]
        if area in seen:
            continue
        seen.add(area)
        filled = sum(1 for h in area if h in p.estate)
        missing = len(area) - filled
        if not missing:
            continue
        reach = min(1.0, ctx.future / (2.5 * missing))
        later = min(len(PHASES) - 1, ctx.phase + missing // 3)
        prize = spec["area_by_size"][len(area) - 1] + spec["phase_bonus"][PHASES[later]]
        v += 0.6 * prize * (filled / len(area)) ** 1.5 * reach
    for colour in TYPES:
        left = state.bonus_left[colour]
        if not left:
            continue
        hexes = [h for h, x in estate.hexes.items() if x.type == colour]
        filled = sum(1 for h in hexes if h in p.estate)
        if filled < len(hexes):
            prize = spec[f"bonus_{left[0]}"][str(ctx.n)]
            reach = min(1.0, ctx.future / (2.5 * (len(hexes) - filled)))
            v += 0.5 * prize * (filled / len(hexes)) ** 3 * reach
    return v


def base(state: BurgundyState, p: Player, tile_id: int, ctx: Context) -> float:
    """What placing this tile gives beyond the hex it fills (rulebook pp.5-7)."""
    t = tile(tile_id)
    if t.type == "building":
        extra = {"boarding": 4 * ctx.worker, "bank": 2 * ctx.silver}.get(t.building, 0.0)
        return BUILDING_EFFECT[t.building] + extra + _knowledge_building_bonus(p, t.building, ctx)
    if t.type == "animal":
        # Livestock scores its animals, plus those of the same kind already in the pasture.
        return float(t.value) + (1.0 if 7 in ctx.known(p) else 0.0)
    if t.type == "castle":
        return 2.0 + 4.0 * ctx.frac  # an extra action with a die value of one's choice
    if t.type == "mine":
        return float(len(PHASES) - ctx.phase)  # a silverling every remaining phase end
    if t.type == "ship":
        # Goods of the richest depot, and a step forward on the bridge (turn order).
        goods = max((len(g) for g in state.depot_goods), default=0)
        return goods * (ctx.goods - 0.3) + 0.5
    return _knowledge_value(p, t.knowledge, ctx)


def _knowledge_building_bonus(p: Player, building: str, ctx: Context) -> float:
    """Monasteries 16-23: 4 points per building of their type at the end."""
    spec = table()["knowledge"]["building_scoring"]
    return sum(4.0 for n in ctx.known(p) if spec.get(str(n)) == building)


def _knowledge_value(p: Player, number: int, ctx: Context) -> float:
    """Monastery tiles (2019 rulebook pp.9-11): lasting effects while the game lasts, end
    scoring by what the duchy already holds plus what it may still gain."""
    if number in LASTING:
        return LASTING[number] * ctx.frac
    placed = [tile(t) for t in p.estate.values()]
    growth = END_GROWTH.get(number, 4.0) * ctx.frac
    if number == 15:
        return 3.0 * len(p.sold) + growth
    building = table()["knowledge"]["building_scoring"].get(str(number))
    if building:
        return 4.0 * sum(1 for x in placed if x.building == building) + growth
    if number == 24:
        return 4.0 * len({x.animal for x in placed if x.animal}) + growth
    if number == 25:
        return float(sum(p.sold.values())) + growth
    if number == 26:
        return 3.0 * len(p.bonus) + growth
    return 0.0


def placement(state: BurgundyState, p: Player, tile_id: int, hex_id: int, ctx: Context) -> float:
    """A quick guess of placing a tile on a hex, without playing it out."""
    area = area_of(hex_id)
    v = base(state, p, tile_id, ctx) + 1.5
    if all(h in p.estate or h == hex_id for h in area):
        spec = table()["scoring"]
        v += spec["area_by_size"][len(area) - 1] + spec["phase_bonus"][PHASES[ctx.phase]]
    t = tile(tile_id)
    if t.type == "animal":
        v += sum(
            tile(p.estate[h]).value
            for h in area
            if h in p.estate and tile(p.estate[h]).animal == t.animal
        )
    return v


def potential(state: BurgundyState, p: Player, tile_id: int, ctx: Context) -> float:
    """What a stored tile may bring when placed: its best open hex, or little if none yet."""
    key = (frozenset(p.estate.items()), tile_id, _richest(state))
    if key not in ctx._potential:
        hexes = ctx.open_hexes(p, tile_id)
        gain = max((placement(state, p, tile_id, h, ctx) for h in hexes), default=0.0)
        found = _stored(gain, state, p, tile_id, ctx)
        ctx._potential[key] = found
    return ctx._potential[key]


def _frames(state: BurgundyState, ctx: Context) -> float:
    """Follow-ups still waiting (a leaf of the search may leave some): their likely worth."""
    p = state.players[ctx.seat]
    v = 0.0
    if state.over or state.active != ctx.seat:
        return v  # the steps on the stack are the active seat's
    for frame in state.stack:
        if frame.kind == "castle":
            v += 2.0 + 4.0 * ctx.frac
        elif frame.kind == "ship":
            v += max((len(g) for g in state.depot_goods), default=0) * (ctx.goods - 0.3)
        elif frame.kind == "effect_take":
            found = board_tiles(state, frame.types)
            v += max((potential(state, p, t, ctx) for _, t in found), default=0.0)
        elif frame.kind == "townhall":
            v += max((potential(state, p, t, ctx) for t in p.storage), default=0.0)
        elif frame.kind == "warehouse":
            v += max((n * (ctx.sell - ctx.goods) for n in p.goods.values()), default=0.0)
        elif frame.kind == "discard":
            v += potential(state, p, frame.tile, ctx)
            v -= min(potential(state, p, t, ctx) for t in p.storage)
    return v


# -- one die use, played out on a copy ---------------------------------------------------------
def _fork(state: BurgundyState, seat: int) -> BurgundyState:
    """A copy for trying out one step of this seat's turn: the parts such a step can change
    are copied (this seat's player, the depots, the bridge, bonus tiles, the stack); the rest
    (other players, the face-down supply, the generator) is shared and never written."""
    s = copy.copy(state)
    s.players = list(state.players)
    s.players[seat] = clone(state.players[seat])
    s.depots = [list(d) for d in state.depots]
    s.depot_goods = [list(g) for g in state.depot_goods]
    s.black = list(state.black)
    s.bridge = [list(b) for b in state.bridge]
    s.bonus_left = {k: list(v) for k, v in state.bonus_left.items()}
    s.stack = [clone(f) for f in state.stack]
    s.box = list(state.box)
    s.log = list(state.log)
    return s


def _play_out(state: BurgundyState, seat: int, slot: int, value_: int, play: Play) -> BurgundyState:
    """The state after using die `slot` as `value_` for `play`, as the turn's steps would leave
    it."""
    s = _fork(state, seat)
    if s.stack and s.stack[-1].kind in ("castle", "action", "take", "place"):
        s.stack.pop()  # the step this die use answers
    player = s.players[seat]
    player.workers -= play.cost
    if slot != CASTLE_DIE:
        player.used[slot] = True
    if play.action == "take":
        effects.to_storage(s, seat, play.tile)
    elif play.action == "place":
        effects.place(s, seat, play.tile, play.hex)
    elif play.action == "sell":
        effects.sell(s, seat, value_)
    else:
        effects.take_workers(s, seat)
    return s


def quick(state: BurgundyState, p: Player, play: Play, value_: int, ctx: Context) -> float:
    """A quick guess of a die use, without playing it out (for the die not yet used)."""
    if play.action == "take":
        v = potential(state, p, play.tile, ctx)
        if len(p.storage) >= table()["players"]["storage_spaces"]:
            v -= min(potential(state, p, t, ctx) for t in p.storage)
    elif play.action == "place":
        v = placement(state, p, play.tile, play.hex, ctx) - potential(state, p, play.tile, ctx)
    elif play.action == "sell":
        v = p.goods[value_] * (ctx.sell - ctx.goods) + ctx.silver
    else:
        v = 2 * ctx.worker
    return v - play.cost * ctx.worker


def _spare_dice(state: BurgundyState, ctx: Context) -> float:
    """The dice still free after a leaf: each is worth its best quick use, turned a step at
    most (rulebook p.4, "Worker chips": each worker changes the die by 1)."""
    p = state.players[ctx.seat]
    if state.active != ctx.seat:
        return 0.0
    hexes = components().estate.hexes
    total = 0.0
    for slot in free_dice(p):
        rolled = p.dice[slot]
        best = 2 * ctx.worker
        for value_ in {rolled, rolled % 6 + 1, (rolled - 2) % 6 + 1}:
            uses = [Play("take", 0, tile=t) for t in state.depots[value_ - 1] if t >= 0]
            uses += [
                Play("place", 0, tile=t, hex=h)
                for t in p.storage
                for h in ctx.open_hexes(p, t)
                if hexes[h].die == value_
            ]
            if p.goods.get(value_):
                uses.append(Play("sell", 0))
            for use in uses:
                kind = tile(use.tile).type if use.tile >= 0 else ""
                cost = worker_cost(p, slot, value_, use.action, kind)
                if cost <= p.workers:
                    best = max(best, quick(state, p, use, value_, ctx) - cost * ctx.worker)
        total += 0.85 * best
    return total


def _leaf(state: BurgundyState, ctx: Context) -> float:
    return value(state, ctx) + _spare_dice(state, ctx)


FULL_LOOKS = 12  # die uses played out per decision; the others are ranked by `quick` only


def _uses(
    state: BurgundyState, ctx: Context, dice: list[tuple[str, int, int]], action: str = ""
) -> dict[str, float]:
    """Each die option's best use (option id, die slot, value): every use is ranked by a
    quick guess, the most promising ones are played out on a copy and valued."""
    p = state.players[ctx.seat]
    targets = {t: ctx.open_hexes(p, t) for t in p.storage}
    found = []
    for oid, slot, value_ in dice:
        for play in plays(state, ctx.seat, slot, value_, targets):
            if not action or play.action == action:
                guess = quick(state, p, play, value_, ctx)
                found.append((guess, oid, slot, value_, play))
    found.sort(key=lambda x: -x[0])
    scores: dict[str, float] = {}
    for _, oid, slot, value_, play in found[:FULL_LOOKS]:
        score = _leaf(_play_out(state, ctx.seat, slot, value_, play), ctx)
        scores[oid] = max(scores.get(oid, float("-inf")), score)
    return scores


# -- the decisions -----------------------------------------------------------------------------
def _score_options(state: BurgundyState, decision: Decision, ctx: Context) -> dict[str, float]:
    kind = decision.kind
    seat = ctx.seat
    scores: dict[str, float] = {}
    if kind in ("die", "castle"):
        dice = []
        for oid, meaning in _offered(state).items():
            if oid == "end":
                scores[oid] = _leaf(state, ctx)
            elif oid == "buy":
                scores[oid] = _best_follow_up(state, "buy", ctx)
            else:
                dice.append((oid, *meaning))
        return {**scores, **_uses(state, ctx, dice)}
    frame = state.stack[-1]
    if kind == "action":
        for option in decision.options:
            die = [(option.id, frame.slot, frame.value)]
            scores.update(_uses(state, ctx, die, option.id))
        return scores
    if kind in ("take", "place"):
        for play in plays(state, seat, frame.slot, frame.value):
            if play.action != kind:
                continue
            oid = take_id(play) if kind == "take" else place_id(play)
            after = _play_out(state, seat, frame.slot, frame.value, play)
            scores[oid] = max(scores.get(oid, float("-inf")), _leaf(after, ctx))
        return scores
    if kind == "shipgoods":
        for combo in combinations(decision.options, decision.min_choices):
            ids = tuple(o.id for o in combo)
            s = _fork(state, seat)
            STEPS.answer(s, s.stack[-1], ids)
            scores[",".join(ids)] = _leaf(s, ctx)
        return scores
    for oid, meaning in _offered(state).items():
        scores[oid] = _leaf(_answered(state, seat, oid, meaning), ctx)
    return scores


def _offered(state: BurgundyState) -> dict[str, Any]:
    """The options of the step asked now, each with what it means to the rules."""
    frame = STEPS.top(state)
    assert frame is not None, "the game is over"
    return dict(STEPS.step(frame).offer(state, frame).meanings)


def _answered(state: BurgundyState, seat: int, oid: str, meaning: Any) -> BurgundyState:
    """A copy of `state` with the step on top of its stack answered by `oid` (as the engine
    answers it, without working out the step's offer again)."""
    s = _fork(state, seat)
    STEPS.answer(s, s.stack[-1], (oid,), meanings={oid: meaning})
    return s


def _best_follow_up(state: BurgundyState, kind: str, ctx: Context) -> float:
    """The best answer to a follow-up step that is not on the stack yet (buying a tile)."""
    s = _fork(state, ctx.seat)
    s.stack.append(Frame(kind))
    best = float("-inf")
    for oid, meaning in _offered(s).items():
        best = max(best, _leaf(_answered(s, ctx.seat, oid, meaning), ctx))
    return best


def choose(state: BurgundyState, decision: Decision, rng: random.Random) -> tuple[str, ...]:
    """A legal answer to `decision`: the option whose position `value` rates best."""
    ctx = Context(state, decision.seat)
    scores = _score_options(state, decision, ctx)
    legal = {o.id for o in decision.options}
    if decision.kind == "shipgoods":
        pick = _argmax({k: v for k, v in scores.items()}, rng)
        return tuple(pick.split(","))
    scored = {oid: v for oid, v in scores.items() if oid in legal}
    if not scored:
        return (decision.options[0].id,)
    return (_argmax(scored, rng),)


def _argmax(scores: dict[str, float], rng: random.Random) -> str:
    """The best option; near-equal ones are broken by `rng` so the player is not predictable."""
    top = max(scores.values())
    best = sorted(oid for oid, v in scores.items() if v >= top - 1e-6)
    return best[0] if len(best) == 1 else rng.choice(best)


__all__ = ["choose", "evaluate", "value"]
