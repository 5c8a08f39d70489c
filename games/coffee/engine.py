"""Coffee Traders behind the engine contract: three periods of six phases."""

from __future__ import annotations

from typing import Any

from games.coffee import andre, arabica, assign, harvest, refresh, sell, trade, work
from games.coffee.build import build, buildable, next_building, site_options
from games.coffee.data import COFFEE_NAMES, COFFEES, components
from games.coffee.milestones import check_milestones
from games.coffee.names import coop_name, who
from games.coffee.scoring import breakdown
from games.coffee.setup import new_game
from games.coffee.state import CoffeeState, Plantation, Prompt
from games.coffee.supply import send_trader
from games.coffee.view import view
from games.core import Decision, GameEngine, GameOption, Option, Result, Rng, ranks_from_scores

# prompts answered for the player when there is exactly one thing to choose
AUTO_SINGLE = {"build_site", "remove", "gain_coffee", "row_bonus", "plant_row"}


def seat_token(seat: int) -> str:
    return f"p{seat + 1}"


class CoffeeEngine(GameEngine[CoffeeState]):
    id = "coffee"
    name = "Coffee Traders"
    min_players = 2
    max_players = 5
    state_type = CoffeeState
    options = (
        GameOption(
            id="milestones",
            label="Milestones",
            choices=(
                Option("normal", "Every space of a milestone scores"),
                Option("vicious", "Vicious: only the first player to fulfil a milestone scores"),
            ),
            default="normal",
            description="The rulebook's vicious variant (suggested for 2 players).",
        ),
        GameOption(
            id="start",
            label="Starting plantations",
            choices=(
                Option("standard", "All three from the F contract"),
                Option("experienced", "Place the bottom one on any empty 1 space, in turn order"),
            ),
            default="standard",
            description="The rulebook's variant for experienced players.",
        ),
    )

    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> CoffeeState:
        free_start = options["start"] == "experienced"
        state = new_game(num_players, rng, free_start)
        state.vicious = options["milestones"] == "vicious"
        state.say(f"1970 begins: turn order {', '.join(who(state, s) for s in state.order)}")
        if free_start:
            state.phase, state.turn = "setup", 0
            state.done = [state.is_andre(s) for s in state.seats]
        else:
            start_work(state)
        advance(state)
        return state

    def decisions(self, state: CoffeeState) -> list[Decision]:
        if state.over:
            return []
        if state.prompts:
            return [prompt_decision(state, state.prompts[0])]
        return phase_decisions(state)

    def perform(self, state: CoffeeState, decision: Decision, choices: tuple[str, ...]) -> None:
        if state.prompts:
            prompt = state.prompts.pop(0)
            answer_prompt(state, prompt, choices)
        else:
            answer_phase(state, decision, choices)
        advance(state)

    def view(self, state: CoffeeState, seat: int | None) -> dict[str, Any]:
        return view(state, seat, self.decisions(state))

    def result(self, state: CoffeeState) -> Result | None:
        if not state.over:
            return None
        parts = [breakdown(state, seat) for seat in range(state.num_players)]
        scores = [sum(p.values()) for p in parts]
        keys = [(scores[s], state.players[s].coins) for s in range(state.num_players)]
        return Result(scores=tuple(scores), ranks=ranks_from_scores(keys), breakdown=tuple(parts))


# -- the flow of phases ---------------------------------------------------------------
def start_work(state: CoffeeState) -> None:
    state.phase, state.step, state.turn = "work", "", 0
    state.done = [False] * len(state.players)
    if state.andre is not None:
        state.andre.work_turn = 0


def turn_seat(state: CoffeeState, order: list[int]) -> int:
    """The seat whose turn it is, skipping those who dropped out (call only while some
    have not)."""
    while state.done[order[state.turn % len(order)]]:
        state.turn += 1
    return order[state.turn % len(order)]


def sell_order(state: CoffeeState) -> list[int]:
    return list(reversed(state.order))


def advance(state: CoffeeState) -> None:
    """Run everything that needs no decision, until someone must decide or the game ends."""
    while not state.over:
        check_milestones(state)
        if state.prompts:
            prompt = state.prompts[0]
            decision = prompt_decision(state, prompt)
            if not decision.options:
                state.prompts.pop(0)
                continue
            if prompt.kind in AUTO_SINGLE and len(decision.options) == 1:
                state.prompts.pop(0)
                answer_prompt(state, prompt, (decision.options[0].id,))
                continue
            return
        if not progress(state):
            return


