"""One season: the real bot (`create_bot()`, unmodified) in SimCord over `days` of virtual
time, a step at a time, every invariant checked after every step. Everything random comes
from one `random.Random(seed)`, so a seed and a step number replay a run exactly."""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, TextIO

import simcord
from simcord.backend.errors import SetupError

from meeple_hall.bot import create_bot
from meeple_hall.bot.ratings import table_is_rated
from meeple_hall.bot.store import TableStatus

from . import actions, aids, faults, invariants, organisers, pictures, plants
from .world import GAMES, Player, World, build

# A move that draws a picture on a loaded 2-core machine can take a while.
SETTLE_SECONDS = 60.0
TABLES_PER_SERVER = 2  # games in play a server keeps going
HINT_ASKED = 0.06  # of the turns played, the share a player asks /hint first
RULES_READ = 0.06  # ... opens the panel and reads its 📖 Rules first
CASUAL_HINTS = 0.7  # of the hints asked outside a turn, the share asked in casual games
SITTING_TURNS = 40  # turns played in a row at a sitting


@dataclass
class Violation:
    step: int
    invariant: str
    detail: str

    def line(self, seed: int, days: float, guilds: int, plant: str | None) -> str:
        return (
            f"step {self.step}: {self.invariant}: {self.detail}\n"
            f"  replay: {replay_command(seed, days, guilds, plant, self.step)}"
        )


@dataclass
class Report:
    seed: int
    days: float
    guilds: int
    plant: str | None = None
    tables: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    steps: int = 0
    restarts: int = 0
    faults: int = 0
    tournaments: int = 0  # finished
    tournaments_started: int = 0
    checks: int = 0
    violations: list[Violation] = field(default_factory=list)
    stumbles: list[str] = field(default_factory=list)  # steps the simulator could not take
    aids: Counter[str] = field(default_factory=Counter)  # hints, rules and reviews asked
    seconds: float = 0.0

    def line(self) -> str:
        by_game = ", ".join(f"{g} {self.tables[g]}" for g in GAMES)
        return (
            f"season: seed {self.seed}, {self.days:g} days, {self.guilds} guilds, "
            f"{sum(self.tables.values())} tables ({by_game}), {self.moves} moves, "
            f"{self.restarts} restarts, {self.faults} faults, {self.tournaments} tournaments "
            f"finished; invariants checked {self.checks} times; violations "
            f"{len(self.violations)}"
        )

    def aids_line(self) -> str:
        """The help at hand the players asked for (issue 30), by kind."""
        asked = ", ".join(f"{kind} {count}" for kind, count in sorted(self.aids.items()))
        return f"help at hand: {asked or 'none asked'}"

    def invariants_violated(self) -> set[str]:
        return {v.invariant for v in self.violations}


def replay_command(seed: int, days: float, guilds: int, plant: str | None, step: int) -> str:
    planted = f" --plant {plant}" if plant else ""
    return (
        f"meeple-hall simulate --days {days:g} --seed {seed} --guilds {guilds}{planted} "
        f"--until-step {step}"
    )


class Sim:
    """The season's shared state: the env, the world, the bot generations, the ledger of
    acknowledged moves and what the invariants remember between steps."""

    def __init__(
        self, env: Any, database_url: str, seed: int, report: Report, seeds: random.Random
    ) -> None:
        self.env = env
        self.database_url = database_url
        self.rng = random.Random(seed)
        self.bot_seeds = seeds
        self.report = report
        self.world: World = World(self.rng)
        self.bots: list[Any] = [env.bot]
        self.acked: Counter[tuple[int, int]] = Counter()  # (table, user) -> moves
        self.table_ids: set[int] = set()
        self.memory: dict[str, Any] = {}  # what each invariant keeps between steps
        self._game_turn = self.rng.randrange(len(GAMES))

    # -- the bot ---------------------------------------------------------------------------
    def make_bot(self) -> Any:
        bot = create_bot(self.database_url, new_seed=lambda: self.bot_seeds.getrandbits(63))
        self.bots.append(bot)
        return bot

    @property
    def bot(self) -> Any:
        return self.env.bot

    def live(self, channel_id: int) -> Any:
        return self.bot.manager.in_channel(channel_id)

    def live_games(self) -> list[Any]:
        found = []
        for server in self.world.servers:
            for channel in server.table_channels():
                game = self.live(channel.id)
                if game is not None:
                    found.append(game)
        return found

    def server_language(self, channel_id: int) -> str:
        server = self.world.server_of_channel(channel_id)
        return server.language if server else "en"

    # -- the ledger ------------------------------------------------------------------------
    def acknowledge(self, table_id: int, user_id: int, moves: int) -> None:
        self.acked[(table_id, user_id)] += moves
        self.report.moves += moves

    def note(self, invariant: str, problem: str) -> None:
        """A violation seen while acting (what one command did), reported with the step's."""
        self.memory.setdefault("noted", []).append((invariant, problem))

    def next_game(self) -> str:
        """The games in turn, so a season has tables of all four."""
        self._game_turn += 1
        return GAMES[self._game_turn % len(GAMES)]

    def count_table(self, game_id: str) -> None:
        self.report.tables[game_id] += 1
        for game in self.live_games():
            self.table_ids.add(game.id)


