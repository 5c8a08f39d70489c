"""Which guilds this process serves, when the bot runs as several processes (shards).

Discord sends a guild's events to shard `(guild_id >> 22) % shard_count`; a process that
runs some of the shards loads, schedules, plays the AI for and runs the tournaments of the
tables in those shards' guilds only. A table without a guild (a direct message) belongs to
shard 0, where Discord delivers direct messages. `Shards.serves` is the one place that
decides; everything that picks tables up asks it.
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a guild's events to; 0 for no guild (direct messages)."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """`count` shards in all, of which this process runs `ids` (every one if None)."""

    count: int = 1
    ids: frozenset[int] | None = None

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"the shard count must be at least 1, not {self.count}")
        if self.ids is not None:
            if not self.ids:
                raise ValueError("a process must run at least one shard")
            wrong = sorted(i for i in self.ids if not 0 <= i < self.count)
            if wrong:
                raise ValueError(
                    f"shard ids {wrong} are outside 0–{self.count - 1} (SHARD_COUNT={self.count})"
                )

    @property
    def all(self) -> bool:
        """Whether this process runs every shard (one process, the default)."""
        return self.ids is None or len(self.ids) == self.count

    @property
    def running(self) -> list[int]:
        return sorted(self.ids) if self.ids is not None else list(range(self.count))

    def serves(self, guild_id: int | None) -> bool:
        """Whether the tables (and tournaments) of this guild are this process's."""
        return self.all or shard_of(guild_id, self.count) in (self.ids or ())

    @classmethod
    def parse(cls, count: str, ids: str) -> Shards:
        """From SHARD_COUNT ("4") and SHARD_IDS ("0,1" or "2-3"; empty: all of them)."""
        count, ids = count.strip(), ids.strip()
        if not count:
            if ids:
                raise ValueError("SHARD_IDS needs SHARD_COUNT (the number of shards in all)")
            return cls()
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"SHARD_COUNT must be a whole number of 1 or more, not {count!r}")
        chosen: set[int] = set()
        for part in filter(None, (p.strip() for p in ids.split(","))):
            first, dash, last = part.partition("-")
            if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
                raise ValueError(f"SHARD_IDS must list shard numbers like 0,1 or 0-3, not {ids!r}")
            low, high = int(first), int(last) if dash else int(first)
            if high < low:
                raise ValueError(f"SHARD_IDS range {part!r} runs backwards")
            chosen.update(range(low, high + 1))
        return cls(int(count), frozenset(chosen) if ids else None)
