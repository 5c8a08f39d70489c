-- What organisers run events with (issue 28). Datetimes are ISO 8601 text in UTC, JSON is
-- text, as everywhere else.
-- The tournament's options: `checkin_minutes` (a check-in window before round 1; NULL: none)
-- and `checkin_until` (when the open window closes; NULL: not open), `deadline_days` (how
-- long a round may last; NULL: no deadline), `seeding` ('random' or 'rating': round 1 by the
-- server's ratings), `points` (points per place as a JSON list; NULL: the default table) and
-- `final_size` (after the Swiss rounds, the best N play one final table; NULL: no final).
ALTER TABLE tournaments ADD COLUMN checkin_minutes INTEGER;
ALTER TABLE tournaments ADD COLUMN checkin_until TEXT;
ALTER TABLE tournaments ADD COLUMN deadline_days INTEGER;
ALTER TABLE tournaments ADD COLUMN seeding TEXT NOT NULL DEFAULT 'random'
    CHECK (seeding IN ('random', 'rating'));
ALTER TABLE tournaments ADD COLUMN points TEXT;
ALTER TABLE tournaments ADD COLUMN final_size INTEGER;

-- A player who confirmed during the check-in window.
ALTER TABLE tournament_players ADD COLUMN checked_in INTEGER NOT NULL DEFAULT 0;

-- A round's deadline (NULL: none), and whether it is the final table of the best.
ALTER TABLE tournament_rounds ADD COLUMN deadline TEXT;
ALTER TABLE tournament_rounds ADD COLUMN final INTEGER NOT NULL DEFAULT 0;

-- A table's result set by the organiser (`/tournament result`): the ranks by seat (a
-- forfeited seat ranks last), why, who, when. The game itself is finished with these ranks,
-- so ratings count it; this row keeps the decision in the history.
CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    table_id      INTEGER NOT NULL PRIMARY KEY REFERENCES tables (id),
    ranks         TEXT    NOT NULL,
    forfeits      TEXT    NOT NULL DEFAULT '[]',
    reason        TEXT    NOT NULL,
    decided_by    INTEGER NOT NULL,
    decided_at    TEXT    NOT NULL
);
