"""Choices that come up in the middle of a turn: bonuses, piggybacks, payments."""

from __future__ import annotations

from meeple_hall.games.coffee import arabica, assign, sell, trade, work
from meeple_hall.games.coffee.build import (
    build,
    buildable,
    building_bonus,
    next_building,
    site_options,
)
from meeple_hall.games.coffee.data import COFFEES, components
from meeple_hall.games.coffee.names import (
    bar_name,
    bonus_item,
    bonus_name,
    coop_name,
    counter_name,
    who,
)
from meeple_hall.games.coffee.state import CoffeeState, Prompt
from meeple_hall.games.coffee.supply import send_trader
from meeple_hall.games.coffee.words import coffee_name, column_name, count, m
from meeple_hall.games.core import Decision, Msg, Option


def seat_token(seat: int) -> str:
    return f"p{seat + 1}"


def row_item_name(state: CoffeeState, item: str) -> Msg:
    if item == "trader":
        return m("label.row_trader")
    if item == "civet":
        # EN "Phase 5" A5: in Period 3 the civet goes to the company supply (1 VP)
        return m("label.row_civet_supply") if state.period == 3 else m("label.row_civet")
    return counter_name(item)


def plantation_row_label(state: CoffeeState, seat: int, row: str) -> Msg:
    """`Row B: level 2 (1 coin), then a donkey`: the leftmost plantation of a row of the
    player board, its cost above it and the bonus printed below its space."""
    player = state.players[seat]
    board = components().player_board["plantations"]
    index = len(board["rows"][row]) - len(player.plantations[row])
    bonus = board["bonus"][row][index]
    level = player.plantations[row][0]
    cost = work.plantation_cost(level)
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


def advance_label(state: CoffeeState, seat: int, coffee: str) -> Msg:
    """`Brazil: column 2 → 3`, or that the step would be lost there."""
    column = state.players[seat].arabica[coffee]
    after = arabica.column_after_step(state, seat, coffee)
    if after is None:
        return m("label.advance_lost", coffee=coop_name(coffee), column=column)
    return m("label.advance", coffee=coop_name(coffee), column=column, after=after)


def prompt_decision(state: CoffeeState, prompt: Prompt) -> Decision:
    seat, kind, data = prompt.seat, prompt.kind, prompt.data
    player = state.players[seat]
    low = high = 1
    text: Msg = m(f"prompt.{kind}")
    options: list[Option] = []
    if kind == "plant_row":
        options = [
            Option(r, plantation_row_label(state, seat, r))
            for r in work.plantable_rows(state, seat)
        ]
    elif kind == "plant_space":
        level = player.plantations[data["row"]][0]
        text = m("prompt.plant_space", level=level)
        options = work.plant_space_options(state, seat, data["row"])
    elif kind == "animal":
        text = m("prompt.animal", coffee=coop_name(data["coffee"]))
        options = [
            Option(c.replace(":", "."), counter_name(c))
            for c in state.coops[data["coffee"]].animals
        ]
    elif kind == "farm":
        row = data["row"]
        text = m("prompt.farm", row=row)
        options = work.farm_options(state, seat)
    elif kind == "donkey":
        options = [
            Option(t, work.pathway_label(state, seat, t)) for t in work.donkey_pathways(state, seat)
        ]
    elif kind == "send_choose":
        n = data["n"]
        text = m("prompt.send_choose", coffee=coop_name(data["coffee"]), n=n)
        options = [
            Option(seat_token(s), who(state, s))
            for s in work.send_candidates(state, data["coffee"])
        ]
        low = high = data["n"]
    elif kind == "advance":
        if data.get("why") == "wild":
            text = m("prompt.advance_wild")
        options = [Option(c, advance_label(state, seat, c)) for c in COFFEES]
    elif kind in ("gain_coffee", "wild_income"):
        options = [Option(c, coop_name(c)) for c in COFFEES]
    elif kind == "piggy_trader":
        text = m("prompt.piggy_trader", coffee=coop_name(data["coffee"]))
        own = m("label.join_trader") if player.traders else m("label.join_bonus_trader")
        options = [Option("join", own), Option("decline", m("label.decline"))]
    elif kind == "build_site":
        text = m("prompt.build_site", building=column_name(data["column"]))
        options = site_options(state, data["column"], data.get("coffee"))
    elif kind == "piggy_build":
        builder = who(state, data["builder"])
        place = data["place"]
        text = (
            m("prompt.piggy_build_board", builder=builder)
            if place is None
            else m("prompt.piggy_build", builder=builder, coffee=coop_name(place))
        )
        own = "label.join_build" if player.traders else "label.join_build_bonus"
        options = [
            Option(f"join.{c}", m(own, building=column_name(c)))
            for c in trade.follow_columns(state, seat, data["place"])
        ]
        options.append(Option("decline", m("label.decline")))
    elif kind == "piggy_pay":
        text = m("prompt.piggy_pay", builder=who(state, data["builder"]))
        options = trade.piggy_pay_options(state, seat)
    elif kind == "convert":
        text = m("prompt.convert", n=player.ratio, coffee=coffee_name(data["target"]))
        options = sell.convert_units(player, data["target"])
        low = high = player.ratio
    elif kind == "stock":
        n = data["warehouses"]
        low = high = 3 if n == 1 else 5
        text = m("prompt.stock", n=low, warehouses=count("warehouse", n))
        options = sell.stock_options(player)
    elif kind == "contract_bonus":
        sides = components().player_board["contracts"]["bonus"][data["letter"]]
        text = m("prompt.contract_bonus", letter=data["letter"])
        options = [
            Option(str(i), m("label.take_bonus", bonus=bonus_name(side)))
            for i, side in enumerate(sides)
        ]
    elif kind == "row_bonus":
        options = [Option(i.replace(":", "."), row_item_name(state, i)) for i in player.row_items]
    elif kind == "free_build":
        if data["hospital"]:
            hospital = next_building(state, seat, "hospital", free_hospital=True)
            options = [Option("hospital", m("label.hospital"))] if hospital else []
        else:
            options = [
                Option(
                    c,
                    m(
                        "label.free_build",
                        building=column_name(c),
                        bonus=building_bonus(state, seat, c),
                    ),
                )
                for c in buildable(state, seat)
            ]
    elif kind == "sell_second":
        options = [
            *sell.bar_options(state, seat),
            *sell.trade_options(state, seat),
            Option("drop", m("label.drop_sell")),
        ]
    elif kind == "mixed_pay":
        low = high = sell.bar_space(data["bar"]).amount
        bar = bar_name(data["bar"].split(".")[1])
        text = m("prompt.mixed_pay", bar=bar, n=low)
        options = sell.mixed_options(player, low)
    elif kind == "remove":
        options = [
            Option(
                assign.space_id(c, r, s), m("label.remove", coffee=coop_name(c), row=r, space=s + 1)
            )
            for c, r, s, _ in assign.highest_unoccupied(state, seat)
        ]
    return Decision(seat, kind, text, tuple(options), min_choices=low, max_choices=high)