# -- one step --------------------------------------------------------------------------------
async def one_step(sim: Sim) -> None:
    """One thing happens, chosen by the season's generator, then a little time passes."""
    try:
        await act(sim)
    except SetupError as exc:  # the simulator asked for what no user could do
        sim.report.stumbles.append(f"step {sim.report.steps}: {exc}")
    except Exception as exc:  # the simulator's own fault: told, and the season goes on
        sim.report.stumbles.append(f"step {sim.report.steps}: {type(exc).__name__}: {exc}")
    try:
        await sim.env.advance_time(pause(sim.rng))
    except TimeoutError as exc:  # the bot did not settle: told, and time goes on
        sim.report.stumbles.append(f"step {sim.report.steps}: {str(exc).splitlines()[0]}")


async def act(sim: Sim) -> None:
    rng = sim.rng
    await faults.reopen_due(sim)
    await actions.come_back(sim)
    often = sim.memory.get("often")  # what a plant needs to happen, made common
    if often is not None and rng.random() < OFTEN:
        await OFTEN_DONE[often](sim)
        return
    roll = rng.random()
    if roll < 0.08 or not sim.live_games():
        await open_tables(sim)
    elif roll < 0.52:
        await someone_plays(sim)
    elif roll < 0.59:
        await someone_misbehaves(sim)
    elif roll < 0.64:
        await someone_goes(sim)
    elif roll < 0.73:
        await faults.inject(sim)
    elif roll < 0.77:
        await faults.restart(sim, abrupt=rng.random() < 0.5)
    elif roll < 0.80:
        await faults.delete_table_message(sim)
    elif roll < 0.81:
        await faults.delete_channel(sim)
    elif roll < 0.85:
        await someone_looks_up(sim)
    elif roll < 0.86:
        await a_sitting(sim)
    else:
        await organisers.organise(sim)


OFTEN = 0.3  # the share of steps given to what a plant needs to happen
OFTEN_DONE: dict[str, Callable[[Sim], Awaitable[None]]] = {
    "organise": organisers.organise,
    "delete_channel": faults.delete_channel,
    "hint": lambda sim: someone_asks_for_a_hint(sim),
    "rules": lambda sim: someone_awaited_asks(sim, aids.rules_on_panel),
    "sitting": lambda sim: a_sitting(sim),
    "help": lambda sim: help_at_hand(sim),
}


def pause(rng: random.Random) -> float:
    """Seconds of virtual time after a step: mostly minutes, sometimes hours."""
    if rng.random() < 0.03:
        return rng.uniform(2, 10) * 3600
    return rng.uniform(1, 20) * 60


async def open_tables(sim: Sim) -> None:
    for server in sim.world.servers:
        busy = [c for c in server.channels if sim.live(c.id) is not None]
        free = [c for c in server.channels if sim.live(c.id) is None]
        if free and len(busy) < TABLES_PER_SERVER:
            await actions.open_table(sim, server, sim.rng.choice(free))


def awaited(sim: Sim, game: Any) -> list[tuple[int, Player]]:
    """The human seats the game awaits now, with their players."""
    out = []
    for decision in game.decisions():
        seat = game.table.seats[decision.seat]
        player = sim.world.player(seat.user_id) if not seat.ai and seat.user_id else None
        if player is not None:
            out.append((decision.seat, player))
    return out


