"""The `good` AI level for Village: a one-move look-ahead over a value function.

Each option of the seat's decision is applied to a copy of the state (`engine.apply`) and
the result is scored by `value`, an estimate of the seat's final prestige: the points the
final scoring would give now, plus what the position is worth on the way there (goods that
fit waiting customers, members that will die into the chronicle, members in the black bag,
cubes and grain). A turn is a compound move (take a cube, then the action of its space):
for each space the best action is found once and added to the value of each cube taken
there. Rule references: "EN" is the base rulebook (shared/rules/en/village-base.en.md),
the numbers come from data/village/rules.toml.
"""

from __future__ import annotations

import math
import pickle
import random
from functools import cache

from meeple_hall.games.core import Decision
from meeple_hall.games.village import data, engine
from meeple_hall.games.village.state import (
    BAG,
    CHURCH,
    COUNCIL,
    FARM,
    TRAVEL,
    VISIBLE,
    WORKSHOP,
    Player,
    VillageState,
)
from meeple_hall.games.village.steps import COINS

# Decisions of the same seat that finish the move being weighed: the action of a space,
# a council privilege, a city's cubes, the first sale of one's own market day, the death
# at the end of the turn, and the rest of one's buying and moving up at a mass (the
# church majority is only awarded once everyone is done).
ACTION_KINDS = {"harvest", "family", "crafts", "council", "travel", "church", "market"}
FOLLOW_KINDS = {"privilege", "reward", "die", "market", "buy", "advance"}

# What a cube is worth on the farmyard, by what it pays for (EN "Influence cubes"): green
# pays for the market's extra sales and the council, pink for crafts and travel, brown
# for the church and travel, orange for crafts and travel. A coin is a point at the end
# and any cube, so a cube is worth a little under a point.
CUBE = {"green": 0.65, "pink": 0.6, "brown": 0.55, "orange": 0.5}
# A good not promised to a customer: the wagon is a trip (3 prestige or a reward, and a
# city towards the travel table), the scroll is a council step, plow with horse or ox
# improves the harvest (EN "Grain harvest").
GOOD = {"wagon": 2.2, "scroll": 1.6, "plow": 1.4, "horse": 1.1, "ox": 1.2}
GRAIN = 0.45
# A customer the seat can serve now is worth this share of its points until it is
# served: it takes a market day (and, if someone else holds it, 1 green and 1 time).
READY_CUSTOMER = 0.6
# EN chronicle scoring gives 0/0/4/7/12 for 1, 2, 3, 4, 5+ entries; during the game each
# entry is worth a share of that on the way (a smoothed table, the real one at the end).
CHRONICLE_ON_THE_WAY = (0.0, 1.6, 3.4, 5.4, 8.0, 12.0)
# A living member can still work and die into the chronicle; more than six are idle.
MEMBER = 1.0
MEMBERS_USEFUL = 6
ENDS_BEFORE_FULL = 0.6
PRIVILEGE_GUESS = {1: 0.3, 2: 1.1, 3: 1.7, 4: 2.0}  # a privilege decision still to make


def choose(state: VillageState, decision: Decision, rng: random.Random) -> tuple[str, ...]:
    seat = decision.seat
    if decision.kind == "turn":
        scored = turn_values(state, decision, seat)
    else:
        depth = 4 if decision.kind in ("buy", "advance") else 2
        scored = [(follow(child(state, seat, o), seat, depth), o) for o in candidates(decision)]
    return (best(scored, rng),)


def best(scored: list[tuple[float, str]], rng: random.Random) -> str:
    top = max(v for v, _ in scored)
    tied = [o for v, o in scored if v >= top - 1e-9]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def candidates(decision: Decision) -> list[str]:
    """The options worth weighing: paying with more coins than needed is never better
    than the plain option (a coin is a point at the end, a cube is not)."""
    return [o.id for o in decision.options if COINS not in o.id]


def child(state: VillageState, seat: int, choice: str) -> VillageState:
    """The state after an offered choice of the decision pending for `seat`. Like
    `engine.apply`, but without checking the choice again (it comes from the pending
    decision), and copied through pickle, a third faster than `copy.deepcopy` here."""
    pending = engine.decisions(state)
    after = copy_for_weighing(state)
    engine.perform(after, pending[0], (choice,))
    return after


def copy_for_weighing(state: VillageState) -> VillageState:
    """A copy to try a move on, without the event log: the rules only append to the log,
    a weighed state is valued and dropped, and copying the log's messages was half of the
    good player's time."""
    log, state.log = state.log, []
    try:
        return pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    finally:
        state.log = log


