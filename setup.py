"""One installed import name, `meeple_hall`, for a repository that keeps its parts in
top-level folders: `bot/` is installed as `meeple_hall.bot`, `games/` as `meeple_hall.games`,
and so on. Everything else about the distribution is in pyproject.toml.

Folders without code (bot/locales, bot/store/migrations, data/…) have no __init__.py: they
are namespace packages, read with importlib.resources."""

from setuptools import find_namespace_packages, setup

PARTS = ("bot", "games", "renderers", "data")


def packages(part: str) -> list[str]:
    found = find_namespace_packages(where=part, exclude=["*__pycache__*"])
    return [f"meeple_hall.{part}", *(f"meeple_hall.{part}.{name}" for name in found)]


setup(
    packages=["meeple_hall", *(name for part in PARTS for name in packages(part))],
    package_dir={"meeple_hall": "meeple_hall", **{f"meeple_hall.{p}": p for p in PARTS}},
)
