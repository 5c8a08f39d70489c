"""Phase 6: Refresh. Pieces come home, coffee is cut to the warehouse limit, stock counters
pay out, the bonus supply is refilled (−3 VP per missing coin), turn order changes."""

from __future__ import annotations

from meeple_hall.games.coffee.build import GainCoffee
from meeple_hall.games.coffee.data import COFFEES, KOPI
from meeple_hall.games.coffee.names import who
from meeple_hall.games.coffee.prompts import CoffeeStep, offer
from meeple_hall.games.coffee.state import CoffeeState, Player, Prompt
from meeple_hall.games.coffee.words import coffee_name, m
from meeple_hall.games.core import Option
from meeple_hall.games.core.steps import Chosen, Offer

STORAGE_COLUMN = 10


def storage_limits(warehouses: int, columns: tuple[str, ...]) -> dict[str, int]:
    """A warehouse in a column keeps 10 of that coffee; one in a row keeps 1 of each."""
    rows = warehouses - len(columns)
    limits = dict.fromkeys((*COFFEES, KOPI), rows)
    for coffee in columns:
        limits[coffee] = STORAGE_COLUMN
    return limits


def keeps_everything_in_rows(player: Player) -> bool:
    return all(n <= player.built["warehouse"] for n in player.coffee.values())


def storage_options(player: Player) -> list[Option]:
    return [
        Option(c, m("label.storage", coffee=coffee_name(c)), {"coffee": c})
        for c in (*COFFEES, KOPI)
        if player.coffee[c]
    ]


def store(state: CoffeeState, seat: int, columns: tuple[str, ...]) -> None:
    player = state.players[seat]
    limits = storage_limits(player.built["warehouse"], columns)
    lost = 0
    for coffee, limit in limits.items():
        if player.coffee[coffee] > limit:
            lost += player.coffee[coffee] - limit
            player.coffee[coffee] = limit
    if lost:
        state.say(m("log.discards", seat=who(state, seat), n=lost))


def return_pieces(state: CoffeeState) -> None:
    for player in state.players:
        player.traders += player.traders_out
        player.traders_out = 0
        if "trader" not in player.bonus and player.traders:
            player.traders -= 1
            player.bonus.append("trader")
        player.markers += player.markers_used
        player.markers_used = 0
        if "marker" not in player.bonus:
            # the bonus marker was taken among the black ones: it goes back to the bonus
            player.markers -= 1
            player.bonus.append("marker")
    if state.andre is not None:
        state.andre.traders += state.andre.traders_out
        state.andre.traders_out = 0
    for coop in state.coops.values():
        coop.traders = []


def stock_income(player: Player, wild_choices: list[str]) -> None:
    for stock in player.stocks:
        if stock != "wild":
            player.coffee[stock] += 1
    for coffee in wild_choices:
        player.coffee[coffee] += 1


def refill_bonus_coins(state: CoffeeState) -> None:
    for seat, player in enumerate(state.players):
        if state.is_andre(seat) or "coins" in player.bonus:
            continue
        paid = min(3, player.coins)
        player.coins -= paid
        if paid < 3:
            player.minus_tokens += 3 - paid
            state.say(m("log.minus_tokens", seat=who(state, seat), n=3 - paid))
        player.bonus.append("coins")


def refill_trading_house_coins(state: CoffeeState) -> None:
    for coop in state.coops.values():
        coop.coin = True


def andre_refresh(state: CoffeeState) -> None:
    andre = state.andre
    if andre is None:
        return
    andre.contracts.pop(0)
    andre.flipped = []
    state.rng.shuffle(andre.counters)


# -- the steps of Phase 6 ------------------------------------------------------------------
class Storage(CoffeeStep):
    """Step 3, all players at once: the coffees whose column a warehouse is put in."""

    kind = "storage"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        player = state.players[frame.seat]
        options = storage_options(player)
        warehouses = player.built["warehouse"]
        prompt = m("prompt.storage", n=warehouses)
        return offer(prompt, options, low=0, high=min(warehouses, len(options)))

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        store(state, frame.seat, chosen.ids)
        state.done[frame.seat] = True


class WildIncome(GainCoffee):
    """Step 5: a Wild stock counter pays 1 coffee of the player's choice."""

    kind = "wild_income"
    answers_alone = False


STEPS = (Storage(), WildIncome())
