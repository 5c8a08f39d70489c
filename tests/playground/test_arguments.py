"""`meeple-hall play` with arguments it cannot play refuses them in one line, before making
any file: no database, no world file beside it (issue 29)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from meeple_hall.bot import ai
from meeple_hall.bot.i18n import t
from meeple_hall.games import get

REFUSED = {
    "too many": (["--game", "burgundy", "--players", "5"], "playground.players"),
    "too few": (["--game", "coffee", "--players", "1"], "playground.players"),
    "none": (["--players", "0"], "playground.players"),
    "unknown level": (["--game", "village", "--ai", "grandmaster"], "playground.unknown_level"),
}


def reason(key: str, arguments: list[str]) -> str:
    """What the playground says for these arguments, worked out from the catalogue."""
    options = dict(zip(arguments[::2], arguments[1::2], strict=True))
    engine = get(options.get("--game", "keyflower"))
    if key == "playground.players":
        fields = {"min": engine.min_players, "max": engine.max_players}
        return t("en", key, game=engine.name, players=options["--players"], **fields)
    offered = ", ".join(ai.levels_for(engine.id))
    return t("en", key, level=options["--ai"], levels=offered)


@pytest.mark.parametrize(("arguments", "key"), REFUSED.values(), ids=REFUSED.keys())
def test_arguments_it_cannot_play_make_no_file(tmp_path, arguments, key):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env["LANG"] = "C.UTF-8"
    command = [sys.executable, "-m", "meeple_hall", "play", "--no-browser"]
    command += ["--db", str(tmp_path / "err.db"), *arguments]
    run = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 1
    expected = t("en", "playground.error", reason=reason(key, arguments))
    assert run.stderr.strip() == expected
    assert list(tmp_path.iterdir()) == []
