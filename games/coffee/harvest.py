"""Phase 4: Harvest. Staffed plantations produce; fair trade posts, then the 1st trader,
then every trader in order (5 rounds) take coffee; civets bring kopi luwak."""

from __future__ import annotations

from meeple_hall.games.coffee.data import COFFEES, KOPI, components
from meeple_hall.games.coffee.names import coop_name, who
from meeple_hall.games.coffee.state import CoffeeState
from meeple_hall.games.coffee.supply import send_civet
from meeple_hall.games.coffee.words import m


def production(state: CoffeeState, coffee: str) -> int:
    per = components().board["harvest"]["coffee_per_plantation"][str(state.rules_players)]
    staffed = sum(1 for row in state.coops[coffee].rows for p in row if p is not None and p.staffed)
    return staffed * per


def distribute(total: int, fair_trade_posts: list[int], traders: list[int]) -> dict[int, int]:
    """Who gets how much of one cooperative's coffee (the remainder goes to waste)."""
    rounds = components().board["harvest"]["rounds"]
    shares: dict[int, int] = {}
    left = total
    for seat in [*fair_trade_posts, *traders[:1]]:
        if left:
            shares[seat] = shares.get(seat, 0) + 1
            left -= 1
    for _ in range(rounds):
        for seat in traders:
            if left:
                shares[seat] = shares.get(seat, 0) + 1
                left -= 1
    return shares


def harvest(state: CoffeeState) -> None:
    for coffee, coop in state.coops.items():
        total = production(state, coffee)
        posts = [s for s in coop.buildings["fairtrade"] if s is not None]
        shares = distribute(total, posts, coop.traders)
        for seat, n in shares.items():
            if not state.is_andre(seat):
                state.players[seat].coffee[coffee] += n
        if total:
            got = [m("log.share", seat=who(state, s), n=n) for s, n in shares.items()]
            state.say(
                m("log.produces", coffee=coop_name(coffee), n=total, shares=got or m("log.nobody"))
            )
    threshold = components().board["harvest"]["civet_threshold"][str(state.rules_players)]
    for seat, player in enumerate(state.players):
        if state.is_andre(seat):
            continue
        if all(player.coffee[c] >= threshold for c in COFFEES):
            send_civet(state, seat)
        player.coffee[KOPI] += player.sumatra
        if player.sumatra:
            state.say(m("log.kopi", seat=who(state, seat), n=player.sumatra))
        player.sumatra = 0
