-- PostgreSQL's side of 0004_results (0004_results.sqlite.sql is SQLite's), the results
-- table only. The SQLite migration also rewrites logged Keyflower cells ("q,r" -> "q_r") and fills the results of
-- games finished before the table existed; neither can apply here: no PostgreSQL database
-- predates this migration (PostgreSQL support came after it), and `meeple-hall migrate-db`
-- copies from a SQLite database that its own migrations have brought up to date.

-- One row per seat of every finished game, written in the same transaction as the game's
-- last move. Ratings and tournament standings read it.
CREATE TABLE results (
    table_id    bigint      NOT NULL REFERENCES tables (id),
    seat        integer     NOT NULL CHECK (seat >= 0),
    user_id     bigint,  -- NULL for a seat the AI played from the start
    score       integer     NOT NULL,
    rank        integer     NOT NULL CHECK (rank >= 1),
    resigned    boolean     NOT NULL DEFAULT false,
    finished_at timestamptz NOT NULL,
    breakdown   jsonb       NOT NULL DEFAULT '{}',  -- object: category -> points
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX results_by_time ON results (finished_at, table_id);
CREATE INDEX results_by_user ON results (user_id, finished_at) WHERE user_id IS NOT NULL;
