"""Component tables of each game (TOML and JSON, each citing its sources). No code: the
games read these files with importlib.resources (`meeple_hall.games.core.resources`)."""