def answer_prompt(state: CoffeeState, prompt: Prompt, choices: tuple[str, ...]) -> None:
    seat, kind, data = prompt.seat, prompt.kind, prompt.data
    player = state.players[seat]
    choice = choices[0] if choices else ""
    if kind == "plant_row":
        state.prompts.insert(0, Prompt(seat, "plant_space", {"row": choice}))
    elif kind == "plant_space":
        work.plant(state, seat, data["row"], choice)
    elif kind == "animal":
        counter = choice.replace(".", ":")
        state.coops[data["coffee"]].animals.remove(counter)
        arabica.gain_counter(state, seat, counter)
    elif kind == "farm":
        work.build_farm(state, seat, data["row"], choice)
    elif kind == "donkey":
        work.breed_donkey(state, seat, choice)
    elif kind == "send_choose":
        chosen = {int(c[1:]) - 1 for c in choices}
        seats = [s for s in state.order if s in chosen]
        work.staff(state, data["actor"], data["coffee"], seats)
    elif kind == "advance":
        arabica.advance(state, seat, choice)
    elif kind in ("gain_coffee", "wild_income"):
        player.coffee[choice] += 1
    elif kind == "piggy_trader":
        out = list(data["out"])
        if choice == "join":
            trade.join_trader(state, seat, data["coffee"])
        else:
            out.append(seat)
        trade.continue_piggy_trader(state, data["coffee"], list(data["rest"]), out)
    elif kind == "build_site":
        if data.get("free"):
            state.prompts[0:0] = build(state, seat, data["column"], choice)
        else:
            trade.resolve_build(state, seat, data["column"], choice, data["lead"], data.get("rest"))
    elif kind == "piggy_build":
        if choice == "decline":
            state.prompts[0:0] = trade.piggy_build_prompt(
                state, data["builder"], data["place"], data["rest"]
            )
        else:
            send_trader(player)
            follow = {**data, "column": choice.split(".")[1]}
            state.prompts.insert(0, Prompt(seat, "piggy_pay", follow))
    elif kind == "piggy_pay":
        trade.pay_builder(state, seat, data["builder"], choice)
        if data["column"] == "warehouse":
            trade.resolve_build(state, seat, "warehouse", None, data["builder"], data["rest"])
        else:
            site = {
                "column": data["column"],
                "lead": data["builder"],
                "coffee": data["place"],
                "rest": data["rest"],
            }
            state.prompts.insert(0, Prompt(seat, "build_site", site))
    elif kind == "convert":
        sell.convert(player, data["target"], choices)
    elif kind == "stock":
        sell.spend_stocks(player, choices)
        follow: list[Prompt] = []
        for _ in range(data["warehouses"]):
            if next_building(state, seat, "warehouse"):
                follow += build(state, seat, "warehouse", None)
        state.prompts[0:0] = follow
    elif kind == "contract_bonus":
        sides = components().player_board["contracts"]["bonus"][data["letter"]]
        state.prompts[0:0] = sell.contract_bonus(state, seat, sides[int(choice)])
    elif kind == "row_bonus":
        sell.row_bonus(state, seat, choice.replace(".", ":"))
    elif kind == "free_build":
        if choice == "warehouse":
            state.prompts[0:0] = build(state, seat, "warehouse", None)
        else:
            state.prompts.insert(0, Prompt(seat, "build_site", {"column": choice, "free": True}))
    elif kind == "sell_second":
        if choice == "drop":
            sell.drop_out_of_sell(state, seat)
        elif choice.startswith("bar."):
            sell.start_delivery(state, seat, choice, second=False)
        else:
            state.prompts.insert(0, Prompt(seat, "sell_second"))
            sell.perform_trade(state, seat, choice)
    elif kind == "mixed_pay":
        spent = {c: 1 for c in choices if not c.startswith("kopi")}
        kopi = len(choices) - len(spent)
        if kopi:
            spent["kopi"] = kopi
        sell.deliver(state, seat, data["bar"], spent)
    elif kind == "remove":
        assign.remove_plantation(state, seat, choice)
