"""Phase 1: Work. In turn order, one Cooperative action per turn until all drop out."""

from __future__ import annotations

import functools

from meeple_hall.games.coffee import arabica
from meeple_hall.games.coffee.board import (
    DONKEYS_NEEDED,
    Placement,
    above,
    can_place,
    claim,
    claimed_by_other,
    open_building_spaces,
    own,
    parse_placement,
    path_key,
    pathway,
    placements,
)
from meeple_hall.games.coffee.data import components
from meeple_hall.games.coffee.names import (
    bonus_item,
    coop_name,
    counter_fields,
    counter_name,
    who,
)
from meeple_hall.games.coffee.prompts import CoffeeStep, ask_next, offer
from meeple_hall.games.coffee.state import CoffeeState, Cooperative, Plantation, Prompt
from meeple_hall.games.coffee.supply import (
    bonus_options,
    civets_left,
    donkeys_left,
    gain_donkey,
    markers_available,
    may_take_bonus,
    send_civet,
    spend_markers,
    use_bonus,
)
from meeple_hall.games.coffee.words import count, m
from meeple_hall.games.core import Msg, Option
from meeple_hall.games.core.steps import Chosen, Offer

ROWS = ("A", "B", "C")


def plantation_cost(level: int) -> int:
    return components().player_board["plantation_costs"]["level"][str(level)]


def plantable_rows(state: CoffeeState, seat: int) -> list[str]:
    return [row for row in ROWS if plantable(state, seat, row)]


def plantable(state: CoffeeState, seat: int, row: str) -> bool:
    """Whether the leftmost plantation of a row of the player board can be paid and has a
    space on the board."""
    player = state.players[seat]
    levels = player.plantations[row]
    return (
        bool(levels)
        and plantation_cost(levels[0]) <= player.coins
        and can_place(state, seat, levels[0])
    )


def pathway_fields(token: str) -> dict[str, str | int]:
    """`gua.1.2.1`: the pathway of Guatemala from row 1 space 2 to space 1 of the row above."""
    coffee, row, lower, upper = token.split(".")
    return {"coffee": coffee, "row": int(row), "space": int(lower), "upper_space": int(upper)}


def pathway_label(state: CoffeeState, seat: int, token: str) -> Msg:
    """`gua.1.2.1` -> "Guatemala: row 1 space 3 to row 2 space 2 (donkey 1 of 1)"."""
    coffee, row, lower, upper = token.split(".")
    key = path_key(int(row), int(lower), int(upper))
    have = pathway(state.coops[coffee], key).donkeys
    return m(
        "label.pathway",
        coffee=coop_name(coffee),
        row=int(row),
        space=int(lower) + 1,
        upper_row=int(row) + 1,
        upper_space=int(upper) + 1,
        donkey=have + 1,
        of=DONKEYS_NEEDED[int(row)],
    )


def send_candidates(state: CoffeeState, coffee: str) -> list[int]:
    coop = state.coops[coffee]
    return [
        seat
        for seat in state.order
        if any(p is not None and p.owner == seat and not p.staffed for r in coop.rows for p in r)
    ]


def donkey_pathways(state: CoffeeState, seat: int) -> list[str]:
    """Empty pathway spaces between one of the player's plantations and the row above."""
    out = []
    for coffee, coop in state.coops.items():
        for row in (1, 2):
            for space in own(coop, seat, row):
                for upper in above(row, space):
                    if row == 2 and claimed_by_other(coop, upper, seat):
                        continue  # that 2/3 space is already another player's
                    key = path_key(row, space, upper)
                    claimed = pathway(coop, key)
                    if claimed.owner in (None, seat) and claimed.donkeys < DONKEYS_NEEDED[row]:
                        out.append(f"{coffee}.{key}")
    return out


def may_work(state: CoffeeState, seat: int) -> bool:
    """Whether `work_options` offers anything, without working them out: with an Action
    marker Take 2 coins at least; without one, only what the bonus supply offers."""
    player = state.players[seat]
    if markers_available(player) >= 1:
        return True
    takes_marker = may_take_bonus(player, "marker")
    return (takes_marker or player.bonus == ["marker"]) and bool(
        bonus_options(player, marker=takes_marker)
    )


