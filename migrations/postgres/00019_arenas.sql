-- Arenas: timed tournaments of races (package arena). An arena's standings
-- are never stored: they are derived from its races (arena_races, and the
-- races' results and first actions in games and actions), so that any node
-- that takes an arena over rebuilds them from the store. What is stored
-- besides the races (numbered in the order they were paired) is who joined and who is paused (not paired until they
-- come back). A release before this one reads none of these tables; the
-- foreign keys clean up after its deletion of a player or a game, so nodes
-- may be replaced one at a time.

-- +goose Up
CREATE TABLE arenas (
    id         text        NOT NULL PRIMARY KEY,
    creator    text        REFERENCES players (id) ON DELETE SET NULL,
    minutes    integer     NOT NULL,
    draw       integer     NOT NULL,
    single     boolean     NOT NULL,
    starts_at  timestamptz NOT NULL,
    ends_at    timestamptz NOT NULL,
    created_at timestamptz NOT NULL
);

-- The list of upcoming and running arenas; the arenas a player created lately.
CREATE INDEX arenas_ends ON arenas (ends_at);
CREATE INDEX arenas_creator ON arenas (creator, created_at);

CREATE TABLE arena_players (
    arena_id  text        NOT NULL REFERENCES arenas (id) ON DELETE CASCADE,
    player_id text        NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    joined_at timestamptz NOT NULL,
    paused    boolean     NOT NULL DEFAULT false,
    PRIMARY KEY (arena_id, player_id)
);

-- The arenas a player joined (a player's deletion cascades through it).
CREATE INDEX arena_players_player ON arena_players (player_id);

CREATE TABLE arena_races (
    arena_id text    NOT NULL REFERENCES arenas (id) ON DELETE CASCADE,
    n        integer NOT NULL,
    game_id  text    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    PRIMARY KEY (arena_id, n)
);

CREATE UNIQUE INDEX arena_races_game ON arena_races (game_id);

-- +goose Down
DROP TABLE arena_races;
DROP TABLE arena_players;
DROP TABLE arenas;
