-- PostgreSQL's side of 0015_paused_tables (0015_paused_tables.sqlite.sql is SQLite's).
-- A game whose channel (or thread) was deleted is paused (issue 24): no clock runs and no
-- one can move until its host continues it in another channel (`/reopen`, which clears this
-- and sets the table's new channel). NULL: the game plays where it is.
ALTER TABLE tables ADD COLUMN paused_at timestamptz;
