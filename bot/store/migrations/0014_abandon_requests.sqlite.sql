-- Requests to abandon a game in play (issue 22): `/abandon` asks every player still seated,
-- and the game ends (unrated) only once all of them agreed. A request stays open until then,
-- until someone refuses, until it lapses at `expires_at` (24 hours after it was made), or
-- until the game ends otherwise; a table has at most one open request. `agreed` is a JSON
-- array of the user ids who agreed, in the order they did. Datetimes are ISO 8601 text in
-- UTC, as everywhere else.
CREATE TABLE abandon_requests (
    id           INTEGER PRIMARY KEY,
    table_id     INTEGER NOT NULL REFERENCES tables (id),
    requested_by INTEGER NOT NULL,
    created_at   TEXT    NOT NULL,
    expires_at   TEXT    NOT NULL,
    message_id   INTEGER,
    status       TEXT    NOT NULL DEFAULT 'open'
        CHECK (status IN ('open', 'agreed', 'refused', 'lapsed', 'closed')),
    agreed       TEXT    NOT NULL DEFAULT '[]'
);

CREATE UNIQUE INDEX abandon_requests_one_open ON abandon_requests (table_id)
    WHERE status = 'open';
