"""The `good` AI level for Coffee Traders: a one-move look-ahead over a value function.

Each option of the seat's decision is applied to a copy of the state (`engine.apply`); the
seat's own follow-up choices of the same move (a plantation's row and space, a contract's
bonus, an Arabica step, a second delivery) are then made greedily, and the result is
scored by `value`: the points the final scoring would give now (`scoring.breakdown`:
cooperative majorities, buildings, contracts, bars, Arabica, counters, supply) plus what
the position is worth on the way there (coffee towards contracts, the coffee the traders
and fair trade posts will bring in at the harvest, stock counters, civets, coins, and the
coins the bonus supply will claim back). Decisions that pick several options at once
(trading coffee, mixed deliveries, storage) are answered by rule of thumb.

Rule references ("EN") are to shared/rules/en/coffee-traders.en.md; numbers come from
data/coffee/*.toml through the game's own modules.
"""

from __future__ import annotations

import copy
import random

from meeple_hall.games.coffee import engine
from meeple_hall.games.coffee.board import quality
from meeple_hall.games.coffee.data import COFFEES, CONTRACT_ROWS, KOPI, components
from meeple_hall.games.coffee.harvest import distribute, production
from meeple_hall.games.coffee.scoring import breakdown
from meeple_hall.games.coffee.sell import contract_wants
from meeple_hall.games.coffee.state import CoffeeState, Player
from meeple_hall.games.core import Decision

# How far a move's own follow-up choices are searched, and how many copies of the state a
# decision may make before it stops looking ahead (each costs about half a millisecond).
FOLLOW_DEPTH = 3
BUDGET = 40

COFFEE_KEPT = 0.8  # a coffee that will still be there in the Sell phase
COFFEE_LOST = 0.1  # one the Refresh will throw away (EN Phase 6, step 3)
COIN = 0.55  # buys a coffee for 2-3 coins in the Sell phase (EN Phase 5)
# EN Phase 6 step 6: the bonus coins come back from the company supply, and each coin
# lacking there costs a −3 VP token.
MINUS_TOKEN = 3.0
CONTRACT_SHARE = 0.75  # of a contract's worth, once its coffee is all in hand
# Moves that take no turn (trading or buying coffee, the bonus supply, stock counters for
# warehouses) must raise the value of the position by at least this much: the value only
# rises, so they never go round in a circle (taking the bonus coins and putting them back,
# trading coffee to and fro).
FREE_MOVES = ("convert.", "buy.", "bonus-", "refill-", "stock.")
FREE_MARGIN = 0.3


class Budget:
    def __init__(self, copies: int) -> None:
        self.copies = copies

    def take(self) -> bool:
        self.copies -= 1
        return self.copies >= 0


