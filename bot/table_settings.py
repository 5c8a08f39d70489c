"""Settings of a table that belong to Meeple Hall, not to a game: a clock, reminders, time
away, whether the game is rated. Community features know no game, so they keep their
settings here rather than as a game's options.

A feature declares each setting once (`declare`); the lobby then offers it beside the
game's own options, `/new options:` takes it the same way (`clock=48h`), and the table
keeps the chosen values in `Table.settings`. Names and choices are shown from the locale
files: `setting.<id>` and `setting.<id>.<choice>`.
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple_hall.bot.live import Refusal
from meeple_hall.bot.store import Table


@dataclass(frozen=True)
class TableSetting:
    id: str
    choices: tuple[str, ...]
    default: str

    def __post_init__(self) -> None:
        if self.default not in self.choices:
            raise ValueError(f"setting {self.id}: default {self.default!r} is not a choice")


_DECLARED: dict[str, TableSetting] = {}


def declare(setting: TableSetting) -> TableSetting:
    _DECLARED[setting.id] = setting
    return setting


def withdraw(setting_id: str) -> None:
    """Forget a declared setting (tests declare their own)."""
    _DECLARED.pop(setting_id, None)


def declared() -> tuple[TableSetting, ...]:
    return tuple(_DECLARED.values())


def is_setting(name: str) -> bool:
    return name in _DECLARED


def check(name: str, value: str) -> None:
    """Refuse a value the setting does not offer, naming the ones it does."""
    setting = _DECLARED[name]
    if value not in setting.choices:
        raise Refusal("lobby.bad_setting", name=name, choices=", ".join(setting.choices))


def split(options: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """Typed `name=value` options as (the game's options, checked table settings)."""
    game = {k: v for k, v in options.items() if not is_setting(k)}
    settings = {k: v for k, v in options.items() if is_setting(k)}
    for name, value in settings.items():
        check(name, value)
    return game, settings


def value(table: Table, name: str) -> str:
    """The table's choice for a declared setting, or its default."""
    return table.settings.get(name, _DECLARED[name].default)