def wants_to_play(sim: Sim, player: Player) -> bool:
    now = sim.env.now()
    if not player.present(now):
        return False
    if player.behaviour == "slow":
        return sim.rng.random() < 0.3
    if player.behaviour == "vanishing" and sim.rng.random() < 0.05:
        player.absent_until = now + timedelta(days=sim.rng.uniform(1, 3))
        return False
    return True


async def someone_plays(sim: Sim) -> None:
    waiting = [(g, s, p) for g in sim.live_games() for s, p in awaited(sim, g)]
    if not waiting:
        return
    game, seat, player = sim.rng.choice(waiting)
    if wants_to_play(sim, player):
        first = sim.rng.random()
        if first < HINT_ASKED:
            await aids.ask_for_hint(sim, game, seat, player)
        elif first < HINT_ASKED + RULES_READ:
            await aids.rules_on_panel(sim, game, seat, player)
        if sim.rng.random() < 0.1:
            await actions.double_click(sim, game, seat, player)
        else:
            await actions.play_turn(sim, game, seat, player)


async def someone_asks_for_a_hint(sim: Sim) -> None:
    """A player whose turn it is asks /hint: mostly in a casual game (where hints are
    given), sometimes in a game that counts (where they are refused)."""
    waiting = [(g, s, p) for g in sim.live_games() for s, p in awaited(sim, g)]
    casual = [w for w in waiting if not table_is_rated(w[0].table)]
    wanted = [w for w in casual if w[0].table.game == sim.memory.get("needed_game")]
    casual = wanted or casual
    chosen_from = casual if casual and sim.rng.random() < CASUAL_HINTS else waiting
    if chosen_from:
        await aids.ask_for_hint(sim, *sim.rng.choice(chosen_from))


async def someone_awaited_asks(
    sim: Sim, ask: Callable[[Sim, Any, int, Player], Awaitable[None]]
) -> None:
    """A player whose turn it is asks for help (a plant's common step)."""
    waiting = [(g, s, p) for g in sim.live_games() for s, p in awaited(sim, g)]
    if waiting:
        await ask(sim, *sim.rng.choice(waiting))


async def help_at_hand(sim: Sim) -> None:
    """One of the ways a player asks for help (issue 30), each as likely."""
    roll = sim.rng.random()
    if roll < 1 / 3:
        await someone_asks_for_a_hint(sim)
    elif roll < 2 / 3:
        await someone_awaited_asks(sim, aids.rules_on_panel)
    else:
        await someone_looks_up(sim)


async def someone_looks_up(sim: Sim) -> None:
    """A player of some server reads a rulebook topic with /rules, or reviews a game."""
    server = sim.rng.choice(sim.world.servers)
    player = sim.rng.choice(server.players)
    if sim.rng.random() < 0.5:
        await aids.look_up_rules(sim, server, player)
    else:
        await aids.review_a_game(sim, server, player)


async def a_sitting(sim: Sim) -> None:
    """The players of a table sit down together and play turn after turn while they are
    all there, so that games end; at the end one of them presses Review."""
    games_now = sim.live_games()
    wanted = [g for g in games_now if g.table.game == sim.memory.get("needed_game")]
    if not games_now:
        return
    game = sim.rng.choice(wanted or games_now)
    now = sim.env.now()
    for _ in range(SITTING_TURNS):
        waiting = awaited(sim, game)
        if not waiting or not all(p.present(now) for _, p in waiting):
            break
        seat, player = sim.rng.choice(waiting)
        await actions.play_turn(sim, game, seat, player)
    table = await sim.bot.store.get_table(game.id)
    seated = [sim.world.player(s.user_id) for s in table.seats if s.user_id]
    present = [p for p in seated if p is not None]
    if table.status is TableStatus.FINISHED and present:
        aids.cheap_reviews(sim.bot)
        await aids.press_review(sim, table, sim.rng.choice(present))


