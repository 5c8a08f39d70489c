"""Buildings: the columns of III. Trade & Build and their bonuses (Phase 3, Action B)."""

from __future__ import annotations

from meeple_hall.games.coffee import arabica
from meeple_hall.games.coffee.board import open_building_spaces, space_kinds
from meeple_hall.games.coffee.data import BOARD_COLUMNS, COLUMNS, components
from meeple_hall.games.coffee.names import coop_name, who
from meeple_hall.games.coffee.state import CoffeeState, Prompt
from meeple_hall.games.coffee.supply import send_civet
from meeple_hall.games.coffee.words import column_name, count, m
from meeple_hall.games.core import Msg, Option


def column_table(column: str) -> list[dict]:
    table = components().player_board["buildings"][column]
    return [table] if isinstance(table, dict) else table


def column_size(column: str) -> int:
    # the 1st warehouse was built during setup
    return len(column_table(column)) + (1 if column == "warehouse" else 0)


def hospital_unlocked(state: CoffeeState, seat: int) -> bool:
    built = state.players[seat].built
    return any(built[c] == column_size(c) for c in ("production", "fairtrade"))


def next_building(state: CoffeeState, seat: int, column: str, free_hospital: bool = False) -> bool:
    """Whether the column still has a topmost building the player may build."""
    built = state.players[seat].built
    if built[column] >= column_size(column):
        return False
    if column == "hospital" and not (free_hospital or hospital_unlocked(state, seat)):
        return False
    if column in BOARD_COLUMNS:
        return any(open_building_spaces(state, c, column) for c in state.coops)
    return True


def building_bonus(state: CoffeeState, seat: int, column: str) -> list[Msg]:
    """What the topmost building of a column brings, in words: `1 coffee, trade 3:1, 1 VP`."""
    player = state.players[seat]
    index = player.built[column] - (1 if column == "warehouse" else 0)
    bonus = column_table(column)[index]
    parts = []
    if bonus.get("coffee"):
        noun = "coffee_there" if column == "production" else "coffee"
        parts.append(count(noun, bonus["coffee"]))
    if "ratio" in bonus:
        parts.append(m("label.ratio", ratio=bonus["ratio"]))
    if bonus.get("civet"):
        parts.append(m("bonus.civet_short"))
    if bonus.get("coins"):
        parts.append(count("coin", bonus["coins"]))
    if bonus.get("step"):
        parts.append(m("bonus.arabica"))
    parts.append(count("vp", bonus["points"]))
    return parts


def buildable(state: CoffeeState, seat: int) -> list[str]:
    return [c for c in COLUMNS if next_building(state, seat, c)]


def site_options(state: CoffeeState, column: str, coffee: str | None = None) -> list[Option]:
    options = []
    for c in state.coops if coffee is None else [coffee]:
        kinds = space_kinds(column)
        for i in open_building_spaces(state, c, column):
            key = "label.site_step" if kinds[i] == "step" else "label.site"
            options.append(Option(f"{c}.{i}", m(key, coffee=coop_name(c), space=i + 1)))
    return options


def build(state: CoffeeState, seat: int, column: str, site: str | None) -> list[Prompt]:
    """Build the topmost building of `column` (on the board at `site`); returns the choices
    its bonuses still need."""
    player = state.players[seat]
    index = player.built[column] - (1 if column == "warehouse" else 0)
    bonus = column_table(column)[index]
    player.built[column] += 1
    follow: list[Prompt] = []
    coffee = None
    if site is not None:
        coffee, space = site.split(".")
        state.coops[coffee].buildings[column][int(space)] = seat
        if space_kinds(column)[int(space)] == "step":
            arabica.advance(state, seat, coffee)
        if column == "production":
            player.coffee[coffee] += bonus["coffee"]
    elif bonus.get("coffee"):
        follow.append(Prompt(seat, "gain_coffee"))
    if "ratio" in bonus:
        player.ratio = bonus["ratio"]
    if bonus.get("civet"):
        send_civet(state, seat)
    player.coins += bonus.get("coins", 0)
    follow += [Prompt(seat, "advance") for _ in range(bonus.get("step", 0))]
    if coffee is None:
        state.say(m("log.builds", seat=who(state, seat), building=column_name(column)))
    else:
        state.say(
            m(
                "log.builds_in",
                seat=who(state, seat),
                building=column_name(column),
                coffee=coop_name(coffee),
            )
        )
    return follow
