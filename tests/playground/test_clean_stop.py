"""A clean stop (issue 24): `meeple-hall play`, run as from a terminal (a session and
process group of its own), is stopped by Ctrl+C (SIGINT to the whole group, its AI and
picture workers included) or by SIGTERM to it alone, while a person plays with AI seats in
a real headless Chromium: it ends at once, without a traceback, its store closed and no
process of its own left."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from meeple_hall.bot.i18n import t
from meeple_hall.bot.playground.browser import NoPanel, TablePage, chromium
from tests.playground.processes import Proc, descendants

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="watches /proc"),
]
VIEWPORT = {"width": 1280, "height": 900}
STARTUP_SECONDS = 240.0  # two shared cores, several test runs at once
STOP_SECONDS = 60.0


@dataclass
class Playground:
    process: subprocess.Popen[bytes]
    db: Path
    out: Path
    err: Path

    @classmethod
    def start(cls, folder: Path) -> Playground:
        """Village at four, three AI seats: `meeple-hall play` in a session of its own."""
        db, out, err = folder / "playground.db", folder / "stdout.txt", folder / "stderr.txt"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
        env["LANG"] = "C.UTF-8"  # the console speaks English
        command = [sys.executable, "-m", "meeple_hall", "play", "--no-browser", "--db", str(db)]
        command += ["--game", "village", "--players", "4", "--ai", "good"]
        with out.open("wb") as stdout, err.open("wb") as stderr:
            process = subprocess.Popen(
                command,
                stdout=stdout,
                stderr=stderr,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                env=env,
            )
        return cls(process, db, out, err)

    def output(self) -> tuple[str, str]:
        return self.out.read_text("utf-8"), self.err.read_text("utf-8")

    def check_running(self) -> None:
        if self.process.poll() is not None:
            pytest.fail(f"the playground ended early: {self.output()}")

    async def table_url(self) -> str:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            self.check_running()
            for word in self.output()[0].split():
                if word.startswith("http://127.0.0.1:") and "/#" in word:
                    return word
            await asyncio.sleep(0.2)
        pytest.fail(f"the playground printed no address: {self.output()}")

    def ai_moves(self) -> int:
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as connection:
            query = "SELECT COUNT(*) FROM actions WHERE user_id IS NULL"
            (count,) = connection.execute(query).fetchone()
        connection.close()
        return count

    def workers(self) -> list[Proc]:
        return [p for p in descendants(self.process.pid) if p.worker]

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)


async def play_until_the_ai_has_moved(playground: Playground, table: TablePage) -> list[Proc]:
    """The person starts the game and plays when it is their turn, until an AI seat has
    moved (its answer worked out in an AI worker) and the table picture drawn (in a picture
    worker): one worker of each pool at least. Returns the playground's processes then."""
    await table.start_lobby()
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        playground.check_running()
        if playground.ai_moves() > 0 and len(playground.workers()) >= 2:
            return descendants(playground.process.pid)
        try:
            await table.take_turn(attempts=1)
            await table.answer_panel()
        except (NoPanel, AssertionError):
            await asyncio.sleep(0.5)  # the AI seats' turn
    pytest.fail(f"no AI move in time: {playground.output()}")


def assert_stopped_cleanly(playground: Playground, processes: list[Proc]) -> None:
    try:
        code = playground.process.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        playground.kill()
        pytest.fail(f"the playground did not stop: {playground.output()}")
    out, err = playground.output()
    assert code == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert t("en", "playground.bye") in out
    # Stopped and reaped by the playground before it ended, not left to notice later
    # (pool.follow_parent) that it is gone.
    assert [p.cmdline for p in processes if p.worker and p.running()] == []
    # multiprocessing's resource tracker ends once the playground's end closes its pipe.
    deadline = time.monotonic() + 10
    while any(p.running() for p in processes) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [p.cmdline for p in processes if p.running()] == []
    # SQLite removes the write-ahead log when its last connection closes: the store was
    # closed, not dropped.
    assert playground.db.exists() and not Path(f"{playground.db}-wal").exists()


@pytest.mark.parametrize("to_group", [True, False], ids=["ctrl-c", "sigterm"])
async def test_the_playground_stops_cleanly(tmp_path, chromium_path, to_group):
    playground = Playground.start(tmp_path)
    try:
        url = await playground.table_url()
        async with chromium(chromium_path) as browser:
            table = TablePage(await browser.new_page(viewport=VIEWPORT))
            await table.open(url)
            processes = await play_until_the_ai_has_moved(playground, table)
            if to_group:
                os.killpg(playground.process.pid, signal.SIGINT)  # Ctrl+C in its terminal
            else:
                playground.process.terminate()  # SIGTERM to the playground alone
            await asyncio.to_thread(assert_stopped_cleanly, playground, processes)
    finally:
        playground.kill()