def work_options(state: CoffeeState, seat: int) -> list[Option]:
    player = state.players[seat]
    markers = markers_available(player)
    options: list[Option] = []
    # a donkey can be bred (with the bonus marker as its second action where need be)
    breeding = (
        markers >= 1 and bool(donkeys_left(state, seat)) and bool(donkey_pathways(state, seat))
    )
    if markers >= 1:
        if any(plantable(state, seat, row) for row in ROWS):
            options.append(action_option("plant"))
        for coffee, coop in state.coops.items():
            if coop.town and send_candidates(state, coffee):
                # The rule: each player with an empty plantation there gets one worker, on
                # their unoccupied plantation in the lowest row.
                options.append(send_option(coffee))
    if markers >= 2 and breeding:
        options.append(action_option("donkey"))
    if markers >= 1 and civets_left(state, seat):
        options.append(action_option("civet"))
    if markers >= 1:
        options.append(action_option("coins"))
    # the bonus marker gives a first action, or the second one a donkey needs
    takes_marker = (markers == 0 or (markers == 1 and breeding)) and may_take_bonus(
        player, "marker"
    )
    # putting 3 coins back frees the bonus marker when it is the last bonus left
    if options or takes_marker or (markers == 0 and player.bonus == ["marker"]):
        options += bonus_options(player, marker=takes_marker)
    return options


# A Work panel asks for the next seat's options for every line it tries: the options, which
# never change, are made once.
@functools.cache
def action_option(action: str) -> Option:
    """Plant, breed a donkey, send a civet, take 2 coins (`label.<action>`)."""
    return Option(action, m(f"label.{action}"), {"action": action})


@functools.cache
def send_option(coffee: str) -> Option:
    label = m("label.send", coffee=coop_name(coffee))
    return Option(f"send.{coffee}", label, {"action": "send", "coffee": coffee})


@functools.cache
def drop_option() -> Option:
    """Drop out of the Work phase."""
    return Option("drop", m("label.drop_work"), {"action": "drop"})


def perform_work(state: CoffeeState, seat: int, choice: str) -> None:
    player = state.players[seat]
    if use_bonus(player, choice):
        return
    if choice == "drop":
        state.done[seat] = True
        state.say(m("log.drops_work", seat=who(state, seat)))
    elif choice == "plant":
        spend_markers(player, 1)
        ask_next(state, Prompt(seat, "plant_row"))
    elif choice.startswith("send."):
        spend_markers(player, 1)
        send_workers(state, seat, choice.split(".")[1])
    elif choice == "donkey":
        spend_markers(player, 2)
        ask_next(state, Prompt(seat, "donkey"))
    elif choice == "civet":
        spend_markers(player, 1)
        send_civet(state, seat)
        state.say(m("log.civet", seat=who(state, seat)))
    elif choice == "coins":
        spend_markers(player, 1)
        player.coins += 2
        state.say(m("log.coins", seat=who(state, seat)))
    state.turn += 1


def plant_space_options(state: CoffeeState, seat: int, row: str) -> list[Option]:
    level = state.players[seat].plantations[row][0]
    # EN Phase 1 A4: the 1st plantation in a cooperative sends a worker to its town
    firsts = {
        coffee
        for coffee, coop in state.coops.items()
        if not any(p is not None and p.owner == seat for r in coop.rows[:3] for p in r)
    }
    options = []
    for where in placements(state, seat, level):
        to_town = where.row == 1 and where.coffee in firsts
        paid = where.donkeys_needed(state.coops[where.coffee], seat) if where.via is not None else 0
        options.append(plant_space_option(level, where, to_town, paid))
    return options


# made once (a Work panel asks for a row's spaces for every row it tries)
@functools.cache
def plant_space_option(level: int, where: Placement, to_town: bool, donkeys: int) -> Option:
    """A plantation of `level` at `where`, sending a worker to the town or paying `donkeys`
    donkeys on the way from below."""
    label = m(
        "label.plant_space",
        level=level,
        coffee=coop_name(where.coffee),
        how=_how(where, to_town, donkeys),
    )
    fields = {
        "coffee": where.coffee,
        "row": where.row,
        "space": where.space,
        "via": where.via,
        "truck": where.truck,
    }
    return Option(where.id, label, fields)


def _how(where: Placement, to_town: bool, donkeys: int) -> list[Msg]:
    parts = [m("label.row_space", row=where.row, space=where.space + 1)]
    if to_town:
        parts.append(m("label.to_town"))
    if where.truck:
        return [*parts, m("label.by_truck")]
    if where.via is None:
        return parts
    parts.append(m("label.from_below", space=where.via + 1))
    return parts + ([m("label.donkeys_paid", donkeys=count("donkey", donkeys))] if donkeys else [])


