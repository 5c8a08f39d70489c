-- How a round's passed deadline settles its unfinished tables (issue 28): 'ai' (the AI plays
-- out the remaining moves at once for absent players; every tournament stored before this
-- keeps it) or 'organiser' (nothing goes to the AI: the organiser is pinged and sets each
-- unfinished table's result with `/tournament result`). The same SQL on both backends.
ALTER TABLE tournaments ADD COLUMN at_deadline TEXT NOT NULL DEFAULT 'ai'
    CHECK (at_deadline IN ('ai', 'organiser'));