def progress(state: CoffeeState) -> bool:
    """One automatic step of the current phase; False when a player must decide."""
    if state.phase == "setup":
        if all(state.done):
            start_work(state)
            return True
        turn_seat(state, state.order)
        return False
    if state.phase == "work":
        return progress_work(state)
    if state.phase == "assign":
        return progress_assign(state)
    if state.phase == "trade":
        return progress_trade(state)
    if state.phase == "sell":
        return progress_sell(state)
    return progress_refresh(state)


def progress_work(state: CoffeeState) -> bool:
    if all(state.done):
        state.phase, state.step = "assign", "own"
        state.done = [state.is_andre(s) for s in state.seats]
        state.say("Phase 2: Assign Workers")
        return True
    seat = turn_seat(state, state.order)
    if state.is_andre(seat):
        andre.work_turn(state)
        state.turn += 1
        return True
    if not work.work_options(state, seat):
        state.done[seat] = True
        state.say(f"{who(state, seat)} drops out of the Work phase")
        return True
    return False


def progress_assign(state: CoffeeState) -> bool:
    if state.step == "own":
        if any(assign.needs_own(state, s) for s in state.seats):
            return False
        state.step, state.turn = "other", 0
        state.done = [state.is_andre(s) for s in state.seats]
        return True
    if state.step == "other":
        if not all(state.done):
            seat = turn_seat(state, state.order)
            if assign.other_options(state, seat):
                return False
            state.done[seat] = True
            return True
        assign.andre_fills(state)
        assign.start_penalties(state)
        state.step = "penalty"
        return True
    owing = [s for s in state.order if s in state.owed]
    if owing:
        seat = owing[0]
        if assign.penalty_options(state, seat):
            return False
        assign.settle_unpaid(state, seat)
        return True
    state.phase, state.step, state.turn, state.passes = "trade", "", 0, 0
    state.say("Phase 3: Trade & Build")
    return True


def progress_trade(state: CoffeeState) -> bool:
    if state.passes >= len(state.order):
        if state.andre is not None:
            trade.andre_fair_trade_post(state)
        state.say("Phase 4: Harvest")
        harvest.harvest(state)
        state.phase, state.turn = "sell", 0
        state.done = [False] * len(state.players)
        state.next_order = []
        state.say("Phase 5: Sell")
        return True
    seat = state.order[state.turn % len(state.order)]
    if state.is_andre(seat):
        trade.andre_turn(state)
        return True
    if not trade.trade_options(state, seat):
        state.turn += 1
        state.passes += 1
        return True
    return False


def progress_sell(state: CoffeeState) -> bool:
    if all(state.done):
        start_refresh(state)
        return True
    seat = turn_seat(state, sell_order(state))
    if state.is_andre(seat):
        sell.andre_delivers(state)
        state.done[seat] = True
        state.turn += 1
        return True
    return False


def drop_out_of_sell(state: CoffeeState, seat: int) -> None:
    state.done[seat] = True
    state.next_order.append(seat)
    state.say(f"{who(state, seat)} drops out of the Sell phase")


def start_refresh(state: CoffeeState) -> None:
    state.phase = "refresh"
    state.say("Phase 6: Refresh")
    refresh.return_pieces(state)
    if state.period == 3:
        refresh.refill_bonus_coins(state)
        state.over = True
        state.say("The game is over")
        return
    state.step = "storage"
    state.done = [
        state.is_andre(s) or refresh.keeps_everything_in_rows(p)
        for s, p in enumerate(state.players)
    ]


def progress_refresh(state: CoffeeState) -> bool:
    if state.step == "storage":
        if not all(state.done):
            return False
        for seat, player in enumerate(state.players):
            state.prompts += [Prompt(seat, "wild_income") for s in player.stocks if s == "wild"]
        state.step = "income"
        return True
    for player in state.players:
        refresh.stock_income(player, [])
    refresh.refill_bonus_coins(state)
    andre_seats = [s for s in state.order if state.is_andre(s)]
    state.order = state.next_order + andre_seats
    refresh.refill_trading_house_coins(state)
    refresh.andre_refresh(state)
    state.period += 1
    year = components().board["periods"]["years"][state.period - 1]
    state.say(f"{year} begins: turn order {', '.join(who(state, s) for s in state.order)}")
    start_work(state)
    return True


