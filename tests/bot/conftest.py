"""Bot tests run the real bot against SimCord's in-memory Discord, on a real SQLite file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

from bot import create_bot


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'meeple.db'}"


@pytest.fixture
def simcord_bot(database_url: str):
    return create_bot(database_url)


@dataclass
class Table:
    """A guild with a channel, a host and three more members."""

    env: object
    guild: object
    channel: object
    alice: object
    bob: object
    carol: object
    dave: object


@pytest.fixture
def table(simcord_env) -> Table:
    guild = simcord_env.create_guild(name="Meeple Hall")
    channel = guild.create_text_channel("games")
    members = [
        guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob", "carol", "dave")
    ]
    return Table(simcord_env, guild, channel, *members)


def buttons(message: discord.Message) -> dict[str, str]:
    """label -> custom_id for every button on a message."""
    out = {}
    for row in message.components:
        for child in getattr(row, "children", []):
            if isinstance(child, discord.Button) and child.custom_id:
                out[child.label] = child.custom_id
    return out
