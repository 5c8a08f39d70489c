-- A round-robin's schedule, fixed when the tournament starts (issue 22): the tables of
-- every round, as JSON (a list of rounds, each a list of tables in seat order, each a list
-- of user ids). A restart reads it and never works it out again, so a player who leaves
-- does not change who meets whom. NULL for other formats, and for a round-robin started
-- before this migration until its first load works out its schedule and stores it.
ALTER TABLE tournaments ADD COLUMN schedule TEXT;
