-- PostgreSQL twin of migrations/0005_ai_level.sql.
-- The level of an AI seat (random, good or strong: games/ai); NULL for a human's seat and
-- for AI seats made before levels existed, which play as the default level.
ALTER TABLE seats ADD COLUMN ai_level text;
