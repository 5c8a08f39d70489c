"""The playground's simulated Discord: one server, one person, six table channels.

SimCord's world lives in memory, but the bot's games are stored by id (server, channel,
player). The world is rebuilt in the same order on every run, so SimCord deals the same
ids, and a small file beside the database records them: a second run finds its tables,
and if a SimCord upgrade ever dealt different ids, the run stops instead of starting over
with games nobody can reach.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# A fixed server id (a snowflake from 2025, before SimCord's clock starts in 2026, so it
# never meets an id SimCord deals).
GUILD_ID = 1_318_000_000_000_000_000
GUILD_NAME = "Meeple Hall Playground"
BOT_NAME = "Meeple Hall"
PERSON_NAME = "you"
# A channel holds one table at a time; every channel is made at the start of each run
# (SimCord deals ids in creation order, so a channel made later would not get its id back).
CHANNELS = tuple(f"table-{n}" for n in range(1, 7))


class WorldMismatch(Exception):
    """The rebuilt world does not have the ids the stored games were played under."""

    def __init__(self, **fields: object) -> None:
        super().__init__("playground.mismatch")
        self.key = "playground.mismatch"
        self.fields = fields


def world_file(db_path: Path) -> Path:
    return db_path.with_name(db_path.stem + ".world.json")


def load_ids(path: Path) -> dict[str, int]:
    if not path.exists():
        return {}
    return {key: int(value) for key, value in json.loads(path.read_text("utf-8")).items()}


def save_ids(path: Path, ids: dict[str, int]) -> None:
    text = json.dumps({key: str(value) for key, value in ids.items()}, indent=2)
    path.write_text(text + "\n", encoding="utf-8")


class World:
    """The server, the person (its owner, seated at every table) and the table channels."""

    def __init__(self, env: Any, path: Path) -> None:
        """Builds the world in `env` (before the bot starts, so the bot's own first steps
        never shift the ids), checked against the ids recorded at `path`."""
        self.env = env
        self.path = path
        self.ids = load_ids(path)
        # SimCord creates the bot's own account first; name it as players see it.
        env.backend.bot_user.name = BOT_NAME
        self.user = env.create_user(PERSON_NAME)
        self.guild = env.create_guild(GUILD_NAME, id=GUILD_ID, owner=self.user)
        self.person = self.guild.add_member(self.user)
        self.dm_channel = self.user.dm_channel
        self.channels = [self.guild.create_text_channel(name) for name in CHANNELS]
        self._check("user", self.user.id)
        self._check("dm", self.dm_channel.id)
        for channel in self.channels:
            self._check(f"channel:{channel.name}", channel.id)
        save_ids(path, self.ids)

    def _check(self, key: str, value: int) -> None:
        recorded = self.ids.setdefault(key, value)
        if recorded != value:
            raise WorldMismatch(path=self.path, key=key, recorded=recorded, dealt=value)

    def channel(self, channel_id: int) -> Any:
        return next(c for c in self.channels if c.id == channel_id)
