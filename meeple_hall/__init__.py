"""Meeple Hall: a Discord table for heavy Euro board games.

The one installed package. Its parts live in the repository's top-level folders and are
mapped in by `pyproject.toml`: `meeple_hall.bot` (Discord), `meeple_hall.games` (the rules),
`meeple_hall.renderers` (the pictures) and `meeple_hall.data` (component tables).
"""