# -- phase decisions ---------------------------------------------------------------------
def phase_decisions(state: CoffeeState) -> list[Decision]:
    if state.phase == "setup":
        seat = state.order[state.turn % len(state.order)]
        options = [
            Option(assign.space_id(c, 1, i), f"{coop_name(c)}, 1 space {i + 1}")
            for c, coop in state.coops.items()
            for i, p in enumerate(coop.rows[0])
            if p is None
        ]
        prompt = "Place your starting plantation on an empty 1 space"
        return [Decision(seat, "start", prompt, tuple(options))]
    if state.phase == "assign" and state.step == "own":
        return [
            Decision(
                s, "staff_own", "Staff your own plantations", tuple(assign.own_options(state, s))
            )
            for s in state.seats
            if assign.needs_own(state, s)
        ]
    if state.phase == "refresh":
        return [
            Decision(
                s,
                "storage",
                "Place warehouses on coffee columns (keep 10); the rest keep 1 of each",
                tuple(refresh.storage_options(p)),
                min_choices=0,
                max_choices=min(p.built["warehouse"], len(refresh.storage_options(p))),
            )
            for s, p in enumerate(state.players)
            if not state.done[s]
        ]
    if state.phase == "work":
        seat = state.order[state.turn % len(state.order)]
        options = [*work.work_options(state, seat), Option("drop", "Drop out of the Work phase")]
        return [Decision(seat, "work", "Phase 1 Work: choose an action", tuple(options))]
    if state.phase == "assign" and state.step == "other":
        seat = state.order[state.turn % len(state.order)]
        options = [*assign.other_options(state, seat), Option("drop", "Drop out")]
        return [Decision(seat, "staff_other", "Send a worker to an opponent", tuple(options))]
    if state.phase == "assign":
        seat = next(s for s in state.order if s in state.owed)
        prompt = f"Pay your penalty ({state.owed[seat]} left)"
        return [Decision(seat, "penalty", prompt, tuple(assign.penalty_options(state, seat)))]
    if state.phase == "trade":
        seat = state.order[state.turn % len(state.order)]
        options = [*trade.trade_options(state, seat), Option("pass", "Pass")]
        return [Decision(seat, "trade", "Phase 3 Trade & Build", tuple(options))]
    seat = sell_order(state)[state.turn % len(state.order)]
    return [Decision(seat, "sell", "Phase 5 Sell", tuple(sell.sell_options(state, seat)))]


def answer_phase(state: CoffeeState, decision: Decision, choices: tuple[str, ...]) -> None:
    seat = decision.seat
    kind = decision.kind
    if kind == "storage":
        refresh.store(state, seat, choices)
        state.done[seat] = True
        return
    choice = choices[0]
    if kind == "start":
        coffee, _, space = choice.split(".")
        state.coops[coffee].rows[0][int(space)] = Plantation(owner=seat, level=1)
        state.say(f"{who(state, seat)} starts a plantation in {coop_name(coffee)}")
        state.done[seat] = True
        state.turn += 1
    elif kind == "work":
        work.perform_work(state, seat, choice)
    elif kind == "staff_own":
        if choice == "done":
            state.done[seat] = True
        else:
            assign.place_worker(state, seat, choice)
    elif kind == "staff_other":
        if choice == "drop":
            state.done[seat] = True
        else:
            assign.place_worker(state, seat, choice)
        state.turn += 1
    elif kind == "penalty":
        assign.pay_penalty(state, seat, choice)
    elif kind == "trade":
        trade.perform_trade(state, seat, choice)
    elif kind == "sell":
        answer_sell(state, seat, choice)


def answer_sell(state: CoffeeState, seat: int, choice: str) -> None:
    if sell.perform_trade(state, seat, choice):
        return
    state.turn += 1
    if choice == "drop":
        drop_out_of_sell(state, seat)
    elif choice.startswith("contract."):
        sell.fulfil(state, seat, choice.split(".")[1])
    else:
        sell.deliver(state, seat, choice)
        state.prompts.insert(0, Prompt(seat, "sell_second"))