def plant(state: CoffeeState, seat: int, row: str, token: str) -> None:
    player = state.players[seat]
    level = player.plantations[row].pop(0)
    index = _board_index(row, len(player.plantations[row]))
    player.coins -= plantation_cost(level)
    where = parse_placement(token)
    coop = state.coops[where.coffee]
    if not any(own(coop, seat, r) for r in (1, 2, 3)) and not state.is_andre(seat):
        player.pool -= 1
        coop.town += 1
    if where.via is not None:
        needed = where.donkeys_needed(coop, seat)
        player.donkeys -= needed
        claim(coop, path_key(where.row - 1, where.via, where.space), seat, needed)
    if where.truck:
        player.trucks -= 1
    coop.rows[where.row - 1][where.space] = Plantation(
        owner=seat, level=level, support=where.via, truck=where.truck
    )
    player.planted += 1
    if row == "B" and level == 3:
        player.row_b_level3 = True
    state.say(
        m(
            "log.plants",
            seat=who(state, seat),
            level=level,
            coffee=coop_name(where.coffee),
            row=where.row,
        )
    )
    _plantation_bonus(state, seat, row, index)
    if where.row >= 2:
        arabica.advance(state, seat, where.coffee)
    follow: list[Prompt] = []
    if where.row == 3 and coop.animals:
        follow.append(Prompt(seat, "animal", {"coffee": where.coffee}))
    if not player.plantations[row] and row in player.farms:
        follow.append(Prompt(seat, "farm", {"row": row}))
    ask_next(state, *follow)
    if not any(player.plantations.values()):
        send_civet(state, seat)


def _board_index(row: str, left: int) -> int:
    total = len(components().player_board["plantations"]["rows"][row])
    return total - left - 1


def _plantation_bonus(state: CoffeeState, seat: int, row: str, index: int) -> None:
    bonus = components().player_board["plantations"]["bonus"][row][index]
    player = state.players[seat]
    if bonus == "coin":
        player.coins += 1
    elif bonus == "donkey":
        gain_donkey(state, seat)
    elif bonus == "worker" and state.general_workers:
        state.general_workers -= 1
        player.pool += 1


def farm_options(state: CoffeeState, seat: int) -> list[Option]:
    cost = components().player_board["plantation_costs"]["farm"]
    options = []
    if state.players[seat].coins >= cost:
        # farm spaces show no bonus: one option per cooperative, its first empty space
        for coffee in state.coops:
            for i in open_building_spaces(state, coffee, "farm")[:1]:
                label = m("label.farm", coffee=coop_name(coffee))
                fields = {"action": "farm", "coffee": coffee, "space": i}
                options.append(Option(f"farm.{coffee}.{i}", label, fields))
    options.append(Option("discard", m("label.discard_farm"), {"action": "discard"}))
    return options


def build_farm(state: CoffeeState, seat: int, row: str, token: str) -> None:
    player = state.players[seat]
    player.farms.remove(row)
    if token == "discard":
        return
    _, coffee, space = token.split(".")
    player.coins -= components().player_board["plantation_costs"]["farm"]
    state.coops[coffee].buildings["farm"][int(space)] = seat
    state.say(m("log.farm", seat=who(state, seat), coffee=coop_name(coffee)))


def breed_donkey(state: CoffeeState, seat: int, token: str) -> None:
    coffee, key = token.split(".", 1)
    claim(state.coops[coffee], key, seat, 1)
    state.say(m("log.donkey", seat=who(state, seat), coffee=coop_name(coffee)))


def send_workers(state: CoffeeState, seat: int, coffee: str) -> None:
    candidates = send_candidates(state, coffee)
    town = state.coops[coffee].town
    if len(candidates) <= town:
        staff(state, seat, coffee, candidates)
    else:
        chooser = seat if not state.is_andre(seat) else first_human(state)
        ask_next(
            state, Prompt(chooser, "send_choose", {"coffee": coffee, "actor": seat, "n": town})
        )


def first_human(state: CoffeeState) -> int:
    return next(s for s in state.order if not state.is_andre(s))


def staff(state: CoffeeState, actor: int, coffee: str, seats: list[int]) -> None:
    """One worker from the town center to each seat's lowest unoccupied plantation."""
    coop = state.coops[coffee]
    for seat in seats:
        row, space = unstaffed(coop, seat)
        plantation = coop.rows[row - 1][space]
        assert plantation is not None
        plantation.staffed = True
        coop.town -= 1
    if coop.town == 0 and state.general_workers:
        state.general_workers -= 1
        coop.town = 1
    names = [who(state, s) for s in seats]
    state.say(m("log.sends", seat=who(state, actor), coffee=coop_name(coffee), seats=names))
    if any(s != actor for s in seats) and not state.is_andre(actor):
        arabica.advance(state, actor, coffee)


def unstaffed(coop: Cooperative, seat: int) -> tuple[int, int]:
    """(row, space) of the seat's lowest plantation on `coop` without a worker: where one
    sent from the town center goes."""
    return next(
        (r, i)
        for r, row in enumerate(coop.rows, start=1)
        for i, p in enumerate(row)
        if p is not None and p.owner == seat and not p.staffed
    )


