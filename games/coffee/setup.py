"""Game board, player board and André setup by player count (English rulebook, "Setup")."""

from __future__ import annotations

from meeple_hall.games.coffee import arabica
from meeple_hall.games.coffee.assign import space_option
from meeple_hall.games.coffee.board import new_cooperative
from meeple_hall.games.coffee.data import COFFEES, KOPI, components
from meeple_hall.games.coffee.names import coop_name, who
from meeple_hall.games.coffee.prompts import CoffeeStep, offer
from meeple_hall.games.coffee.state import (
    Andre,
    CoffeeState,
    Cooperative,
    Plantation,
    Player,
    Prompt,
)
from meeple_hall.games.coffee.words import m
from meeple_hall.games.core import Rng
from meeple_hall.games.core.steps import Chosen, Offer

TOTAL_WORKERS = 60


def arabica_counters() -> list[str]:
    per = components().board["counters"]["arabica_per_coffee"]
    return [f"arabica:{c}" for c in COFFEES for _ in range(per)]


def new_game(
    num_players: int, rng: Rng, free_start: bool = False, handicap: tuple[int, int] | None = None
) -> CoffeeState:
    """`handicap` = (seat, n): that seat plays n random contracts on their 3-player side
    (EN "Player Board Setup" 13, for experienced players; 4-5 players only)."""
    rules_players = max(3, num_players)
    table = components()
    counts = table.setup["players"][str(rules_players)]
    seats = num_players + (1 if num_players == 2 else 0)
    # the draws keep the order every stored game was dealt in (a save replays from its seed)
    bar_animals = _bar_animals(rng)
    milestones = [rng.choice(_milestones_of(letter)) for letter in "ABC"]
    contract_bonus = _contract_bonus(rng, rules_players)
    humans = rng.shuffled(range(num_players))
    state = CoffeeState(
        rng=rng,
        num_players=num_players,
        rules_players=rules_players,
        players=[],
        coops=_cooperatives(rules_players),
        andre=None,
        order=[*humans, *([num_players] if num_players == 2 else [])],
        bars={bar: [None] * len(spaces) for bar, spaces in table.bars.items()},
        bar_animals=bar_animals,
        wild_stock=counts["wild_stock"],
        milestones=milestones,
        milestone_marks={m: [] for m in milestones},
        contract_bonus=contract_bonus,
        seventh=dict.fromkeys(COFFEES),
        donkey_taken=dict.fromkeys(COFFEES, False),
        general_workers=0,
        done=[False] * seats,
    )
    player_animals = rng.shuffled([f"animal:{c}" for c in COFFEES])
    contracts = _contract_decks(rng)
    for seat in range(num_players):
        hard = handicap[1] if handicap is not None and handicap[0] == seat else 0
        _seat_player(state, seat, contracts, player_animals.pop(), hard)
        _starting_plantations(state, seat, free_start)
        if counts["arabica_head_start"]:
            player = state.players[seat]
            player.arabica[table.contracts[player.contracts["E"]].coffees[0]] += 1
    if num_players == 2:
        _setup_andre(state, rng, contracts)
    on_board = sum(c.town for c in state.coops.values())
    in_pools = sum(p.pool for p in state.players)
    state.general_workers = TOTAL_WORKERS - on_board - in_pools
    return state


def _cooperatives(rules_players: int) -> dict[str, Cooperative]:
    trading_house = components().board["trading_house"]
    coops = {c: new_cooperative(rules_players) for c in COFFEES}
    for coffee, coop in coops.items():
        coop.town = trading_house["workers_in_town"]
        coop.stock = trading_house["stock_counters"]
        coop.animals = [f"animal:{coffee}", arabica.WILD]
    return coops


def _bar_animals(rng: Rng) -> dict[str, str]:
    """Coffee Bars: a random one of each Animal counter on the five leftmost bottom spaces
    (and the Wild Animal counter on its own)."""
    bars = components().bars
    bar_animals: dict[str, str] = {}
    animals = rng.shuffled([f"animal:{c}" for c in COFFEES])
    for bar, spaces in bars.items():
        for i, space in enumerate(spaces):
            if space.animal:
                bar_animals[f"{bar}.{i}"] = animals.pop()
            if space.wild_animal:
                bar_animals[f"{bar}.{i}"] = arabica.WILD
    return bar_animals


def _milestones_of(letter: str) -> list[str]:
    return [m.id for m in components().milestones.values() if m.letter == letter]


def _contract_bonus(rng: Rng, rules_players: int) -> dict[str, list[str]]:
    """Arabica counters beside the contract spaces of the board."""
    counters = rng.shuffled(arabica_counters())
    board = components().board["counters"]
    extra = board["contract_bonus_extra"][str(rules_players)]
    return {
        letter: [counters.pop() for _ in range(n + extra)]
        for letter, n in board["contract_bonus"].items()
    }


