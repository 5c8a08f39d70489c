-- Waiting on players (issue 11): each seat's clock and reminders, time away, quiet hours.
-- Datetimes are ISO 8601 text in UTC, as everywhere else.

-- One row per seat of an active game whose table has a clock or reminders. `since` is set
-- while the seat is awaited (the wait ends when the seat has nothing left to decide), and
-- `deadline` is the end of that wait's time, away periods added (NULL without a clock).
-- `reserve` is the seat's extra time for the whole game, in seconds; it is spent past the
-- deadline and before the timeout acts.
CREATE TABLE seat_clocks (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     INTEGER,
    reserve     REAL    NOT NULL DEFAULT 0 CHECK (reserve >= 0),
    timeouts    INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),  -- waits in a row that ran out
    since       TEXT,
    deadline    TEXT,
    next_remind TEXT,
    reminders   INTEGER NOT NULL DEFAULT 0 CHECK (reminders >= 0),  -- in this wait
    snoozed     INTEGER NOT NULL DEFAULT 0 CHECK (snoozed IN (0, 1)),
    timed_out   INTEGER NOT NULL DEFAULT 0 CHECK (timed_out IN (0, 1)),  -- this wait ran out
    stalled     INTEGER NOT NULL DEFAULT 0 CHECK (stalled IN (0, 1)),  -- the channel was told
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

CREATE INDEX seat_clocks_by_user ON seat_clocks (user_id) WHERE user_id IS NOT NULL;

-- A player's time away (one period at a time): their clocks pause until `until`.
CREATE TABLE away (
    user_id INTEGER PRIMARY KEY,
    since   TEXT    NOT NULL,
    until   TEXT    NOT NULL
);

-- Days of time away taken per calendar year (the allowance is checked against it).
CREATE TABLE away_days (
    user_id INTEGER NOT NULL,
    year    INTEGER NOT NULL,
    days    INTEGER NOT NULL CHECK (days >= 0),
    PRIMARY KEY (user_id, year)
) WITHOUT ROWID;

-- Quiet hours: minutes after local midnight, and the user's offset from UTC in minutes.
ALTER TABLE user_prefs ADD COLUMN quiet_start INTEGER;
ALTER TABLE user_prefs ADD COLUMN quiet_end INTEGER;
ALTER TABLE user_prefs ADD COLUMN utc_offset INTEGER NOT NULL DEFAULT 0;
