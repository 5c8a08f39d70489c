-- PostgreSQL's side of 0016_tournament_events (0016_tournament_events.sqlite.sql is SQLite's).
-- What organisers run events with (issue 28).
-- The tournament's options: `checkin_minutes` (a check-in window before round 1; NULL: none)
-- and `checkin_until` (when the open window closes; NULL: not open), `deadline_days` (how
-- long a round may last; NULL: no deadline), `seeding` ('random' or 'rating': round 1 by the
-- server's ratings), `points` (points per place as a JSON list; NULL: the default table) and
-- `final_size` (after the Swiss rounds, the best N play one final table; NULL: no final).
ALTER TABLE tournaments ADD COLUMN checkin_minutes integer;
ALTER TABLE tournaments ADD COLUMN checkin_until timestamptz;
ALTER TABLE tournaments ADD COLUMN deadline_days integer;
ALTER TABLE tournaments ADD COLUMN seeding text NOT NULL DEFAULT 'random'
    CHECK (seeding IN ('random', 'rating'));
ALTER TABLE tournaments ADD COLUMN points jsonb;
ALTER TABLE tournaments ADD COLUMN final_size integer;

-- A player who confirmed during the check-in window.
ALTER TABLE tournament_players ADD COLUMN checked_in boolean NOT NULL DEFAULT false;

-- A round's deadline (NULL: none), and whether it is the final table of the best.
ALTER TABLE tournament_rounds ADD COLUMN deadline timestamptz;
ALTER TABLE tournament_rounds ADD COLUMN final boolean NOT NULL DEFAULT false;

-- A table's result set by the organiser (`/tournament result`): the ranks by seat (a
-- forfeited seat ranks last), why, who, when. The game itself is finished with these ranks,
-- so ratings count it; this row keeps the decision in the history.
CREATE TABLE tournament_results (
    tournament_id bigint      NOT NULL REFERENCES tournaments (id),
    table_id      bigint      NOT NULL PRIMARY KEY REFERENCES tables (id),
    ranks         jsonb       NOT NULL,
    forfeits      jsonb       NOT NULL DEFAULT '[]',
    reason        text        NOT NULL,
    decided_by    bigint      NOT NULL,
    decided_at    timestamptz NOT NULL
);
