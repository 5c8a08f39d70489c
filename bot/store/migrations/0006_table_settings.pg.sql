-- PostgreSQL's side of 0006_table_settings (0006_table_settings.sqlite.sql is SQLite's).
-- Settings that belong to Meeple Hall rather than to the game (a clock, reminders, rated),
-- chosen in the lobby: an object of str -> str, apart from the game's own options so that
-- the engine is never handed a name it does not know.
ALTER TABLE tables ADD COLUMN settings jsonb NOT NULL DEFAULT '{}';