def seat_token(seat: int) -> str:
    return f"p{seat + 1}"


def plantation_row_label(state: CoffeeState, seat: int, row: str) -> Msg:
    """`Row B: level 2 (1 coin), then a donkey`: the leftmost plantation of a row of the
    player board, its cost above it and the bonus printed below its space."""
    player = state.players[seat]
    board = components().player_board["plantations"]
    index = len(board["rows"][row]) - len(player.plantations[row])
    bonus = board["bonus"][row][index]
    level = player.plantations[row][0]
    cost = plantation_cost(level)
    if cost:
        if bonus == "none":
            return m("label.plant_row_cost", row=row, level=level, cost=count("coin", cost))
        return m(
            "label.plant_row_cost_then",
            row=row,
            level=level,
            cost=count("coin", cost),
            bonus=bonus_item(bonus),
        )
    if bonus == "none":
        return m("label.plant_row", row=row, level=level)
    return m("label.plant_row_then", row=row, level=level, bonus=bonus_item(bonus))


# -- the steps of Phase 1 ------------------------------------------------------------------
class Work(CoffeeStep):
    """The seat whose turn it is takes a Cooperative action, or drops out."""

    kind = "work"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        return offer(m("prompt.work"), [*work_options(state, frame.seat), drop_option()])

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        perform_work(state, frame.seat, chosen.id)


class PlantRow(CoffeeStep):
    """Action A: the row of the player board whose leftmost plantation is planted."""

    kind = "plant_row"
    answers_alone = True

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        rows = plantable_rows(state, frame.seat)
        return offer(
            m("prompt.plant_row"),
            [Option(r, plantation_row_label(state, frame.seat, r), {"board_row": r}) for r in rows],
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        ask_next(state, Prompt(frame.seat, "plant_space", {"row": chosen.id}))


class PlantSpace(CoffeeStep):
    """Action A: the cooperative space it goes to (and the way it is reached)."""

    kind = "plant_space"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        level = state.players[frame.seat].plantations[frame.data["row"]][0]
        options = plant_space_options(state, frame.seat, frame.data["row"])
        return offer(m("prompt.plant_space", level=level), options)

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        plant(state, frame.seat, frame.data["row"], chosen.id)


class Animal(CoffeeStep):
    """A plantation in the 3 row takes one of the cooperative's Animal counters."""

    kind = "animal"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        coffee = frame.data["coffee"]
        return offer(
            m("prompt.animal", coffee=coop_name(coffee)),
            [
                Option(c.replace(":", "."), counter_name(c), counter_fields(c))
                for c in state.coops[coffee].animals
            ],
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        counter = chosen.id.replace(".", ":")
        state.coops[frame.data["coffee"]].animals.remove(counter)
        arabica.gain_counter(state, frame.seat, counter)


class Farm(CoffeeStep):
    """A row of the player board emptied: build its farm, or discard it."""

    kind = "farm"
    always_asks = True  # Discard it

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        return offer(m("prompt.farm", row=frame.data["row"]), farm_options(state, frame.seat))

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        build_farm(state, frame.seat, frame.data["row"], chosen.id)


class Donkey(CoffeeStep):
    """Action C: the pathway the bred donkey goes to."""

    kind = "donkey"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        seat = frame.seat
        return offer(
            m("prompt.donkey"),
            [
                Option(t, pathway_label(state, seat, t), pathway_fields(t))
                for t in donkey_pathways(state, seat)
            ],
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        breed_donkey(state, frame.seat, chosen.id)


class SendChoose(CoffeeStep):
    """Action B with fewer workers in the town center than players to get one: who gets them."""

    kind = "send_choose"

    def offer(self, state: CoffeeState, frame: Prompt) -> Offer:
        coffee, n = frame.data["coffee"], frame.data["n"]
        return offer(
            m("prompt.send_choose", coffee=coop_name(coffee), n=n),
            [
                Option(
                    seat_token(s),
                    who(state, s),
                    {"seat": s, "town": coffee, "staffs": list(unstaffed(state.coops[coffee], s))},
                )
                for s in send_candidates(state, coffee)
            ],
            low=n,
            high=n,
        )

    def perform(self, state: CoffeeState, frame: Prompt, chosen: Chosen) -> None:
        tokens = set(chosen.ids)
        seats = [s for s in state.order if seat_token(s) in tokens]
        staff(state, frame.data["actor"], frame.data["coffee"], seats)


STEPS = (Work(), PlantRow(), PlantSpace(), Animal(), Farm(), Donkey(), SendChoose())
