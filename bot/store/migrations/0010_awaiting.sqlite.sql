-- The seats a game in play awaits after its last logged move (issue 16), written with each
-- move: a bot starting wakes the AI seats among them, and lists whose turn it is, without
-- replaying the game. JSON array of seat positions; NULL where not known (a game logged by
-- an older version), and such a game is replayed at start as before.
ALTER TABLE tables ADD COLUMN awaiting TEXT;
