"""Two trees measured side by side in one run: each side is a worker process running a bench
script with `--serve`, importing `meeple_hall` from its own path (a folder holding a
`meeple_hall/` of symlinks to the other tree's parts, see `move_cpu.py`'s docstring), and
answering measuring requests, a JSON object a line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def serve(measure: Callable[..., Any]) -> None:
    """`--serve`: answer each request on stdin with `measure(**request)` as a JSON line."""
    for line in sys.stdin:
        print(json.dumps(measure(**json.loads(line))), flush=True)


class Side:
    """A worker process running `script --serve`, importing `meeple_hall` from `path` (None:
    as this process does)."""

    def __init__(self, script: str, path: str | None) -> None:
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        if path is not None:
            env["PYTHONPATH"] = path
        self.process = subprocess.Popen(
            [sys.executable, str(Path(script).resolve()), "--serve"],
            cwd="/tmp",
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, **request: Any) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def decision_shown(phone: Any, game_id: str, view: Any, decision: Any) -> tuple[Any, Any]:
    """The parts and marks a tree's `phone` module pictures `decision` with: narrowed to its
    options' fields and marked where the tree does so (`decision_picture`), else its kind's
    parts, unmarked (trees from before session 16)."""
    if hasattr(phone, "decision_picture"):
        fields = [option.fields for option in decision.options]
        return tuple(phone.decision_picture(game_id, view, decision.kind, fields))
    return phone.decision_parts(game_id, view, decision.kind), ()
