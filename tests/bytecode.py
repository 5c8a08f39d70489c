"""Loaded first (`-p tests.bytecode` in pyproject.toml's addopts, before the installed pytest
plugins; tests/conftest.py imports it too): where the environment tells Python to write no
bytecode (PYTHONDONTWRITEBYTECODE), the tests still keep it, outside the tree
(PYTHONPYCACHEPREFIX, a folder under the system's temp dir). Otherwise every pytest process
(the controller and each xdist worker) rewrites the asserts of the installed plugins
(pytest-asyncio, hypothesis, xdist, simcord…: about 100 modules, 1.5-3 s of processor time
each) and compiles the project and the tests again at every run, and every playground
process the bot's modules. Set before anything of the project is imported; the workers and
every process the tests start inherit it."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def cache_bytecode() -> None:
    if not sys.dont_write_bytecode or sys.pycache_prefix:
        return
    prefix = str(Path(tempfile.gettempdir()) / "meeple-hall-pycache")
    sys.dont_write_bytecode = False
    sys.pycache_prefix = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix


cache_bytecode()
