"""Settings from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from meeple_hall.bot.shards import Shards


@dataclass(frozen=True)
class Config:
    token: str
    database_url: str | None
    dev_guild_id: int | None
    log_level: str
    # SHARD_COUNT and SHARD_IDS: the shards this process runs (all of them by default)
    shards: Shards = field(default_factory=Shards)

    @classmethod
    def from_env(cls) -> Config:
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SystemExit("Set DISCORD_TOKEN to the bot token (see README.md).")
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SystemExit(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
        try:
            shards = Shards.parse(
                os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", "")
            )
        except ValueError as exc:
            raise SystemExit(str(exc)) from None
        return cls(
            token=token,
            database_url=os.environ.get("DATABASE_URL") or None,
            dev_guild_id=int(guild) if guild else None,
            log_level=os.environ.get("LOG_LEVEL", "INFO").upper(),
            shards=shards,
        )
