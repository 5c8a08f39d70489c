"""Quiet hours: a daily span of local time in which no DM or mention reaches a player.

Written `22-07`, `22:00-07:30` (local time), with the player's offset from UTC as `+8`,
`-05:30` or `UTC+9`. A span may run past midnight; start and end equal is refused.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from meeple_hall.bot.live import Refusal
from meeple_hall.bot.store.base import UserPrefs

_SPAN = re.compile(r"(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?")
_OFFSET = re.compile(r"(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?", re.IGNORECASE)
DAY = 24 * 60


def parse_span(text: str) -> tuple[int, int]:
    """`22-07` or `22:00-07:30` as minutes after midnight (start, end)."""
    match = _SPAN.fullmatch(text.strip())
    if match is None:
        raise Refusal("quiet.bad_span", text=text)
    start = _minutes(match[1], match[2])
    end = _minutes(match[3], match[4])
    if start is None or end is None:
        raise Refusal("quiet.bad_span", text=text)
    if start == end:
        raise Refusal("quiet.empty_span")
    return start, end


def _minutes(hours: str, minutes: str | None) -> int | None:
    h, m = int(hours), int(minutes or 0)
    if h == 24 and m == 0:
        return 0
    return h * 60 + m if h < 24 and m < 60 else None


def parse_offset(text: str) -> int:
    """`+8`, `-05:30`, `UTC+9` or `0` as minutes east of UTC (from −12:00 to +14:00)."""
    cleaned = text.strip()
    if cleaned in ("0", "+0", "-0", "utc", "UTC", "Z", "z"):
        return 0
    match = _OFFSET.fullmatch(cleaned)
    if match is None:
        raise Refusal("quiet.bad_offset", text=text)
    sign = -1 if match[1] == "-" else 1
    hours, minutes = int(match[2]), int(match[3] or 0)
    offset = sign * (hours * 60 + minutes)
    if minutes >= 60 or not -12 * 60 <= offset <= 14 * 60:
        raise Refusal("quiet.bad_offset", text=text)
    return offset


def format_span(start: int, end: int, offset: int) -> str:
    sign = "-" if offset < 0 else "+"
    off = abs(offset)
    return (
        f"{start // 60:02d}:{start % 60:02d}–{end // 60:02d}:{end % 60:02d} "
        f"(UTC{sign}{off // 60:02d}:{off % 60:02d})"
    )


def quiet_until(prefs: UserPrefs, now: datetime) -> datetime | None:
    """When the player's quiet hours end, if `now` falls in them; else None."""
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return None
    local = now + timedelta(minutes=prefs.utc_offset)
    minute = local.hour * 60 + local.minute + local.second / 60 + local.microsecond / 6e7
    start, end = prefs.quiet_start, prefs.quiet_end
    inside = start <= minute < end if start < end else minute >= start or minute < end
    if not inside:
        return None
    left = (end - minute) % DAY
    return now + timedelta(minutes=left)
