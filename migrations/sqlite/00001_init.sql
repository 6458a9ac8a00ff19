-- Players, game headers and the append-only action log (SQLite).
-- Times are INTEGER microseconds since the Unix epoch (UTC); JSON is TEXT.

-- +goose Up
CREATE TABLE players (
    id         TEXT    NOT NULL PRIMARY KEY,
    name       TEXT    NOT NULL,
    token_hash BLOB    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);

CREATE TABLE games (
    id          TEXT    NOT NULL PRIMARY KEY,
    kind        TEXT    NOT NULL,
    code        TEXT    NOT NULL,
    options     TEXT,
    status      TEXT    NOT NULL,
    seat1       TEXT    NOT NULL REFERENCES players (id),
    seat2       TEXT    REFERENCES players (id),
    public      INTEGER NOT NULL DEFAULT 0,
    invite_hash BLOB,
    series_id   TEXT,
    series_game INTEGER NOT NULL DEFAULT 0,
    result      TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

-- The games of a player by status, newest first (a player holds seat 1 or seat 2).
CREATE INDEX games_seat1_status ON games (seat1, status, created_at DESC);
CREATE INDEX games_seat2_status ON games (seat2, status, created_at DESC) WHERE seat2 IS NOT NULL;

-- The lobby: public races waiting for a second player, oldest first.
CREATE INDEX games_open_races ON games (created_at, id)
    WHERE kind = 'race' AND public = 1 AND status = 'waiting' AND seat2 IS NULL;

CREATE TABLE actions (
    game_id   TEXT    NOT NULL REFERENCES games (id),
    seq       INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    action    TEXT    NOT NULL,
    client_id TEXT,
    at        INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- A client action id applies once per game and seat.
CREATE UNIQUE INDEX actions_client_id ON actions (game_id, seat, client_id)
    WHERE client_id IS NOT NULL AND client_id <> '';

-- +goose Down
DROP TABLE actions;
DROP TABLE games;
DROP TABLE players;
