"""The simulated community: servers in three languages and players with behaviours, all
drawn from one `random.Random(seed)`, so a seed gives the same world every time."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

LANGUAGES = ("en", "zh-TW", "ja")
GAMES = ("keyflower", "burgundy", "village", "coffee")
# How a player behaves at the table (issue 26): on time; slow (answers one turn in a few);
# vanishing for days; away with /away; with quiet hours; with DMs closed.
BEHAVIOURS = ("prompt", "prompt", "slow", "vanishing", "away", "quiet", "dms_closed")
CHANNELS_PER_SERVER = 3
PLAYERS_PER_SERVER = 6


@dataclass
class Player:
    member: Any  # SimCord's MemberActor
    behaviour: str
    language: str | None  # their /settings language (None: their client's, en-US)
    absent_until: datetime | None = None

    @property
    def id(self) -> int:
        return self.member.id

    def present(self, now: datetime) -> bool:
        return self.absent_until is None or now >= self.absent_until

    def reads(self, server: Server) -> str:
        """The language this player's own replies and DMs must be in: their /settings
        choice, else their client's (every SimCord interaction is en-US)."""
        return self.language or "en"


@dataclass
class Server:
    guild: Any
    language: str  # what the server's posts must be in
    channels: list[Any]
    players: list[Player]
    moderator: Any
    set_by_command: bool  # /settings server_language (else the guild's preferred locale)
    hall: Any = None  # where tournaments are run; their tables are threads of it

    def player(self, user_id: int) -> Player | None:
        return next((p for p in self.players if p.id == user_id), None)

    def table_channels(self) -> list[Any]:
        """Every channel a game may be in: the table channels and the tournaments' threads."""
        return [*self.channels, *(self.hall.threads if self.hall is not None else ())]

    def holds(self, channel_id: int) -> bool:
        return channel_id == getattr(self.hall, "id", None) or any(
            c.id == channel_id for c in self.table_channels()
        )


@dataclass
class World:
    rng: random.Random
    servers: list[Server] = field(default_factory=list)

    def players(self) -> list[Player]:
        return [p for s in self.servers for p in s.players]

    def player(self, user_id: int) -> Player | None:
        return next((p for p in self.players() if p.id == user_id), None)

    def server_of_channel(self, channel_id: int) -> Server | None:
        return next((s for s in self.servers if s.holds(channel_id)), None)

    def channel(self, channel_id: int) -> Any:
        for server in self.servers:
            for channel in (*server.table_channels(), server.hall):
                if channel is not None and channel.id == channel_id:
                    return channel
        return None


def build(env: Any, rng: random.Random, guilds: int) -> World:
    """Servers with channels, players and a moderator; languages and behaviours drawn from
    `rng`. The first servers take en, zh-TW and ja in turn, so every language is there."""
    world = World(rng)
    for index in range(guilds):
        language = LANGUAGES[index % len(LANGUAGES)]
        by_command = rng.random() < 0.5
        guild = env.create_guild(
            name=f"Hall {index}", preferred_locale=None if by_command else locale_of(language)
        )
        channels = [guild.create_text_channel(f"table-{n}") for n in range(CHANNELS_PER_SERVER)]
        hall = guild.create_text_channel("tournaments")
        mods = guild.create_role(
            "Mods",
            permissions=discord.Permissions(manage_messages=True, manage_guild=True),
        )
        moderator = guild.add_member(env.create_user(f"mod{index}"), roles=[mods])
        players = [
            Player(
                guild.add_member(env.create_user(f"p{index}x{n}")),
                rng.choice(BEHAVIOURS),
                rng.choice((None, *LANGUAGES)) if n else language,
            )
            for n in range(PLAYERS_PER_SERVER)
        ]
        world.servers.append(
            Server(guild, language, channels, players, moderator, by_command, hall)
        )
    return world


def locale_of(language: str) -> str:
    """The guild's preferred locale, as Discord sends it (SimCord takes the string)."""
    return "en-US" if language == "en" else language
