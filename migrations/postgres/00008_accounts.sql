-- Accounts on several devices (PostgreSQL).
-- tokens: every bearer token of a player, by its SHA-256 (a player has one
-- per device it signed in on). The token each player had so far moves here,
-- and players.token_hash goes.
-- link_codes: the one-time transfer code of a player, by its SHA-256 (never
-- the code), with its expiry and when it was used; one row a player.
-- The player row 'deleted' stands in the seats of the races of players who
-- deleted their data, so that their opponents' races stay whole. Nobody can
-- sign in as it: it has no token.

-- +goose Up
CREATE TABLE tokens (
    hash       bytea       NOT NULL PRIMARY KEY,
    player_id  text        NOT NULL REFERENCES players (id),
    created_at timestamptz NOT NULL
);
CREATE INDEX tokens_player ON tokens (player_id);
INSERT INTO tokens (hash, player_id, created_at) SELECT token_hash, id, created_at FROM players;
ALTER TABLE players DROP COLUMN token_hash;

CREATE TABLE link_codes (
    player_id  text        NOT NULL PRIMARY KEY REFERENCES players (id),
    hash       bytea       NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    created_at timestamptz NOT NULL
);

INSERT INTO players (id, name, created_at) VALUES ('deleted', 'Deleted player', 'epoch');

-- +goose Down
DELETE FROM players WHERE id = 'deleted'
    AND NOT EXISTS (SELECT 1 FROM games WHERE seat1 = 'deleted' OR seat2 = 'deleted');
DROP TABLE link_codes;
ALTER TABLE players ADD COLUMN token_hash bytea;
UPDATE players SET token_hash = coalesce(
    (SELECT hash FROM tokens WHERE player_id = players.id ORDER BY created_at, hash LIMIT 1),
    convert_to(id, 'UTF8'));
ALTER TABLE players ALTER COLUMN token_hash SET NOT NULL;
ALTER TABLE players ADD CONSTRAINT players_token_hash_key UNIQUE (token_hash);
DROP TABLE tokens;
