"""Choices that come up in the middle of a turn: bonuses, piggybacks, payments."""

from __future__ import annotations

from meeple_hall.games.coffee import arabica, assign, sell, trade, work
from meeple_hall.games.coffee.build import (
    COLUMN_NAMES,
    build,
    buildable,
    building_bonus,
    next_building,
    site_options,
)
from meeple_hall.games.coffee.data import COFFEE_NAMES, COFFEES, components
from meeple_hall.games.coffee.names import (
    BONUS_NAMES,
    bar_name,
    bonus_name,
    coop_name,
    counter_name,
    upper_first,
    who,
)
from meeple_hall.games.coffee.state import CoffeeState, Prompt
from meeple_hall.games.coffee.supply import send_trader
from meeple_hall.games.core import Decision, Option


def seat_token(seat: int) -> str:
    return f"p{seat + 1}"


def row_item_name(state: CoffeeState, item: str) -> str:
    if item == "trader":
        return "A trader"
    if item == "civet":
        # EN "Phase 5" A5: in Period 3 the civet goes to the company supply (1 VP)
        return "A civet to your company supply" if state.period == 3 else "A civet to Sumatra"
    return counter_name(item)


def plantation_row_label(state: CoffeeState, seat: int, row: str) -> str:
    """`Row B: level 2 (1 coin), then a donkey`: the leftmost plantation of a row of the
    player board, its cost above it and the bonus printed below its space."""
    player = state.players[seat]
    board = components().player_board["plantations"]
    index = len(board["rows"][row]) - len(player.plantations[row])
    bonus = board["bonus"][row][index]
    then = "" if bonus == "none" else f", then {BONUS_NAMES[bonus]}"
    return f"Row {row}: level {player.plantations[row][0]}{work.cost_text(player, row)}{then}"


def prompt_decision(state: CoffeeState, prompt: Prompt) -> Decision:
    seat, kind, data = prompt.seat, prompt.kind, prompt.data
    player = state.players[seat]
    low = high = 1
    text = kind
    options: list[Option] = []
    if kind == "plant_row":
        text = "Add a plantation: take the leftmost one from which row of your board?"
        options = [
            Option(r, plantation_row_label(state, seat, r))
            for r in work.plantable_rows(state, seat)
        ]
    elif kind == "plant_space":
        level = player.plantations[data["row"]][0]
        text = f"Where does your level-{level} plantation go?"
        options = work.plant_space_options(state, seat, data["row"])
    elif kind == "animal":
        text = f"Planted in the 2/3 row: take an Animal counter from {coop_name(data['coffee'])}"
        options = [
            Option(c.replace(":", "."), counter_name(c))
            for c in state.coops[data["coffee"]].animals
        ]
    elif kind == "farm":
        row = data["row"]
        text = f"Row {row} of your board holds only its farm: build it (1 coin) or remove it"
        options = work.farm_options(state, seat)
    elif kind == "donkey":
        text = "Breed a donkey on which pathway?"
        options = [
            Option(t, work.pathway_label(state, seat, t)) for t in work.donkey_pathways(state, seat)
        ]
    elif kind == "send_choose":
        n = data["n"]
        whom = "the player who gets one" if n == 1 else f"the {n} players who get one each"
        text = f"Not enough workers in the {coop_name(data['coffee'])} town center: choose {whom}"
        options = [
            Option(seat_token(s), who(state, s))
            for s in work.send_candidates(state, data["coffee"])
        ]
        low = high = data["n"]
    elif kind == "advance":
        text = "Advance 1 column on which Arabica track?"
        options = [Option(c, f"{coop_name(c)} (now column {player.arabica[c]})") for c in COFFEES]
    elif kind in ("gain_coffee", "wild_income"):
        text = "Gain 1 coffee of which kind?"
        if kind == "wild_income":
            text = "Wild Stock counter: gain 1 coffee of which kind?"
        options = [Option(c, coop_name(c)) for c in COFFEES]
    elif kind == "piggy_trader":
        text = f"Piggyback: place a trader in the {coop_name(data['coffee'])} trading house?"
        own = "a trader" if player.traders else "your bonus supply's trader"
        options = [Option("join", f"Place {own} for free"), Option("decline", "Decline")]
    elif kind == "build_site":
        text = f"Where does your {COLUMN_NAMES[data['column']]} go?"
        options = site_options(state, data["column"], data.get("coffee"))
    elif kind == "piggy_build":
        builder = who(state, data["builder"])
        text = f"Piggyback: build what {builder} built, in the same place, for 1 coffee to them?"
        own = "" if player.traders else " (with your bonus supply's trader)"
        options = [
            Option(f"join.{c}", f"Build a {COLUMN_NAMES[c]}{own}")
            for c in trade.follow_columns(state, seat, data["place"])
        ]
        options.append(Option("decline", "Decline"))
    elif kind == "piggy_pay":
        text = f"Piggyback: pay {who(state, data['builder'])} 1 coffee of which kind?"
        options = trade.piggy_pay_options(state, seat)
    elif kind == "convert":
        text = (
            f"Trade {player.ratio} coffee for 1 {COFFEE_NAMES[data['target']]}: "
            f"choose the {player.ratio} to give"
        )
        options = sell.convert_units(player, data["target"])
        low = high = player.ratio
    elif kind == "stock":
        n = data["warehouses"]
        low = high = 3 if n == 1 else 5
        text = f"Spend {low} different Stock counters for {n} warehouse{'s' * (n > 1)}"
        options = sell.stock_options(player)
    elif kind == "contract_bonus":
        sides = components().player_board["contracts"]["bonus"][data["letter"]]
        text = f"Contract {data['letter']} fulfilled: choose its bonus"
        options = [Option(str(i), upper_first(bonus_name(side))) for i, side in enumerate(sides)]
    elif kind == "row_bonus":
        text = "Contract row finished: choose its bonus"
        options = [Option(i.replace(":", "."), row_item_name(state, i)) for i in player.row_items]
    elif kind == "free_build":
        text = "Free building: build which one?"
        if data["hospital"]:
            hospital = next_building(state, seat, "hospital", free_hospital=True)
            options = [Option("hospital", "Hospital")] if hospital else []
        else:
            options = [
                Option(c, f"{upper_first(COLUMN_NAMES[c])}: {building_bonus(state, seat, c)}")
                for c in buildable(state, seat)
            ]
    elif kind == "sell_second":
        text = "Deliver to a second Coffee Bar space, or drop out of the Sell phase"
        options = [
            *sell.bar_options(state, seat),
            *sell.trade_options(state, seat),
            Option("drop", "Drop out of the Sell phase"),
        ]
    elif kind == "mixed_pay":
        low = high = sell.bar_space(data["bar"]).amount
        bar = bar_name(data["bar"].split(".")[1])
        text = f"{bar}: deliver {low} different kinds of coffee (choose them)"
        options = sell.mixed_options(player, low)
    elif kind == "remove":
        text = "Penalty not paid in full: remove which unoccupied plantation?"
        options = [
            Option(assign.space_id(c, r, s), f"{coop_name(c)} row {r} space {s + 1}")
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
