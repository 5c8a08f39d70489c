"""The `meeple-hall` command. With no subcommand it runs the bot with the settings in the
environment (`DISCORD_TOKEN`, `DATABASE_URL`, …)."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence

from meeple_hall.bot import create_bot
from meeple_hall.bot.config import Config


def run_bot(_args: argparse.Namespace) -> None:
    config = Config.from_env()
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    bot = create_bot(config.database_url, dev_guild_id=config.dev_guild_id)
    bot.run(config.token, log_handler=None)


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(
        prog="meeple-hall", description="Meeple Hall, a Discord table for heavy Euro games."
    )
    root.set_defaults(handler=run_bot)
    commands = root.add_subparsers(title="commands", metavar="COMMAND")
    run = commands.add_parser("run", help="run the bot (the default)")
    run.set_defaults(handler=run_bot)
    return root


def main(argv: Sequence[str] | None = None) -> None:
    args = parser().parse_args(argv)
    args.handler(args)
