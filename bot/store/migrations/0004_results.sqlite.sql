-- 1. Option ids follow one grammar (games/core OPTION_ID), which has no commas: Keyflower's
-- free cells changed from "q,r" to "q_r". Logged Keyflower moves are rewritten to match, so
-- every stored game keeps replaying; this is the one time the log is edited, so the
-- append-only trigger is lifted for the statement and put back. Inside a JSON array of ids
-- a comma outside the quotes separates ids ('","'); every other comma is inside a cell id.
DROP TRIGGER actions_no_update;

UPDATE actions
SET choices = replace(replace(replace(choices, '","', char(31)), ',', '_'), char(31), '","')
WHERE table_id IN (SELECT id FROM tables WHERE game = 'keyflower')
  AND instr(replace(choices, '","', ''), ',') > 0;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT raise(ABORT, 'the action log is append-only');
END;

-- A Keyflower state saved while a cell was being chosen holds the old id: snapshots are a
-- cache, so those games are replayed from their logs instead.
DELETE FROM snapshots WHERE table_id IN (SELECT id FROM tables WHERE game = 'keyflower');

-- 2. The results table: one row per seat of every finished game, written in the same
-- transaction as the game's last move. Ratings and tournament standings read it.
CREATE TABLE results (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     INTEGER,  -- NULL for a seat the AI played from the start
    score       INTEGER NOT NULL,
    rank        INTEGER NOT NULL CHECK (rank >= 1),
    resigned    INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1)),
    finished_at TEXT    NOT NULL,
    breakdown   TEXT    NOT NULL DEFAULT '{}',  -- JSON object: category -> points
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

CREATE INDEX results_by_time ON results (finished_at, table_id);
CREATE INDEX results_by_user ON results (user_id, finished_at) WHERE user_id IS NOT NULL;

-- Games that finished before this table existed: their rows from the stored result. A
-- result without ranks ranks by score (ties share a place).
INSERT INTO results (table_id, seat, user_id, score, rank, resigned, finished_at, breakdown)
SELECT
    t.id,
    s.position,
    s.user_id,
    json_extract(t.result, '$.scores[' || s.position || ']'),
    coalesce(
        json_extract(t.result, '$.ranks[' || s.position || ']'),
        1 + (
            SELECT count(*) FROM json_each(t.result, '$.scores') AS other
            WHERE other.value > json_extract(t.result, '$.scores[' || s.position || ']')
        )
    ),
    s.resigned,
    coalesce(t.ended_at, t.started_at, t.created_at),
    coalesce(json_extract(t.result, '$.breakdown[' || s.position || ']'), '{}')
FROM tables AS t
JOIN seats AS s ON s.table_id = t.id
WHERE t.status = 'finished'
  AND json_extract(t.result, '$.scores[' || s.position || ']') IS NOT NULL;
