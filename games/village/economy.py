"""Paying for things: influence cubes (with coins as any cube), grain, goods and time."""

from __future__ import annotations

from meeple_hall.games.village import data
from meeple_hall.games.village.state import Player, VillageState


def coins_available(player: Player) -> int:
    return player.coins + (1 if player.marker_coin else 0)


def shortfall(player: Player, cubes: dict[str, int]) -> int:
    return sum(max(0, n - player.cubes.get(c, 0)) for c, n in cubes.items())


def can_pay(player: Player, cubes: dict[str, int]) -> bool:
    """Coins stand in for any influence cube (the rule "coins as any cube")."""
    return shortfall(player, cubes) <= coins_available(player)


def pay_coins(state: VillageState, player: Player, n: int) -> None:
    """Spend coins; in solo the next-start-player marker is spent first (it is a coin)."""
    if n and player.marker_coin:
        # Spent, the marker stays off the council until the next round begins.
        player.marker_coin = False
        n -= 1
    if n > player.coins:
        raise ValueError("not enough coins")
    player.coins -= n


def pay(state: VillageState, player: Player, cubes: dict[str, int]) -> None:
    """Pay cubes to the supply. Coins stand in for the cubes the player lacks, and for more
    if the player chose to spend more coins (replacing cubes in the cost's order)."""
    use, replaced = coin_split(player, cubes, state.coins_chosen)
    coins = sum(replaced.values())
    state.coins_chosen = -1
    for colour, n in use.items():
        player.cubes[colour] -= n
        state.supply[colour] += n
    pay_coins(state, player, coins)


def coin_split(
    player: Player, cubes: dict[str, int], coins: int
) -> tuple[dict[str, int], dict[str, int]]:
    """A payment of `cubes` with `coins` coins (at least the cubes lacking): the cubes paid,
    and the cubes the coins stand in for (those lacking, then in the cost's order)."""
    use = {c: min(n, player.cubes.get(c, 0)) for c, n in cubes.items()}
    replaced = {c: n - use[c] for c, n in cubes.items()}
    extra = max(0, coins - sum(replaced.values()))
    for colour in cubes:
        swap = min(extra, use[colour])
        use[colour] -= swap
        replaced[colour] += swap
        extra -= swap
    return use, replaced


def coin_range(player: Player, cubes: dict[str, int]) -> range:
    """How many coins a payment of `cubes` may use: at least the cubes lacking."""
    least = shortfall(player, cubes)
    return range(least, min(coins_available(player), sum(cubes.values())) + 1)


def gain_cube(state: VillageState, player: Player, colour: str) -> None:
    state.supply[colour] -= 1
    player.cubes[colour] += 1


def gain_grain(player: Player, n: int) -> None:
    player.grain = min(data.rules()["grain_cap"], player.grain + n)


def has_goods(player: Player, wants: dict[str, int]) -> bool:
    return all(
        (player.grain if g == "grain" else player.goods.get(g, 0)) >= n for g, n in wants.items()
    )


def pay_goods(player: Player, wants: dict[str, int]) -> None:
    for good, n in wants.items():
        if good == "grain":
            player.grain -= n
        else:
            player.goods[good] -= n


def spend_time(player: Player, n: int) -> int:
    """Move the time marker; return how many times it passed the quill."""
    length = data.track_length()
    before = player.time // length
    player.time += n
    passed = player.time // length - before
    player.deaths_due += passed
    return passed
