"""The Village engine: setup, the decision loop, views and the result."""

from __future__ import annotations

from typing import Any

from meeple_hall.games.core import (
    Decision,
    GameOption,
    Option,
    Result,
    Rng,
)
from meeple_hall.games.core.kept import SpectatorsViewKept
from meeple_hall.games.core.steps import Steps
from meeple_hall.games.village import (
    actions,
    data,
    determinize,
    karla,
    market,
    mass,
    rounds,
    scoring,
)
from meeple_hall.games.village.death import Death
from meeple_hall.games.village.economy import gain_cube, gain_grain
from meeple_hall.games.village.state import FARM, Frame, Member, Player, VillageState
from meeple_hall.games.village.steps import Fields, VillageStep, option
from meeple_hall.games.village.view import own_view, public_view
from meeple_hall.games.village.words import a_colour, m


class Gift(VillageStep):
    """Setup with 4 or 5 players (compensation): a later player chooses a cube."""

    kind = "gift"

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        return [option(c, m("label.gift", cube=a_colour(c)), colour=c) for c in data.colours()]

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        gain_cube(state, state.players[frame.seat], chosen["colour"])


def asked(state: VillageState) -> list[Frame]:
    """The top of the stack, while the game is not over."""
    return [state.stack[-1]] if state.stack and state.phase != "over" else []


STEPS: Steps[VillageState, Frame] = Steps(
    [
        rounds.Turn(),
        *actions.STEPS,
        market.Sale(),
        Death(),
        karla.KarlasCube(),
        mass.BuyOut(),
        mass.MoveUp(),
        Gift(),
    ],
    frames=lambda state: state.stack,
    asked=asked,
)
LOG_KEPT = 40
# The seat counts an option applies to (the lobby offers only those, bot/cogs/lobby.py):
# seat compensation and the start player are for several players, Karla for the solo game.
SHARED = {"min_players": 2}
SOLO = {"max_players": 1}


class VillageEngine(SpectatorsViewKept[VillageState]):
    id = "village"
    name = "Village"
    min_players = 1
    max_players = 5
    automa = ((1, m("karla")),)
    state_type = VillageState
    steps = STEPS
    options = (
        GameOption(
            id="compensation",
            label=m("option.compensation.label"),
            choices=(
                Option("on", m("option.compensation.on"), SHARED),
                Option("off", m("option.compensation.off"), SHARED),
            ),
            default="on",
            description=m("option.compensation.description"),
        ),
        GameOption(
            id="start",
            label=m("option.start.label"),
            choices=(
                Option("random", m("option.start.random"), SHARED),
                Option("seat1", m("option.start.seat1"), SHARED),
            ),
            default="random",
            description=m("option.start.description"),
        ),
        GameOption(
            id="karla",
            label=m("option.karla.label"),
            choices=(
                Option("standard", m("option.karla.standard"), SOLO),
                Option("die", m("option.karla.die"), SOLO),
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
            state.stack.append(Frame("gift", (state.start_player + chosen) % num_players))
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
        return STEPS.decisions(state)

    def perform(self, state: VillageState, decision: Decision, choices: tuple[str, ...]) -> None:
        STEPS.perform(state, decision, choices)
        run_on(state)
        del state.log[:-LOG_KEPT]

    resampled_by_game = frozenset({"VillageState.customer_stack"})

    def resample_private(self, state: VillageState, seat: int, rng: Rng) -> None:
        determinize.resample(state, seat, rng)

    def spectators_view(self, state: VillageState) -> dict[str, Any]:
        return public_view(state)

    def own_part(self, state: VillageState, seat: int) -> dict[str, Any]:
        return own_view(state, seat)

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
    STEPS.settle(state)
    run_on(state)


def run_on(state: VillageState) -> None:
    """While no step is pending, the game runs on (the mass, the market day, the next
    turn, ...) and the steps that answer themselves are carried out."""
    while not state.stack and state.phase != "over":
        rounds.go_on(state)
        STEPS.settle(state)
