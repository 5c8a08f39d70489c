"""The Village engine: setup, the decision loop, views and the result."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from meeple_hall.games.core import (
    Decision,
    GameEngine,
    GameOption,
    Msg,
    Option,
    Result,
    Rng,
)
from meeple_hall.games.core.catalogues import LANGUAGES, render
from meeple_hall.games.village import (
    actions,
    data,
    death,
    determinize,
    karla,
    market,
    mass,
    rounds,
    scoring,
)
from meeple_hall.games.village.economy import coin_range, coin_split, gain_cube, gain_grain
from meeple_hall.games.village.state import FARM, KARLA, Member, Player, Step, VillageState
from meeple_hall.games.village.view import view
from meeple_hall.games.village.words import (
    a_colour,
    colour,
    cube_count,
    cubes,
    m,
    payment,
    plus,
    replaced_in,
    space,
)

OptionsFn = Callable[[VillageState, Step], list[Option]]
PerformFn = Callable[[VillageState, Step, str], None]


def prompt(state: VillageState, step: Step) -> Msg:
    if step.kind == "turn" and state.ending:
        if rounds.board_empty(state):
            return m("prompt.final_free")
        return m("prompt.final_turn")
    if step.kind == "privilege":
        return m("prompt.privilege", stage=int(step.data[0]))
    if step.kind == "karla" and not state.karla_die and state.last_take:
        # BB solo: no cube of the colour taken anywhere, so the player picks hers there.
        colour_taken = colour(state.last_take[1])
        return m("prompt.karla_none", colour=colour_taken, space=space(step.space))
    return m(f"prompt.{step.kind}")


def options_for(state: VillageState, step: Step) -> list[Option]:
    """A step's options, each cube payment also offered with more coins in place of cubes
    (BB coins: "2 green, or 1 coin and 1 green, or 2 coins")."""
    out = []
    cost_of = COSTS.get(step.kind)
    for option in OPTIONS[step.kind](state, step):
        cost = cost_of(state, step, option.id) if cost_of else {}
        if not cost:
            out.append(option)
            continue
        player = state.players[step.seat]
        fewest, *more = coin_range(player, cost)
        # The plain option pays the fewest coins: its label says so when that is not none.
        out.append(Option(option.id, with_coins(option.label, player, cost, fewest)))
        out.extend(
            Option(f"{option.id}{COINS}{k}", with_coins(option.label, player, cost, k))
            for k in more
        )
    return out


LABEL_MAX = 80  # a button's label


def with_coins(label: Msg, player: Player, cost: dict[str, int], coins: int) -> Msg:
    """The label with its cubes written as they will be paid: `2 green + 1 time` becomes
    `1 green + 1 coin + 1 time` (a coin stands in for any cube), and in solo the
    next-start-player marker is named where it is spent as the first coin. The label's
    words for the cubes are `words.cubes(cost)`; the shorter wording of the marker is used
    where the longer does not fit a button in every language."""
    if not coins:
        return label
    use, replaced = coin_split(player, cost, coins)
    kept = plus([cube_count(c, n) for c, n in use.items() if n]) if any(use.values()) else None
    shown = label
    for short in (False, True):
        paid = payment(kept, coins, player.marker_coin, cubes(replaced), short=short)
        shown = replaced_in(label, cubes(cost), paid)
        if fits(shown):
            break
    return shown


@lru_cache(maxsize=4096)
def fits(label: Msg) -> bool:
    return all(len(render(lang, label)) <= LABEL_MAX for lang in LANGUAGES)


def die_options(state: VillageState, step: Step) -> list[Option]:
    return death.options(state.players[step.seat])


def die(state: VillageState, step: Step, choice: str) -> None:
    death.die(state, step.seat, int(choice.removeprefix("die-")))


def gift_options(state: VillageState, step: Step) -> list[Option]:
    return [Option(c, m("label.gift", cube=a_colour(c))) for c in data.colours()]


def gift(state: VillageState, step: Step, choice: str) -> None:
    gain_cube(state, state.players[step.seat], choice)


OPTIONS: dict[str, OptionsFn] = {
    **actions.OPTIONS,
    "turn": rounds.turn_options,
    "market": market.options,
    "die": die_options,
    "karla": karla.choice_options,
    "buy": mass.buy_options,
    "advance": mass.advance_options,
    "gift": gift_options,
}
PERFORM: dict[str, PerformFn] = {
    **actions.PERFORM,
    "turn": rounds.turn,
    "market": market.perform,
    "die": die,
    "karla": karla.choose,
    "buy": mass.buy,
    "advance": mass.advance,
    "gift": gift,
}
LOG_KEPT = 40
COSTS: dict[str, Callable[[VillageState, Step, str], dict[str, int]]] = {
    "crafts": actions.cube_cost,
    "council": actions.cube_cost,
    "travel": actions.cube_cost,
    "church": actions.cube_cost,
    "market": market.cube_cost,
}
COINS = "-coins"
AUTOMATIC = {"die", "karla", "market"}  # a single option (or "pass") needs no question


class VillageEngine(GameEngine[VillageState]):
    id = "village"
    name = "Village"
    min_players = 1
    max_players = 5
    state_type = VillageState
    options = (
        GameOption(
            id="compensation",
            label=m("option.compensation.label"),
            choices=(
                Option("on", m("option.compensation.on")),
                Option("off", m("option.compensation.off")),
            ),
            default="on",
            description=m("option.compensation.description"),
        ),
        GameOption(
            id="start",
            label=m("option.start.label"),
            choices=(
                Option("random", m("option.start.random")),
                Option("seat1", m("option.start.seat1")),
            ),
            default="random",
            description=m("option.start.description"),
        ),
        GameOption(
            id="karla",
            label=m("option.karla.label"),
            choices=(
                Option("standard", m("option.karla.standard")),
                Option("die", m("option.karla.die")),
            ),
            default="standard",
            description=m("option.karla.description"),
        ),
    )

    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> VillageState:
        rules = data.rules()
        solo = num_players == 1
        card = data.card(num_players)
        colours = data.colours()
        players = [
            Player(
                members=[Member(n) for n in rules["family"]["numbers"]],
                cubes=dict.fromkeys(colours, 0),
                goods=dict.fromkeys(data.goods(), 0),
                coins=rules["start_coins"],
            )
            for _ in range(num_players)
        ]
        for player in players:
            for member in player.members[: rules["family"]["start_on_farm"]]:
                member.place = FARM
        blocked = set(card["blocked"])
        layout = data.setup()["chronicle"]
        stack = rng.shuffled(sorted(data.customers()))
        stalls = [stack.pop() for _ in range(card["stalls"])]
        stalls += [""] * (rules["market"]["stalls"] - card["stalls"])
        state = VillageState(
            rng=rng,
            players=players,
            solo=solo,
            karla_die=options["karla"] == "die",
            supply={
                **dict.fromkeys(colours, rules["cubes_per_colour"]),
                "black": rules["plague_cubes"],
            },
            green_bag=dict.fromkeys([*colours, "black"], 0),
            spaces={s: [] for s in data.spaces()},
            black_bag=["monk"] * rules["monks"],
            customer_stack=[],
            stalls=stalls,
            queue=[stack.pop() for _ in range(rules["market"]["queue"])],
            chronicle={
                c: ["x" if label in blocked else "" for label in layout[c]]
                for c in rules["chronicle"]["categories"]
            },
            graves=["x" if label in blocked else "" for label in layout["graves"]],
            round=0,
        )
        state.customer_stack = stack
        if solo:
            state.karla = karla.new(rng)
        elif options["start"] == "random":
            state.start_player = rng.below(num_players)
        if not solo and options["compensation"] == "on":
            self._compensate(state)
        rounds.new_round(state)
        if not solo and options["compensation"] == "on" and num_players > 3:
            chosen = data.setup()["compensation"]["chosen_cube"]
            state.stack.append(Step("gift", (state.start_player + chosen) % num_players))
        settle(state)
        return state

    def _compensate(self, state: VillageState) -> None:
        comp = data.setup()["compensation"]
        n = len(state.players)
        players = [state.players[(state.start_player + k) % n] for k in range(n)]
        if len(players) > comp["grain"]:
            gain_grain(players[comp["grain"]], 1)
        if len(players) > comp["random_cube"]:
            gain_cube(state, players[comp["random_cube"]], state.rng.choice(data.colours()))
        if len(players) > comp["coin"]:
            players[comp["coin"]].coins += 1

    # -- the decision loop -----------------------------------------------------------
    def decisions(self, state: VillageState) -> list[Decision]:
        if state.phase == "over" or not state.stack:
            return []
        step = state.stack[-1]
        return [
            Decision(
                seat=step.seat,
                kind=step.kind,
                prompt=prompt(state, step),
                options=tuple(options_for(state, step)),
            )
        ]

    def perform(self, state: VillageState, decision: Decision, choices: tuple[str, ...]) -> None:
        step = state.stack.pop()
        choice = choices[0]
        if COINS in choice:
            choice, coins = choice.rsplit(COINS, 1)
            state.coins_chosen = int(coins)
        if choice != "skip":
            PERFORM[step.kind](state, step, choice)
        settle(state)
        del state.log[:-LOG_KEPT]

    resampled_by_game = frozenset({"VillageState.customer_stack"})

    def resample_private(self, state: VillageState, seat: int, rng: Rng) -> None:
        determinize.resample(state, seat, rng)

    def view(self, state: VillageState, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def result(self, state: VillageState) -> Result | None:
        if state.phase != "over":
            return None
        parts = tuple(scoring.breakdown(state, s) for s in range(state.num_players))
        scores = tuple(sum(p.values()) for p in parts)
        if state.solo:
            # The achievement title is worth nothing itself: it names the score's band.
            parts[0][f"title: {scoring.title(scores[0])}"] = 0
        return Result(scores=scores, ranks=scoring.ranks(state, scores), breakdown=parts)


def settle(state: VillageState) -> None:
    """Run the game forward until someone has a real choice to make."""
    while state.phase != "over":
        if state.stack:
            step = state.stack[-1]
            opts = options_for(state, step)
            if len(opts) > 1 or (opts and step.kind not in AUTOMATIC):
                return
            state.stack.pop()
            if opts:
                PERFORM[step.kind](state, step, opts[0].id)
            elif step.kind == "die":
                state.players[step.seat].deaths_due = due_after(state, step.seat)
            continue
        if state.phase == "mass":
            advance_mass(state)
        elif state.market is not None:
            advance_market(state)
        elif state.players[state.current].deaths_due:
            state.stack.append(Step("die", state.current))
        elif state.karla_pending:
            # Karla takes her cube after every turn but the final turns: if the player
            # ends the game, this cube is her own last turn. If the end came in her market
            # day, she takes the very last turn after the player's final one.
            state.karla_pending = False
            if not state.finals_set or state.market_ender == KARLA:
                karla.take(state)
        else:
            rounds.end_turn(state)


def due_after(state: VillageState, seat: int) -> int:
    """Deaths left once a player has no visible member: those carried into a market day
    still wait for the end of the turn."""
    if state.market is not None:
        return min(state.market.carried[seat], state.players[seat].deaths_due)
    return 0


def advance_market(state: VillageState) -> None:
    m = state.market
    assert m is not None
    for seat, player in enumerate(state.players):
        if player.deaths_due > m.carried[seat]:
            state.stack.append(Step("die", seat))
            return
    seat = market.next_seat(state)
    if seat is not None:
        state.stack.append(Step("market", seat))
        return
    if state.ending and not m.ending_before and state.ender != m.trigger:
        state.market_ender = m.trigger
    market.finish(state)


def advance_mass(state: VillageState) -> None:
    if state.mass_stage == "buy":
        if state.mass_order and state.mass_bought < data.rules()["church"]["draw"]:
            seat = state.mass_order[0]
            if mass.buy_options(state, Step("buy", seat)):
                state.stack.append(Step("buy", seat))
            else:
                state.mass_order.pop(0)
            return
        mass.draw_rest(state)
        state.mass_stage = "advance"
        state.mass_order = mass.seat_order(state)
        return
    if state.mass_order:
        seat = state.mass_order[0]
        if mass.advance_options(state, Step("advance", seat)):
            state.stack.append(Step("advance", seat))
        else:
            state.mass_order.pop(0)
        return
    rounds.end_mass(state)
