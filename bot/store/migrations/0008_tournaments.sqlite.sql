-- Tournaments (issue 12). Ratings need no table: they are a projection of `results`.

-- One tournament: its settings as the organiser chose them, its status and current round.
CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,  -- the threads of its tables open under this channel
    organiser_id INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    format       TEXT    NOT NULL CHECK (format IN ('swiss', 'round-robin', 'elimination')),
    rounds       INTEGER,  -- swiss: the number of rounds; else worked out at the start
    table_size   INTEGER NOT NULL CHECK (table_size >= 2),
    clock        TEXT    NOT NULL,
    options      TEXT    NOT NULL DEFAULT '{}',  -- the game's options (JSON)
    settings     TEXT    NOT NULL DEFAULT '{}',  -- table settings besides the clock (JSON)
    bye_points   REAL,  -- NULL: a bye scores the average of the round's points
    advance      INTEGER,  -- elimination: NULL = 1 at tables of 2-4, 2 at 5-6
    status       TEXT    NOT NULL DEFAULT 'signup'
                 CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round        INTEGER NOT NULL DEFAULT 0,  -- the round being played (0: not started)
    message_id   INTEGER,  -- the sign-up message
    created_at   TEXT    NOT NULL
);

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

-- Players in sign-up order. `status`: playing, dropped (left by /tournament drop), removed
-- (by the organiser) or out (eliminated); `left_round` is the round they left in.
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    position      INTEGER NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'playing'
                  CHECK (status IN ('playing', 'dropped', 'removed', 'out')),
    left_round    INTEGER,
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

-- A round: its byes, and whether it is being opened, played or done.
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    byes          TEXT    NOT NULL DEFAULT '[]',  -- JSON list of user ids
    status        TEXT    NOT NULL DEFAULT 'opening'
                  CHECK (status IN ('opening', 'playing', 'done')),
    PRIMARY KEY (tournament_id, round)
) WITHOUT ROWID;

-- A table of a round, recorded before its thread is opened (the intent), then its thread
-- and game as they are made, so opening a round again after a restart finishes what was
-- started and makes nothing twice. `state`: planned, thread, table, started, announced,
-- done, void (replaced by a re-pairing).
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    number        INTEGER NOT NULL CHECK (number >= 1),
    seats         TEXT    NOT NULL,  -- JSON list of user ids in seat order
    thread_id     INTEGER,
    table_id      INTEGER UNIQUE REFERENCES tables (id),
    state         TEXT    NOT NULL DEFAULT 'planned'
                  CHECK (state IN ('planned', 'thread', 'table', 'started', 'announced', 'done',
                                   'void')),
    PRIMARY KEY (tournament_id, round, number),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round)
) WITHOUT ROWID;
