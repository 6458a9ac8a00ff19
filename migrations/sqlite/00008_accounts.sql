-- Accounts on several devices (SQLite).
-- tokens: every bearer token of a player, by its SHA-256 (a player has one
-- per device it signed in on). The token each player had so far moves here.
-- players.token_hash is no longer read: SQLite cannot drop a UNIQUE column,
-- so it holds the player's id instead (unique and not secret).
-- link_codes: the one-time transfer code of a player, by its SHA-256 (never
-- the code), with its expiry and when it was used; one row a player.
-- The player row 'deleted' stands in the seats of the races of players who
-- deleted their data, so that their opponents' races stay whole. Nobody can
-- sign in as it: it has no token.

-- +goose Up
CREATE TABLE tokens (
    hash       BLOB    NOT NULL PRIMARY KEY,
    player_id  TEXT    NOT NULL REFERENCES players (id),
    created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX tokens_player ON tokens (player_id);
INSERT INTO tokens (hash, player_id, created_at) SELECT token_hash, id, created_at FROM players;
UPDATE players SET token_hash = CAST(id AS BLOB);

CREATE TABLE link_codes (
    player_id  TEXT    NOT NULL PRIMARY KEY REFERENCES players (id),
    hash       BLOB    NOT NULL UNIQUE,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER,
    created_at INTEGER NOT NULL
);

INSERT INTO players (id, name, token_hash, created_at) VALUES ('deleted', 'Deleted player', CAST('deleted' AS BLOB), 0);

-- +goose Down
DELETE FROM players WHERE id = 'deleted'
    AND NOT EXISTS (SELECT 1 FROM games WHERE seat1 = 'deleted' OR seat2 = 'deleted');
DROP TABLE link_codes;
UPDATE players SET token_hash = coalesce(
    (SELECT hash FROM tokens WHERE player_id = players.id ORDER BY created_at, hash LIMIT 1),
    CAST(id AS BLOB));
DROP TABLE tokens;
