-- Lobbies and the games played in them. A game is its setup (game, seed, options, seats)
-- plus the append-only action log; snapshots are a cache of replayed states.
-- Datetimes are ISO 8601 text in UTC ("2026-11-21T18:41:53.123456+00:00").

CREATE TABLE tables (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',  -- JSON object of str -> str
    seed             TEXT    NOT NULL,  -- decimal text: seeds use the full 64 bits
    status           TEXT    NOT NULL
        CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    result           TEXT,  -- JSON, once the game is over
    created_at       TEXT    NOT NULL,
    started_at       TEXT,
    ended_at         TEXT
);

-- One lobby or game per channel (a thread is a channel).
CREATE UNIQUE INDEX tables_one_open_per_channel
    ON tables (channel_id) WHERE status IN ('lobby', 'active');

CREATE INDEX tables_open ON tables (status) WHERE status IN ('lobby', 'active');

CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    position INTEGER NOT NULL CHECK (position >= 0),
    user_id  INTEGER,  -- NULL for an AI seat
    name     TEXT    NOT NULL,
    ai       INTEGER NOT NULL DEFAULT 0 CHECK (ai IN (0, 1)),
    PRIMARY KEY (table_id, position)
) WITHOUT ROWID;

CREATE INDEX seats_by_user ON seats (user_id, table_id) WHERE user_id IS NOT NULL;

CREATE TABLE actions (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    seat     INTEGER NOT NULL,
    choices  TEXT    NOT NULL,  -- JSON array of option ids
    user_id  INTEGER,  -- who clicked; NULL for an AI seat
    at       TEXT    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

-- The log has no gaps, and what is written stays written.
CREATE TRIGGER actions_in_sequence BEFORE INSERT ON actions
WHEN NEW.seq <> 1 + coalesce((SELECT max(seq) FROM actions WHERE table_id = NEW.table_id), 0)
BEGIN
    SELECT raise(ABORT, 'actions must be appended in sequence');
END;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT raise(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT raise(ABORT, 'the action log is append-only');
END;

-- The latest replayed state of each table, after action `seq` (a cache: the log is the truth).
CREATE TABLE snapshots (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id),
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    state    TEXT    NOT NULL
);

CREATE TABLE user_prefs (
    user_id    INTEGER PRIMARY KEY,
    turn_dms   INTEGER NOT NULL DEFAULT 1 CHECK (turn_dms IN (0, 1)),
    dms_closed INTEGER NOT NULL DEFAULT 0 CHECK (dms_closed IN (0, 1))
);