async def someone_misbehaves(sim: Sim) -> None:
    games_now = sim.live_games()
    if not games_now:
        return
    game = sim.rng.choice(games_now)
    server = sim.world.server_of_channel(game.table.channel_id)
    assert server is not None
    player = sim.rng.choice(server.players)
    misdeed = sim.rng.choice((actions.bad_move, actions.stale_click, actions.forged_click))
    await misdeed(sim, game, player)


async def someone_goes(sim: Sim) -> None:
    """A player goes away with /away, or resigns a game."""
    games_now = sim.live_games()
    if not games_now:
        return
    game = sim.rng.choice(games_now)
    seats = awaited(sim, game)
    if not seats:
        return
    _seat, player = sim.rng.choice(seats)
    channel = sim.world.channel(game.table.channel_id)
    if player.behaviour == "away":
        await actions.go_away(sim, player, channel)
    elif sim.rng.random() < 0.15:
        await actions.resign(sim, game, player)


# -- the season ------------------------------------------------------------------------------
async def season(
    days: float,
    seed: int,
    guilds: int = 3,
    plant: str | None = None,
    until_step: int | None = None,
    progress: TextIO | None = sys.stderr,
    database: Path | None = None,
    stop_on: str | None = None,
    often: str | None = None,
) -> Report:
    """Run one season and return its report (violations included); with `stop_on`, stop
    at the first violation of that invariant (a planted bug found); with `often` (a name in
    OFTEN_DONE), that step is made common, as a plant makes what it needs."""
    report = Report(seed, days, guilds, plant)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        path = database or Path(folder) / "season.db"
        url = f"sqlite:///{path}"
        seeds = random.Random(seed ^ 0x5EED)
        first = create_bot(url, new_seed=lambda: seeds.getrandbits(63))
        async with simcord.run(first, settle_timeout=SETTLE_SECONDS, check_errors=False) as env:
            sim = Sim(env, url, seed, report, seeds)
            sim.world = build(env, sim.rng, guilds)
            unrecord = pictures.record(sim)
            if often is not None:
                sim.memory["often"] = often
            undo_plant = plants.apply(plant, sim) if plant else (lambda: None)
            try:
                await run_steps(sim, days, until_step, progress, stop_on)
            finally:
                undo_plant()
                unrecord()
        for bot in sim.bots:
            await close_quietly(bot)
    report.seconds = time.perf_counter() - started
    return report


async def run_steps(
    sim: Sim, days: float, until_step: int | None, progress: Any, stop_on: str | None
) -> None:
    end = sim.env.now() + timedelta(days=days)
    await actions.settle_in(sim)
    await check(sim)
    while sim.env.now() < end:
        sim.report.steps += 1
        await one_step(sim)
        await check(sim)
        if progress is not None and sim.report.steps % 25 == 0:
            left = (end - sim.env.now()).total_seconds() / 3600
            print(
                f"step {sim.report.steps}: {left:.0f} h left, {sim.report.moves} moves, "
                f"{len(sim.report.violations)} violations",
                file=progress,
                flush=True,
            )
        if until_step is not None and sim.report.steps >= until_step:
            break
        if stop_on is not None and stop_on in sim.report.invariants_violated():
            break
    sim.report.tournaments_started, sim.report.tournaments = await organisers.tally(sim)


async def check(sim: Sim) -> None:
    """Every invariant, once; each violation kept with the step it was seen at."""
    noted = sim.memory.pop("noted", [])
    for name, problem in noted:
        sim.report.violations.append(Violation(sim.report.steps, name, problem))
    for name, problems in await invariants.check_all(sim):
        for problem in problems:
            sim.report.violations.append(Violation(sim.report.steps, name, problem))
    sim.report.checks += 1


async def close_quietly(bot: Any) -> None:
    try:
        await bot.close()
    except Exception:  # a bot SimCord already detached, closed twice
        store = getattr(bot, "store", None)
        if store is not None:
            await store.close()


def main(
    days: float,
    seed: int,
    guilds: int,
    plant: str | None,
    until_step: int | None,
    out: Callable[[str], None] = print,
) -> int:
    report = asyncio.run(season(days, seed, guilds, plant, until_step))
    for violation in report.violations:
        out(violation.line(seed, days, guilds, plant))
    for stumble in report.stumbles:
        out(f"the simulator could not act at {stumble}")
    out(report.aids_line())
    out(report.line())
    return 1 if report.violations else 0
