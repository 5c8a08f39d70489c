"""One cog per concern: lobbies, play, and the user's own settings."""
