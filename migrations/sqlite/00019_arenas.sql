-- Arenas: timed tournaments of races (see the PostgreSQL migration of the
-- same number). Times are in microseconds since the Unix epoch, as every
-- time here; booleans are 0 or 1.

-- +goose Up
CREATE TABLE arenas (
    id         TEXT    NOT NULL PRIMARY KEY,
    creator    TEXT    REFERENCES players (id) ON DELETE SET NULL,
    minutes    INTEGER NOT NULL,
    draw       INTEGER NOT NULL,
    single     INTEGER NOT NULL,
    starts_at  INTEGER NOT NULL,
    ends_at    INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE INDEX arenas_ends ON arenas (ends_at);
CREATE INDEX arenas_creator ON arenas (creator, created_at);

CREATE TABLE arena_players (
    arena_id  TEXT    NOT NULL REFERENCES arenas (id) ON DELETE CASCADE,
    player_id TEXT    NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    joined_at INTEGER NOT NULL,
    paused    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (arena_id, player_id)
);

-- The arenas a player joined (a player's deletion cascades through it).
CREATE INDEX arena_players_player ON arena_players (player_id);

CREATE TABLE arena_races (
    arena_id TEXT    NOT NULL REFERENCES arenas (id) ON DELETE CASCADE,
    n        INTEGER NOT NULL,
    game_id  TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    PRIMARY KEY (arena_id, n)
);

CREATE UNIQUE INDEX arena_races_game ON arena_races (game_id);

-- +goose Down
DROP TABLE arena_races;
DROP TABLE arena_players;
DROP TABLE arenas;
