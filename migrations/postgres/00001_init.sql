-- Players, game headers and the append-only action log (PostgreSQL).
-- Plain types and no extensions, so the same SQL runs on CockroachDB.
-- JSON is kept as text so that it reads back byte for byte as written.

-- +goose Up
CREATE TABLE players (
    id         text        NOT NULL PRIMARY KEY,
    name       text        NOT NULL,
    token_hash bytea       NOT NULL UNIQUE,
    created_at timestamptz NOT NULL
);

CREATE TABLE games (
    id          text        NOT NULL PRIMARY KEY,
    kind        text        NOT NULL,
    code        text        NOT NULL,
    options     text,
    status      text        NOT NULL,
    seat1       text        NOT NULL REFERENCES players (id),
    seat2       text        REFERENCES players (id),
    public      boolean     NOT NULL DEFAULT false,
    invite_hash bytea,
    series_id   text,
    series_game integer     NOT NULL DEFAULT 0,
    result      text,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);

-- The games of a player by status, newest first (a player holds seat 1 or seat 2).
CREATE INDEX games_seat1_status ON games (seat1, status, created_at DESC);
CREATE INDEX games_seat2_status ON games (seat2, status, created_at DESC) WHERE seat2 IS NOT NULL;

-- The lobby: public races waiting for a second player, oldest first.
CREATE INDEX games_open_races ON games (created_at, id)
    WHERE kind = 'race' AND public AND status = 'waiting' AND seat2 IS NULL;

CREATE TABLE actions (
    game_id   text        NOT NULL REFERENCES games (id),
    seq       bigint      NOT NULL,
    seat      integer     NOT NULL,
    action    text        NOT NULL,
    client_id text,
    at        timestamptz NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- A client action id applies once per game and seat.
CREATE UNIQUE INDEX actions_client_id ON actions (game_id, seat, client_id)
    WHERE client_id IS NOT NULL AND client_id <> '';

-- +goose Down
DROP TABLE actions;
DROP TABLE games;
DROP TABLE players;