def follow(state: VillageState, seat: int, depth: int) -> float:
    """The value after a move, finishing the seat's own follow-up decisions greedily."""
    pending = engine.decisions(state)
    if depth > 0 and pending and pending[0].seat == seat and pending[0].kind in FOLLOW_KINDS:
        d = pending[0]
        return max(follow(child(state, seat, o), seat, depth - 1) for o in candidates(d))
    return value(state, seat)


def quick(state: VillageState, seat: int) -> float:
    """`value` with the seat's pending privilege or city reward guessed, not searched."""
    v = value(state, seat)
    if state.stack and state.stack[-1].seat == seat:
        step = state.stack[-1]
        if step.kind == "privilege":
            v += PRIVILEGE_GUESS.get(int(step.data[0]), 0.0)
        elif step.kind == "reward":
            v += 2 * CUBE["pink"]
    return v


def action_gain(state: VillageState, seat: int) -> float:
    """How much the best action of the decision pending after a cube is taken adds to
    the position (0 for doing nothing)."""
    pending = engine.decisions(state)
    base = value(state, seat)
    if not pending or pending[0].seat != seat or pending[0].kind not in ACTION_KINDS:
        return 0.0
    best_v = base
    for o in candidates(pending[0]):
        if o == "skip":
            continue
        after = child(state, seat, o)
        nxt = engine.decisions(after)
        if nxt and nxt[0].seat == seat and nxt[0].kind == "market":
            # After one's free first sale: whether to sell again is weighed when asked.
            v = value(after, seat)
        else:
            v = quick(after, seat)
        best_v = max(best_v, v)
    return best_v - base


def turn_values(state: VillageState, decision: Decision, seat: int) -> list[tuple[float, str]]:
    """Each cube: the position after taking it plus the best action of its space. The
    action's gain hardly depends on the cube's colour, so it is searched once a space."""
    gains: dict[str, float] = {}
    scored = []
    player = state.players[seat]
    most = max(data.colours(), key=lambda c: player.cubes[c])
    for o in decision.options:
        if COINS in o.id:
            continue
        how = o.fields["how"]
        # EN well: 3 cubes of one colour for any action. Only worth a look for an action
        # whose space is empty, with the colour the seat holds most of.
        if how == "well" and (state.spaces.get(o.fields["action"]) or o.fields["colour"] != most):
            continue
        after = child(state, seat, o.id)
        if how == "take":
            space = o.fields["space"]
            if space not in gains:
                gains[space] = action_gain(after, seat)
            gain = gains[space]
        else:
            gain = action_gain(after, seat)
        scored.append((value(after, seat) + gain, o.id))
    return scored or [(0.0, candidates(decision)[0])]


# -- the value function -----------------------------------------------------------------


@cache
def rules() -> dict:
    return data.rules()


def evaluate(state: VillageState, seat: int) -> float:
    """The seat's estimated final points, for searches that cut their playouts short
    (`meeple_hall.games.ai.evaluate`): `value`, the estimate this player decides by."""
    return value(state, seat)


def value(state: VillageState, seat: int) -> float:
    """An estimate of the seat's final score. At the end it is the score itself."""
    player = state.players[seat]
    r = rules()
    mark = str(seat)
    in_chronicle = sum(s.count(mark) for s in state.chronicle.values())
    fixed = (
        player.prestige
        + r["travel"]["score"][min(len(player.cities), 6)]
        + sum(data.customers()[t].points for t in player.customers)
        + player.coins
    )
    if state.phase == "over":
        table = r["chronicle"]["score"]
        church = sum(r["church"]["score"][m.stage - 1] for m in player.members if m.place == CHURCH)
        council = sum(
            r["council"]["score"][m.stage - 1] for m in player.members if m.place == COUNCIL
        )
        return fixed + table[min(in_chronicle, len(table) - 1)] + church + council
    v = float(fixed) + CHRONICLE_ON_THE_WAY[min(in_chronicle, 5)]
    v += members_value(state, seat, player, in_chronicle)
    v += goods_value(state, player)
    v += sum(CUBE[c] * n for c, n in player.cubes.items())
    if player.marker_coin:
        v += 0.5
    return v


def remaining_deaths(state: VillageState) -> float:
    """How many more of one seat's members will die before the end: the free chronicle
    spaces and graves shared among the players (EN "End of the game")."""
    free = sum(s.count("") for s in state.chronicle.values()) + state.graves.count("")
    shares = state.num_players + (1 if state.solo else 0)
    # The game ends as soon as either the chronicle or the graves are full, so not every
    # free space is filled.
    return ENDS_BEFORE_FULL * free / shares


