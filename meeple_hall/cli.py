"""The `meeple-hall` command. With no subcommand it runs the bot with the settings in the
environment (`DISCORD_TOKEN`, `DATABASE_URL`, …)."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING

from meeple_hall import games
from meeple_hall.bot.config import Config
from meeple_hall.bot.playground.console import console_locale
from meeple_hall.stopping import run_until_stopped

if TYPE_CHECKING:
    from discord import Client

# discord.py and the bot are imported by the commands that use them, not here: the bot's
# worker processes (`spawn`ed) run the `meeple-hall` script's imports again, and a picture
# worker must not pay for them (bot/picture_encoding.py).


def run_bot(_args: argparse.Namespace) -> None:
    from meeple_hall.bot import create_bot

    config = Config.from_env()
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    bot = create_bot(config.database_url, dev_guild_id=config.dev_guild_id, shards=config.shards)
    run_until_stopped(serve_bot(bot, config.token))


async def serve_bot(bot: Client, token: str) -> None:
    """What `Client.run` does, inside `run_until_stopped`: SIGTERM too closes the bot."""
    async with bot:
        await bot.start(token)


def run_playground(args: argparse.Namespace) -> None:
    from meeple_hall.bot.i18n import t

    missing = [m for m in ("simcord", "aiohttp", "markdown_it") if find_spec(m) is None]
    if missing:
        raise SystemExit(t(console_locale(), "playground.missing", missing=", ".join(missing)))
    from meeple_hall.bot.playground import run, session

    options = session.Options(
        game=args.game, players=args.players, ai=args.ai, port=args.port, db=args.db
    )
    run.main(options, open_browser=not args.no_browser)


def run_arena(args: argparse.Namespace) -> None:
    from meeple_hall.games.ai import arena

    seats = [level.strip() for level in args.seats.split(",") if level.strip()]
    try:
        figures = arena.run(
            args.game, args.players, seats, args.games, args.seed, args.think, args.processes
        )
    except games.GameError as exc:
        raise SystemExit(f"arena: {exc}") from None
    for stats in figures:
        print(arena.line(stats, solo=args.players == 1))


def run_migrate_db(args: argparse.Namespace) -> None:
    import asyncio

    from meeple_hall.bot.store import StoreError
    from meeple_hall.bot.store.transfer import transfer, verify

    run = verify if args.check_only else transfer
    try:
        report = asyncio.run(run(args.source, args.target))
    except StoreError as exc:
        raise SystemExit(f"migrate-db: {exc}") from None
    print(f"{report.replayed} games replayed to the same state on both sides")
    if not report.ok:
        print("\n".join(f"  {problem}" for problem in report.problems))
        raise SystemExit(f"migrate-db: the copy differs in {len(report.problems)} places")
    print("the copy is checked" if args.check_only else "the copy is complete and checked")


def run_simulate(args: argparse.Namespace) -> None:
    from meeple_hall.bot.simulation import plants, run

    if args.list_plants:
        for name, (invariant, what, _plant) in plants.PLANTS.items():
            print(f"{name}: {what} (caught by {invariant})")
        return
    if args.plant is not None and args.plant not in plants.PLANTS:
        raise SystemExit(f"simulate: no plant {args.plant!r}; see --list-plants")
    raise SystemExit(run.main(args.days, args.seed, args.guilds, args.plant, args.until_step))


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(
        prog="meeple-hall", description="Meeple Hall, a Discord table for heavy Euro games."
    )
    root.set_defaults(handler=run_bot)
    commands = root.add_subparsers(title="commands", metavar="COMMAND")
    run = commands.add_parser("run", help="run the bot (the default)")
    run.set_defaults(handler=run_bot)
    play = commands.add_parser(
        "play",
        help="try the bot in your browser, without Discord (needs the playground extra)",
        description="Runs the bot against a simulated Discord on this machine and opens a "
        "table where you sit with AI opponents. Games are kept in --db for the next run.",
    )
    play.add_argument("--game", choices=games.ids(), help="the game (default: keyflower)")
    play.add_argument("--players", type=int, default=3, help="seats, you included (default 3)")
    play.add_argument(
        "--ai", default="good", metavar="LEVEL", help="the AI seats' level: random, good, strong"
    )
    play.add_argument("--port", type=int, default=0, help="the table page's port (default: any)")
    play.add_argument("--db", type=Path, default=Path("playground.db"), help="the games' file")
    play.add_argument("--no-browser", action="store_true", help="print the address only")
    play.set_defaults(handler=run_playground)
    arena = commands.add_parser(
        "arena",
        help="play AI levels against each other and print their win rates",
        description="Plays --games games with the AI levels in --seats, rotated over the "
        "seats, and prints one line per level: its win rate with a 95 %% interval "
        "(Wilson; a first place shared by k seats counts 1/k), average score and rank, "
        "and decision times. With one player (Village's solo game) it prints each "
        "level's score distribution.",
    )
    arena.add_argument("--game", required=True, choices=games.ids(), help="the game")
    arena.add_argument("--players", type=int, required=True, help="seats at the table")
    arena.add_argument(
        "--seats", required=True, help="AI levels, comma separated: random, good, strong"
    )
    arena.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    arena.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    arena.add_argument(
        "--think", type=float, default=2.0, help="the strong level's seconds a decision"
    )
    arena.add_argument("--processes", type=int, default=2, help="games played at once (default 2)")
    arena.set_defaults(handler=run_arena)
    migrate = commands.add_parser(
        "migrate-db",
        help="copy a SQLite database into an empty PostgreSQL database, and check the copy",
        description="Copies every table, seat, log entry, snapshot, result and preference "
        "from --from into --to, keeping ids, in one transaction; refuses a target that "
        "holds data. Then checks both sides hold the same and that every game replays to "
        "the same state. Stop the bot first. With --check-only, only checks a copy made "
        "before (one whose check was interrupted, say).",
    )
    migrate.add_argument(
        "--from", dest="source", required=True, metavar="URL", help="sqlite:///old.db"
    )
    migrate.add_argument(
        "--to", dest="target", required=True, metavar="URL", help="postgresql://user:pw@host/db"
    )
    migrate.add_argument(
        "--check-only",
        action="store_true",
        help="copy nothing: check that --to holds what --from does (a copy made before)",
    )
    migrate.set_defaults(handler=run_migrate_db)
    simulate = commands.add_parser(
        "simulate",
        help="run a seeded community season of the real bot in a simulated Discord",
        description="Runs the bot in SimCord for --days of virtual time: servers in three "
        "languages, players with behaviours, all four games, restarts and Discord faults, "
        "with every invariant checked after every step. Prints each violation with a "
        "command that replays the run to its step, then one summary line; exits 1 on a "
        "violation. --plant plants a bug (see --list-plants) that must be caught.",
    )
    simulate.add_argument("--days", type=float, default=7.0, help="virtual days (default 7)")
    simulate.add_argument("--seed", type=int, default=1, help="the season's seed (default 1)")
    simulate.add_argument("--guilds", type=int, default=3, help="servers (default 3)")
    simulate.add_argument("--plant", metavar="NAME", help="plant this bug in the bot")
    simulate.add_argument("--list-plants", action="store_true", help="name the bugs to plant")
    simulate.add_argument(
        "--until-step", type=int, metavar="N", help="stop after step N (to replay a violation)"
    )
    simulate.set_defaults(handler=run_simulate)
    return root


def main(argv: Sequence[str] | None = None) -> None:
    args = parser().parse_args(argv)
    args.handler(args)