def choose(state: CoffeeState, decision: Decision, rng: random.Random) -> tuple[str, ...]:
    seat = decision.seat
    ids = [o.id for o in decision.options]
    if decision.max_choices > 1 or decision.min_choices != 1:
        return pick_several(state, decision)
    if len(ids) == 1:
        return (ids[0],)
    scored = []
    now = value(state, seat)
    left = BUDGET
    for i, o in enumerate(ids):
        # Each option gets an equal share of what is left for its follow-up choices.
        share = max(0, left // (len(ids) - i) - 1)
        budget = Budget(share)
        v = follow(child(state, decision, (o,)), seat, FOLLOW_DEPTH, budget)
        left -= 1 + share - max(0, budget.copies)
        if o.startswith(FREE_MOVES):
            if v < now + FREE_MARGIN:
                continue
            v -= FREE_MARGIN
        scored.append((v, o))
    if not scored:
        return (next(o for o in ids if not o.startswith(FREE_MOVES)),)
    top = max(v for v, _ in scored)
    tied = [o for v, o in scored if v >= top - 1e-9]
    return (tied[0] if len(tied) == 1 else rng.choice(tied),)


def child(state: CoffeeState, decision: Decision, choices: tuple[str, ...]) -> CoffeeState:
    """The state after an offered choice of `decision`, the decision pending in `state`.
    `engine.apply` would look the decision up and check the choice again; both are
    known here, so the copy is made and the move performed directly."""
    after = copy_for_weighing(state)
    engine.perform(after, decision, choices)
    return after


def copy_for_weighing(state: CoffeeState) -> CoffeeState:
    """A copy to try a move on, without the event log: the rules only append to the log,
    a weighed state is valued and dropped, and copying the log's messages was most of the
    good player's time."""
    log, state.log = state.log, []
    try:
        return copy.deepcopy(state)
    finally:
        state.log = log


def follow(state: CoffeeState, seat: int, depth: int, budget: Budget) -> float:
    """The value after a move, making the seat's own follow-up choices greedily while
    the depth and the budget last."""
    if depth > 0 and state.prompts and state.prompts[0].seat == seat and budget.copies > 0:
        pending = engine.decisions(state)
        d = pending[0] if pending else None
        if d is not None and d.seat == seat and (d.max_choices > 1 or d.min_choices != 1):
            budget.take()
            return follow(child(state, d, pick_several(state, d)), seat, depth - 1, budget)
        if d is not None and d.seat == seat:
            best = None
            for o in d.options:
                if not budget.take():
                    break
                v = follow(child(state, d, (o.id,)), seat, depth - 1, budget)
                best = v if best is None else max(best, v)
            if best is not None:
                return best
    return value(state, seat)


# -- decisions that pick several options -------------------------------------------------


def pick_several(state: CoffeeState, decision: Decision) -> tuple[str, ...]:
    player = state.players[decision.seat]
    ids = [o.id for o in decision.options]
    k = decision.max_choices
    if decision.kind in ("convert", "mixed_pay"):
        # Give away the coffee the contracts need least (kopi luwak last: it is wild).
        spare = surplus(state, decision.seat)
        ranked = sorted(ids, key=lambda u: unit_keep_rank(u, spare))
        return tuple(ranked[: decision.max_choices])
    if decision.kind == "send_choose":
        # Own plantation first: staffed, it produces and avoids the penalty (EN Phase 2).
        mine = f"p{decision.seat + 1}"
        ranked = sorted(ids, key=lambda t: t != mine)
        return tuple(ranked[: decision.max_choices])
    if decision.kind == "storage":
        # A warehouse on a coffee's track keeps 10 of it (EN Phase 6, step 3): put them on
        # the coffees held most beyond what the rows keep.
        rows = player.built["warehouse"]
        ranked = sorted(ids, key=lambda c: -player.coffee[c])
        chosen = [c for c in ranked if player.coffee[c] > max(1, rows - 1)][:k]
        return tuple(chosen[: decision.max_choices])
    return tuple(ids[: max(decision.min_choices, min(decision.max_choices, len(ids)))])


def unit_keep_rank(unit: str, spare: dict[str, float]) -> tuple[int, float]:
    kind = unit.rstrip("0123456789")
    if kind == "kopi":
        return (1, 0.0)
    return (0, -spare.get(kind, 0.0))


def surplus(state: CoffeeState, seat: int) -> dict[str, float]:
    """Coffee held beyond what the open contracts ask for, by kind."""
    player = state.players[seat]
    need = dict.fromkeys(COFFEES, 0)
    for letter in player.contracts:
        for coffee, n in contract_wants(state, seat, letter).items():
            need[coffee] += n
    return {c: player.coffee[c] - need[c] for c in COFFEES}


# -- the value function ------------------------------------------------------------------


def evaluate(state: CoffeeState, seat: int) -> float:
    """The seat's estimated final points, for searches that cut their playouts short
    (`meeple_hall.games.ai.evaluate`): `value`, the estimate this player decides by."""
    return value(state, seat)


def value(state: CoffeeState, seat: int) -> float:
    """An estimate of the seat's final score; at the end, the score itself."""
    score = float(sum(breakdown(state, seat).values()))
    if state.over:
        return score
    player = state.players[seat]
    return (
        score
        + coffee_value(state, seat, player)
        + coin_value(state, player)
        + harvest_value(state, seat, player)
        + staffing_value(state, seat, player)
        + arabica_value(player)
        + quality_value(state, seat)
    )


def selling_left(state: CoffeeState, seat: int) -> bool:
    """Whether the seat still sells before the coffee is cut to the warehouse limit."""
    if state.phase == "sell":
        return not state.done[seat]
    return state.phase in ("work", "assign", "trade", "setup")


def coffee_value(state: CoffeeState, seat: int, player: Player) -> float:
    """Coffee towards the open contracts first (EN Phase 5 A: the contract's VP, coins,
    bonus and Arabica counter), the rest by whether it lasts to a Sell phase."""
    last_period = state.period == 3
    can_sell = selling_left(state, seat)
    if last_period and not can_sell:
        return 0.0
    have = dict(player.coffee)
    v = 0.0
    board = components().player_board["contracts"]
    if can_sell or not last_period:
        letters = sorted(player.contracts)
        for letter in letters:
            wants = contract_wants(state, seat, letter)
            need = sum(wants.values())
            got = 0
            for coffee, n in wants.items():
                use = min(n, have[coffee])
                have[coffee] -= use
                got += use
            wild = min(need - got, have[KOPI])
            have[KOPI] -= wild
            got += wild
            worth = board["points"][letter] + COIN * board["coins"][CONTRACT_ROWS[letter]] + 3.0
            v += CONTRACT_SHARE * worth * (got / need) ** 2
    rows = player.built["warehouse"]
    for coffee, n in have.items():
        if n <= 0:
            continue
        keep = n if can_sell else min(n, max(rows, 10 if n > rows and rows > 1 else rows))
        each = COFFEE_KEPT * (1.3 if coffee == KOPI else 1.0)
        if last_period and can_sell:
            each *= 0.6  # only a delivery in this Sell phase can still use it
        v += each * keep + COFFEE_LOST * (n - keep)
    return v


def coin_value(state: CoffeeState, player: Player) -> float:
    owed = 0 if "coins" in player.bonus else 3
    spare = player.coins - owed
    if spare >= 0:
        return COIN * spare
    return -MINUS_TOKEN * -spare * (0.8 if state.phase != "refresh" else 1.0)


def periods_after(state: CoffeeState) -> int:
    return 3 - state.period


def harvest_value(state: CoffeeState, seat: int, player: Player) -> float:
    """Coffee still to come: this period's harvest goes to fair trade posts and traders
    in the trading house (EN Phase 4), civets in Sumatra bring kopi luwak, and each
    stock counter pays a coffee at every Refresh still to come (EN Phase 6, step 5)."""
    v = 0.0
    before_harvest = state.phase in ("setup", "work", "assign", "trade")
    if before_harvest:
        expected = 0.0
        per = components().board["harvest"]["coffee_per_plantation"][str(state.rules_players)]
        for coffee, coop in state.coops.items():
            total = production(state, coffee)
            if state.phase in ("setup", "work", "assign"):
                unstaffed = sum(
                    1 for row in coop.rows for p in row if p is not None and not p.staffed
                )
                total += int(0.6 * unstaffed) * per
            posts = [s for s in coop.buildings["fairtrade"] if s is not None]
            traders = list(coop.traders)
            expected += distribute(total, posts, traders).get(seat, 0)
        v += COFFEE_KEPT * expected + 1.0 * player.sumatra
    v += COFFEE_KEPT * len(player.stocks) * periods_after(state) + 0.4 * len(player.stocks)
    return v


def staffing_value(state: CoffeeState, seat: int, player: Player) -> float:
    """Unstaffed plantations cost 1/2/3 coins or Arabica steps by period (EN Phase 2,
    step 3) unless the worker pool can staff them."""
    if state.phase not in ("work", "assign") or state.step == "penalty":
        return 0.0
    unstaffed = sum(
        1
        for coop in state.coops.values()
        for row in coop.rows
        for p in row
        if p is not None and p.owner == seat and not p.staffed
    )
    short = max(0, unstaffed - player.pool)
    return -1.0 * state.period * short


def arabica_value(player: Player) -> float:
    """Progress on the Arabica track: every row at column 2 or 3 brings a trader, a truck
    and 3 + 7 VP; column 6 and 7 of a row 6 and 4 VP (EN "End of Game" 4)."""
    columns = [player.arabica[c] for c in COFFEES]
    lowest = min(columns)
    v = 0.35 * sum(min(c, 7) for c in columns)
    v += 1.2 * sum(1 for c in columns if c > lowest) if lowest < 3 else 0.0
    return v


def quality_value(state: CoffeeState, seat: int) -> float:
    """The majorities are scored by rank (16 / 8 VP, EN "End of Game" 3); a share of the
    cooperative's quality also counts, as ranks change while plantations come."""
    v = 0.0
    for coffee in state.coops:
        mine = quality(state, coffee, seat)
        if mine:
            best_other = max(
                (quality(state, coffee, s) for s in state.seats if s != seat), default=0
            )
            v += 0.5 * mine + (1.0 if mine > best_other else 0.0)
    return v
