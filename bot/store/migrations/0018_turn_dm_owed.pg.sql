-- PostgreSQL's side of 0018_turn_dm_owed (0018_turn_dm_owed.sqlite.sql is SQLite's).
-- A seat owed a turn DM (simulation finding 11): set before the table post that tells the
-- seat it is awaited goes out, cleared once the DM went out (or the channel's note on
-- closed DMs took its place) or the seat is no longer awaited. A bot loading the game sends
-- what is owed; a DM waiting for Discord or for the player's quiet hours is not lost when
-- the bot stops.
ALTER TABLE seats ADD COLUMN turn_dm_owed boolean NOT NULL DEFAULT false;
