"""The playground's browser test needs Playwright and a Chromium. Where neither can be had
it skips and says why; in CI (`CI=true`) a missing browser is a failure, not a skip."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real headless Chromium")


@pytest.fixture
def chromium_path() -> str:
    from meeple_hall.bot.playground.browser import find_chromium

    problem = None
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        problem = 'Playwright is not installed (pip install -e ".[test]")'
    path = find_chromium()
    if problem is None and path is None:
        problem = "no Chromium on this machine (apt-get install chromium)"
    if problem is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the browser test: {problem}")
        pytest.skip(problem)
    return path


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """Where the test's screenshots go: MEEPLE_HALL_SCREENSHOTS, else the test's temp dir."""
    folder = Path(os.environ.get("MEEPLE_HALL_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
