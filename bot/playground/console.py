"""What the playground needs from the terminal it runs in: its language, and whether a
browser can be opened from it."""

from __future__ import annotations

import os
import sys


def console_locale() -> str:
    """The terminal's language, from LC_ALL / LC_MESSAGES / LANG (`zh_TW.UTF-8`, `ja_JP`)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value.startswith("zh_TW") or value.startswith("zh_HK"):
            return "zh-TW"
        if value.startswith("ja"):
            return "ja"
        if value:
            return "en"
    return "en"


def can_open_browser() -> bool:
    """False on a machine without a desktop, where `webbrowser` would start a text browser
    in this terminal (or nothing at all)."""
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True