def _contract_decks(rng: Rng) -> dict[str, list[str]]:
    """The contracts by letter, each pile shuffled."""
    contracts: dict[str, list[str]] = {letter: [] for letter in "ABCDEF"}
    for contract in components().contracts.values():
        contracts[contract.letter].append(contract.id)
    for letter in contracts:
        rng.shuffle(contracts[letter])
    return contracts


def _seat_player(
    state: CoffeeState, seat: int, contracts: dict[str, list[str]], animal: str, hard: int
) -> None:
    """A company at the table: its supply, contracts A-E dealt and the F contract that
    matches E, the items beside its contract rows, and `hard` contracts on their 3-player
    side (the handicap)."""
    table = components()
    counts = table.setup["players"][str(state.rules_players)]
    start = table.setup["start"]
    rows = table.player_board["plantations"]
    player = Player(
        coins=start["coins"],
        donkeys=start["donkeys"],
        markers=counts["company_markers"],
        color_marker=counts["color_marker"],
        pool=counts["workers"],
        traders=counts["traders"],
        plantations={row: list(levels) for row, levels in rows["rows"].items()},
        farms=list(rows["farm_rows"]),
        planted=rows["starting_level1"],
        coffee=dict.fromkeys((*COFFEES, KOPI), 0),
        arabica=dict.fromkeys(COFFEES, 1),
        sumatra=1,
        ratio=table.player_board["buildings"]["start_ratio"],
    )
    for letter in "ABCDE":
        player.contracts[letter] = contracts[letter].pop()
    superscript = table.contracts[player.contracts["E"]].superscript
    player.contracts["F"] = f"F{superscript}"
    contracts["F"].remove(f"F{superscript}")
    player.row_items = [animal, "civet"]
    if counts["row_bonus_trader"]:
        player.row_items.append("trader")
    if hard and state.rules_players >= 4:
        player.hard_sides = sorted(state.rng.sample(list(player.contracts), hard))
    state.players.append(player)


def _starting_plantations(state: CoffeeState, seat: int, free_start: bool) -> None:
    """F contract: warehouse coffee (top 2, middle 1, bottom 1) and three level-1
    plantations (top: middle space, middle: rightmost, bottom: leftmost). Experienced
    players place the bottom one themselves, in turn order, on any empty 1 space."""
    table = components()
    player = state.players[seat]
    f = table.contracts[player.contracts["F"]]
    spaces = table.board["layout"]["starting_spaces"]
    amounts = table.setup["start"]["warehouse_coffee"]
    for position, coffee in zip(("top", "middle", "bottom"), f.coffees, strict=True):
        player.coffee[coffee] += amounts[position]
        if not (free_start and position == "bottom"):
            state.coops[coffee].rows[0][spaces[position]] = Plantation(owner=seat, level=1)


def _setup_andre(state: CoffeeState, rng: Rng, contracts: dict[str, list[str]]) -> None:
    table = components()
    seat = state.num_players
    andre_setup = table.setup["andre"]
    state.players.append(
        Player(
            coins=0,
            donkeys=0,
            markers=0,
            pool=0,
            traders=0,
            sumatra=0,
            coffee=dict.fromkeys((*COFFEES, KOPI), 0),
            arabica=dict.fromkeys(COFFEES, 1),
        )
    )
    # EN "Player Board Setup" 14-15: a random F contract; its three level-1 plantations go
    # on the board as for everyone ("do this for André, too!"; his stack holds the other 8
    # of 11), and a production station on the 4-/5-player space of each of its cooperatives.
    f = table.contracts[contracts["F"].pop()]
    production_space = list(table.board["buildings"]["production"]).index("p45")
    spaces = table.board["layout"]["starting_spaces"]
    for position, coffee in zip(("top", "middle", "bottom"), f.coffees, strict=True):
        state.coops[coffee].rows[0][spaces[position]] = Plantation(owner=seat, level=1)
        state.coops[coffee].buildings["production"][production_space] = seat
    state.andre = Andre(
        seat=seat,
        stack=list(andre_setup["plantations"]),
        fair_trade_posts=andre_setup["fair_trade_posts"],
        traders=andre_setup["traders"],
        traders_out=0,
        markers=andre_setup["scoring_markers"],
        contracts=[contracts[letter].pop() for letter in "ABC"],
        # "a set of 5 different Arabica counters": one of each coffee, never short even when
        # the Contract Bonus stacks hold all six of a coffee
        counters=rng.shuffled([f"arabica:{c}" for c in COFFEES]),
    )


class Start(CoffeeStep):
    """The experienced start: in turn order, each player places a first plantation on an
    empty space of a 1 row."""

    kind = "start"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        return offer(
            m("prompt.start"),
            [
                space_option(c, 1, i, m("label.start", coffee=coop_name(c), space=i + 1))
                for c, coop in state.coops.items()
                for i, p in enumerate(coop.rows[0])
                if p is None
            ],
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        coffee, _, space = chosen.id.split(".")
        state.coops[coffee].rows[0][int(space)] = Plantation(owner=frame.seat, level=1)
        state.say(m("log.starts", seat=who(state, frame.seat), coffee=coop_name(coffee)))
        state.done[frame.seat] = True
        state.turn += 1
