"""Buildings: the columns of III. Trade & Build and their bonuses (Phase 3, Action B)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple_hall.games.coffee import arabica
from meeple_hall.games.coffee.board import open_building_spaces, open_sites, space_kinds
from meeple_hall.games.coffee.data import BOARD_COLUMNS, COFFEES, COLUMNS, components
from meeple_hall.games.coffee.names import coop_name, who
from meeple_hall.games.coffee.prompts import CoffeeStep, ask_next, offer
from meeple_hall.games.coffee.state import CoffeeState, Prompt
from meeple_hall.games.coffee.supply import send_civet
from meeple_hall.games.coffee.words import column_name, count, m
from meeple_hall.games.core import Msg, Option
from meeple_hall.games.core.steps import Chosen, Offer


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


def printed_bonus(state: CoffeeState, seat: int, column: str) -> dict[str, int]:
    """What the topmost building of a column brings, as printed on the player board."""
    index = state.players[seat].built[column] - (1 if column == "warehouse" else 0)
    return dict(column_table(column)[index])


def building_bonus(state: CoffeeState, seat: int, column: str) -> list[Msg]:
    """What the topmost building of a column brings, in words: `1 coffee, trade 3:1, 1 VP`."""
    return bonus_words(column, printed_bonus(state, seat, column))


def bonus_words(column: str, bonus: Mapping[str, int]) -> list[Msg]:
    """A building's printed bonus in words (`printed_bonus`)."""
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


def build_option(
    state: CoffeeState, seat: int, column: str, option_id: str, key: str, **fields: str
) -> Option:
    """Build the topmost building of `column`: its label (`key`) names it and its bonus."""
    bonus = printed_bonus(state, seat, column)
    label = m(key, building=column_name(column), bonus=bonus_words(column, bonus))
    return Option(option_id, label, {**fields, **board_sites(state, column), "bonus": bonus})


def board_sites(state: CoffeeState, column: str, coffee: str | None = None) -> dict[str, Any]:
    """An option's fields for a building of `column`: the column, and on the board the spaces
    it may take (`sites`: its site is asked next, and a decision's picture rings them)."""
    if column not in BOARD_COLUMNS:
        return {"building": column}
    return {"building": column, "sites": open_sites(state, column, coffee)}


def site_options(state: CoffeeState, column: str, coffee: str | None = None) -> list[Option]:
    options = []
    kinds = space_kinds(column)
    for c, i in open_sites(state, column, coffee):
        step = kinds[i] == "step"
        label = m("label.site_step" if step else "label.site", coffee=coop_name(c), space=i + 1)
        fields = {"coffee": c, "space": i, "step": step, "building": column}
        options.append(Option(f"{c}.{i}", label, fields))
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


# -- steps that build for a bonus -------------------------------------------------------------
class FreeBuild(CoffeeStep):
    """A contract's bonus: the topmost building of a column for free (or the hospital)."""

    kind = "free_build"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        seat = frame.seat
        if frame.data["hospital"]:
            free = next_building(state, seat, "hospital", free_hospital=True)
            hospital = Option("hospital", m("label.hospital"), board_sites(state, "hospital"))
            return offer(m("prompt.free_build"), [hospital] if free else [])
        return offer(
            m("prompt.free_build"),
            [build_option(state, seat, c, c, "label.free_build") for c in buildable(state, seat)],
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        if chosen.id == "warehouse":
            ask_next(state, *build(state, frame.seat, "warehouse", None))
        else:
            ask_next(state, Prompt(frame.seat, "build_site", {"column": chosen.id, "free": True}))


class GainCoffee(CoffeeStep):
    """A production station built off the board: 1 coffee of the player's choice."""

    kind = "gain_coffee"
    answers_alone = True
    always_asks = True  # a coffee of each kind: five options

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        options = [Option(c, coop_name(c), {"coffee": c}) for c in COFFEES]
        return offer(m(f"prompt.{self.kind}"), options)

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        state.players[frame.seat].coffee[chosen.id] += 1


STEPS = (FreeBuild(), GainCoffee())
