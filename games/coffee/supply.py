"""A company's pieces: coins and the bonus supply, Action markers, traders, coffee."""

from __future__ import annotations

from functools import cache

from meeple_hall.games.coffee.data import COFFEES, KOPI, components
from meeple_hall.games.coffee.state import CoffeeState, Player
from meeple_hall.games.coffee.words import m
from meeple_hall.games.core import Option

BONUS_ITEMS = ("marker", "trader", "coins")
BONUS_COINS = 3


def may_take_bonus(player: Player, item: str) -> bool:
    """At all times at least one of the three bonuses stays in the BONUS SUPPLY."""
    return item in player.bonus and len(player.bonus) >= 2


def take_bonus_coins(player: Player) -> None:
    player.bonus.remove("coins")
    player.coins += BONUS_COINS


def bonus_options(player: Player, marker: bool = False, trader: bool = False) -> list[Option]:
    """Take a bonus (the Action marker or trader only where it gives one more action), or
    put 3 coins or a trader back, which frees the third bonus. Taking is always the
    player's choice: nothing is used from the bonus supply unasked."""
    options = []
    if marker and may_take_bonus(player, "marker"):
        options.append(_bonus_option("bonus-marker"))
    if trader and may_take_bonus(player, "trader"):
        options.append(_bonus_option("bonus-trader"))
    if may_take_bonus(player, "coins"):
        options.append(bonus_coins_option())
    if len(player.bonus) == 1:
        if "coins" not in player.bonus and player.coins >= BONUS_COINS:
            options.append(_bonus_option("refill-coins"))
        if "trader" not in player.bonus and player.traders:
            options.append(_bonus_option("refill-trader"))
    return options


def bonus_coins_option() -> Option:
    return _bonus_option("bonus-coins")


BONUS_LABELS = {
    "bonus-marker": "label.bonus_marker",
    "bonus-trader": "label.bonus_trader",
    "bonus-coins": "label.bonus_coins",
    "refill-coins": "label.refill_coins",
    "refill-trader": "label.refill_trader",
}


@cache
def _bonus_option(action: str) -> Option:
    return Option(action, m(BONUS_LABELS[action]), {"action": action})


def use_bonus(player: Player, choice: str) -> bool:
    """Carry out a bonus-supply choice; False if `choice` is not one."""
    if choice == "bonus-coins":
        take_bonus_coins(player)
    elif choice == "bonus-marker":
        player.bonus.remove("marker")
        player.markers += 1
    elif choice == "bonus-trader":
        take_bonus_trader(player)
    elif choice == "refill-coins":
        player.coins -= BONUS_COINS
        player.bonus.append("coins")
    elif choice == "refill-trader":
        player.traders -= 1
        player.bonus.append("trader")
    else:
        return False
    return True


def take_bonus_trader(player: Player) -> None:
    player.bonus.remove("trader")
    player.traders += 1


# -- the personal supply: 9 donkeys and 6 civets per colour (EN "Components") ------------
def donkeys_left(state: CoffeeState, seat: int) -> int:
    """Donkeys not yet in the company supply or on a pathway."""
    owned = components().player_board["personal_supply"]["donkeys"]
    on_pathways = sum(
        w.donkeys
        for coop in state.coops.values()
        for w in coop.pathways.values()
        if w.owner == seat
    )
    return owned - state.players[seat].donkeys - on_pathways


def civets_left(state: CoffeeState, seat: int) -> int:
    """Civets not in Sumatra, the company supply or beside the contracts."""
    player = state.players[seat]
    owned = components().player_board["personal_supply"]["civets"]
    return owned - player.sumatra - player.civets - player.row_items.count("civet")


def scoring_markers_left(state: CoffeeState, seat: int) -> int:
    """Scoring markers not yet on a Coffee Bar space or a milestone."""
    owned = components().player_board["personal_supply"]["scoring_markers"]
    on_bars = sum(spaces.count(seat) for spaces in state.bars.values())
    return owned - on_bars - len(state.players[seat].milestones)


def gain_donkey(state: CoffeeState, seat: int) -> None:
    """A donkey from the personal supply to the company supply, while any is left."""
    if donkeys_left(state, seat) > 0:
        state.players[seat].donkeys += 1


def send_civet(state: CoffeeState, seat: int) -> None:
    """A civet from the personal supply to Sumatra, while any is left."""
    if civets_left(state, seat) > 0:
        state.players[seat].sumatra += 1


# -- Action markers -------------------------------------------------------------------
def markers_available(player: Player) -> int:
    """Black markers (the bonus one once taken) and the 4-player colour marker."""
    return player.markers + int(player.color_marker)


def spend_markers(player: Player, n: int) -> None:
    """Black markers first: the colour marker leaves the game once used."""
    for _ in range(n):
        if player.markers:
            player.markers -= 1
            player.markers_used += 1
        else:
            player.color_marker = False
            player.color_marker_used = True


# -- traders / contractors -------------------------------------------------------------
def has_trader(player: Player) -> bool:
    return player.traders > 0


def may_field_trader(player: Player) -> bool:
    """A trader for a piggyback: one's own, or (by choosing to) the bonus supply's."""
    return player.traders > 0 or may_take_bonus(player, "trader")


def send_trader(player: Player) -> None:
    """Place a trader; a follower without one of their own uses the bonus trader."""
    if not player.traders:
        take_bonus_trader(player)
    player.traders -= 1
    player.traders_out += 1


def retire_trader(player: Player) -> None:
    player.traders -= 1
    player.traders_retired += 1


# -- coffee ------------------------------------------------------------------------------
def total_coffee(player: Player) -> int:
    return sum(player.coffee.values())


def can_pay(player: Player, wants: dict[str, int]) -> bool:
    """Kopi luwak is wild: it covers whatever the other coffee cannot."""
    missing = sum(max(0, n - player.coffee[c]) for c, n in wants.items())
    return missing <= player.coffee[KOPI]


def pay(player: Player, wants: dict[str, int]) -> None:
    for coffee, n in wants.items():
        own = min(n, player.coffee[coffee])
        player.coffee[coffee] -= own
        player.coffee[KOPI] -= n - own
    assert player.coffee[KOPI] >= 0


def mixed_kinds(player: Player, n: int) -> dict[str, int] | None:
    """n coffees of n different kinds, using the largest stocks and kopi luwak for the rest."""
    held = sorted((c for c in COFFEES if player.coffee[c]), key=lambda c: -player.coffee[c])
    chosen = held[:n]
    short = n - len(chosen)
    if short > player.coffee[KOPI]:
        return None
    spare = [c for c in COFFEES if c not in chosen][:short]
    wants = dict.fromkeys(chosen, 1)
    for coffee in spare:
        wants[coffee] = 1
    return wants


def coffee_price(state: CoffeeState) -> int:
    return (2, 2, 3)[state.period - 1]