# -- prompts ----------------------------------------------------------------------------
def prompt_decision(state: CoffeeState, prompt: Prompt) -> Decision:
    seat, kind, data = prompt.seat, prompt.kind, prompt.data
    player = state.players[seat]
    low = high = 1
    text = kind
    options: list[Option] = []
    if kind == "plant_row":
        text = "Take the leftmost plantation of row"
        options = [
            Option(r, f"Row {r}: level {player.plantations[r][0]}")
            for r in work.plantable_rows(state, seat)
        ]
    elif kind == "plant_space":
        text = "Where does the plantation go?"
        options = work.plant_space_options(state, seat, data["row"])
    elif kind == "animal":
        text = "Take an Animal counter"
        options = [Option(c.replace(":", "."), c) for c in state.coops[data["coffee"]].animals]
    elif kind == "farm":
        text = "Build your farm (1 coin) or remove it"
        options = work.farm_options(state, seat)
    elif kind == "donkey":
        text = "Breed a donkey on which pathway?"
        options = [Option(t, f"Pathway {t}") for t in work.donkey_pathways(state, seat)]
    elif kind == "send_choose":
        text = f"Not enough workers: choose {data['n']} players to staff"
        options = [
            Option(seat_token(s), who(state, s))
            for s in work.send_candidates(state, data["coffee"])
        ]
        low = high = data["n"]
    elif kind == "advance":
        text = "Advance on which Arabica row?"
        options = [Option(c, coop_name(c)) for c in COFFEES]
    elif kind in ("gain_coffee", "wild_income"):
        text = "Gain 1 coffee of which kind?"
        options = [Option(c, coop_name(c)) for c in COFFEES]
    elif kind == "piggy_trader":
        text = f"Piggyback a trader in {coop_name(data['coffee'])}?"
        options = [Option("join", "Place a trader for free"), Option("decline", "Decline")]
    elif kind == "build_site":
        text = "Where does the building go?"
        options = site_options(state, data["column"], data.get("coffee"))
    elif kind == "piggy_build":
        text = f"Piggyback {who(state, data['builder'])}'s building (pay 1 coffee)?"
        options = [
            Option(f"join.{c}", f"Build a {c}")
            for c in trade.follow_columns(state, seat, data["place"])
        ]
        options.append(Option("decline", "Decline"))
    elif kind == "piggy_pay":
        text = "Pay the builder 1 coffee"
        options = trade.piggy_pay_options(state, seat)
    elif kind == "convert":
        text = f"Trade {player.ratio} coffee for 1 {COFFEE_NAMES[data['target']]}"
        options = sell.convert_units(player, data["target"])
        low = high = player.ratio
    elif kind == "stock":
        n = data["warehouses"]
        low = high = 3 if n == 1 else 5
        text = f"Spend {low} different Stock counters"
        options = sell.stock_options(player)
    elif kind == "contract_bonus":
        sides = components().player_board["contracts"]["bonus"][data["letter"]]
        text = "Choose the contract bonus"
        options = [Option(str(i), " + ".join(side)) for i, side in enumerate(sides)]
    elif kind == "row_bonus":
        text = "Contract row finished: choose a bonus"
        options = [Option(i.replace(":", "."), i) for i in player.row_items]
    elif kind == "free_build":
        text = "Build for free"
        if data["hospital"]:
            hospital = next_building(state, seat, "hospital", free_hospital=True)
            options = [Option("hospital", "Hospital")] if hospital else []
        else:
            options = [Option(c, c) for c in buildable(state, seat)]
    elif kind == "sell_second":
        text = "Deliver a second time, or drop out"
        options = [
            *sell.bar_options(state, seat),
            *sell.trade_options(state, seat),
            Option("drop", "Drop out of the Sell phase"),
        ]
    elif kind == "remove":
        text = "Remove an unoccupied plantation"
        options = [
            Option(assign.space_id(c, r, s), f"{coop_name(c)} row {r}")
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
            drop_out_of_sell(state, seat)
        elif choice.startswith("bar."):
            sell.deliver(state, seat, choice)
        else:
            state.prompts.insert(0, Prompt(seat, "sell_second"))
            sell.perform_trade(state, seat, choice)
    elif kind == "remove":
        assign.remove_plantation(state, seat, choice)
