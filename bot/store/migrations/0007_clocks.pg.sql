-- PostgreSQL's side of 0007_clocks (0007_clocks.sqlite.sql is SQLite's).
-- Waiting on players (issue 11): each seat's clock and reminders, time away, quiet hours.

-- One row per seat of an active game whose table has a clock or reminders. `since` is set
-- while the seat is awaited (the wait ends when the seat has nothing left to decide), and
-- `deadline` is the end of that wait's time, away periods added (NULL without a clock).
-- `reserve` is the seat's extra time for the whole game, in seconds; it is spent past the
-- deadline and before the timeout acts.
CREATE TABLE seat_clocks (
    table_id    bigint           NOT NULL REFERENCES tables (id),
    seat        integer          NOT NULL CHECK (seat >= 0),
    user_id     bigint,
    reserve     double precision NOT NULL DEFAULT 0 CHECK (reserve >= 0),
    timeouts    integer          NOT NULL DEFAULT 0 CHECK (timeouts >= 0),  -- waits in a row that ran out
    since       timestamptz,
    deadline    timestamptz,
    next_remind timestamptz,
    reminders   integer          NOT NULL DEFAULT 0 CHECK (reminders >= 0),  -- in this wait
    snoozed     boolean          NOT NULL DEFAULT false,
    timed_out   boolean          NOT NULL DEFAULT false,  -- this wait ran out
    stalled     boolean          NOT NULL DEFAULT false,  -- the channel was told
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX seat_clocks_by_user ON seat_clocks (user_id) WHERE user_id IS NOT NULL;

-- A player's time away (one period at a time): their clocks pause until `until`.
CREATE TABLE away (
    user_id bigint      PRIMARY KEY,
    since   timestamptz NOT NULL,
    until   timestamptz NOT NULL
);

-- Days of time away taken per calendar year (the allowance is checked against it).
CREATE TABLE away_days (
    user_id bigint  NOT NULL,
    year    integer NOT NULL,
    days    integer NOT NULL CHECK (days >= 0),
    PRIMARY KEY (user_id, year)
);

-- Quiet hours: minutes after local midnight, and the user's offset from UTC in minutes.
ALTER TABLE user_prefs ADD COLUMN quiet_start integer;
ALTER TABLE user_prefs ADD COLUMN quiet_end integer;
ALTER TABLE user_prefs ADD COLUMN utc_offset integer NOT NULL DEFAULT 0;