def survival(ahead: int, deaths_left: float) -> float:
    """Chance a member lives to the end: the oldest die first (EN "A family member passes
    away"), so it depends on how many members die before it."""
    return 1.0 / (1.0 + math.exp(1.5 * (deaths_left - ahead - 0.5)))


def members_value(state: VillageState, seat: int, player: Player, in_chronicle: int) -> float:
    r = rules()
    deaths_left = remaining_deaths(state)
    visible = sorted(m.number for m in player.members if m.place in VISIBLE)
    v = 0.0
    living = 0
    for m in player.members:
        if m.place not in VISIBLE and m.place != BAG:
            continue
        living += 1
        ahead = sum(1 for n in visible if n < m.number)
        keep = survival(ahead, deaths_left)
        if m.place == COUNCIL:
            # EN council scoring: stage 2/3/4 = 2/4/6 at the end; each stage also unlocks
            # a privilege on later council actions.
            v += keep * r["council"]["score"][m.stage - 1] + 0.4 * (m.stage - 1)
        elif m.place == CHURCH:
            # EN church scoring by window: 2/3/4/6; grain moves members up at each mass.
            v += keep * r["church"]["score"][m.stage - 1]
        elif m.place == BAG:
            # A member in the black bag cannot die; it reaches the church if drawn (four
            # pieces a mass among the monks) or bought for a coin.
            v += 1.3
        elif m.place == TRAVEL:
            v += 0.5  # can travel on to the next city
        elif m.place == WORKSHOP:
            v += 0.4 + 0.3 * keep  # trained: a good for time alone (EN crafts a)
    v += MEMBER * min(living, MEMBERS_USEFUL)
    if any(m.place == FARM for m in player.members):
        v += 0.6  # a member at home allows the harvest (EN "Grain harvest")
    # Time: each time the marker passes the bridge the oldest member dies. Dying into a
    # free chronicle space of its profession is worth the chronicle's next step (EN Hint
    # 1: "don't be afraid of paying for actions with time"); into a grave it is a loss.
    gain = next_death_gain(state, seat, player, in_chronicle)
    length = data.track_length()
    v += player.deaths_due * gain + (player.time % length) / length * gain
    return v


def next_death_gain(state: VillageState, seat: int, player: Player, in_chronicle: int) -> float:
    visible = [m for m in player.members if m.place in VISIBLE]
    if not visible:
        return 0.0
    lowest = min(m.number for m in visible)
    ladder = CHRONICLE_ON_THE_WAY
    step = ladder[min(in_chronicle + 1, 5)] - ladder[min(in_chronicle, 5)]
    r = rules()
    best_gain = -math.inf
    for m in visible:
        if m.number != lowest:
            continue
        lost = MEMBER
        if m.place == COUNCIL:
            lost += r["council"]["score"][m.stage - 1]
        elif m.place == CHURCH:
            lost += r["church"]["score"][m.stage - 1]
        cat = {FARM: "farm", WORKSHOP: "crafts", COUNCIL: "council", TRAVEL: "travel"}.get(
            m.place, "church"
        )
        room = "" in state.chronicle[cat]
        best_gain = max(best_gain, (step if room else -0.5) - lost + 0.6)
    return best_gain


def goods_value(state: VillageState, player: Player) -> float:
    """Goods and grain: those that serve a customer at the stalls (or next in line) are
    worth a share of its points (EN "Market"), the rest their use elsewhere."""
    have = dict(player.goods)
    have["grain"] = player.grain
    v = 0.0
    tiles = [(t, READY_CUSTOMER) for t in state.stalls if t]
    tiles += [(t, READY_CUSTOMER * 0.7) for t in state.queue[:2]]
    wanted = sorted(
        ((data.customers()[t], share) for t, share in tiles),
        key=lambda cs: cs[0].points / sum(cs[0].wants.values()),
        reverse=True,
    )
    for c, share in wanted:
        if all(have.get(g, 0) >= n for g, n in c.wants.items()):
            v += share * c.points
            for g, n in c.wants.items():
                have[g] -= n
    v += GRAIN * have.pop("grain")
    for good, n in have.items():
        v += GOOD[good] * min(n, 1) + 0.4 * GOOD[good] * max(0, n - 1)
    if player.goods["plow"] and (player.goods["ox"] or player.goods["horse"]):
        v += 0.5
    return v
