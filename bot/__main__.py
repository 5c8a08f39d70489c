"""`python -m bot`: run Meeple Hall with the settings in the environment."""

from __future__ import annotations

import logging

from bot import create_bot
from bot.config import Config


def main() -> None:
    config = Config.from_env()
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    bot = create_bot(config.database_url, dev_guild_id=config.dev_guild_id)
    bot.run(config.token, log_handler=None)


if __name__ == "__main__":
    main()
