-- Settings that belong to Meeple Hall rather than to the game (a clock, reminders, rated),
-- chosen in the lobby: a JSON object of str -> str, apart from the game's own options so
-- that the engine is never handed a name it does not know.
ALTER TABLE tables ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
