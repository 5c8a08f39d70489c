-- A player who resigned: the AI plays the seat out, and it ranks below everyone.
ALTER TABLE seats ADD COLUMN resigned INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1));
