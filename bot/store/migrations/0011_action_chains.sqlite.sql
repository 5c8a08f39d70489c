-- Moves made in one submission (a panel's folded line: several consecutive moves of one
-- seat, issue 14): each move after the first is marked `chained` to the move before it, so
-- one Undo takes the whole click back. 0 for a move made on its own, and for every move
-- logged before this migration (those chains are taken back one move a click).
ALTER TABLE actions ADD COLUMN chained INTEGER NOT NULL DEFAULT 0 CHECK (chained IN (0, 1));
