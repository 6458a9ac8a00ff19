-- Accounts on several devices (PostgreSQL).
-- tokens: every bearer token of a player, by its SHA-256 (a player has one
-- per device it signed in on). The token each player had so far is copied
-- here. players.token_hash stays for the nodes of the release before, which
-- may run beside this one during a rolling upgrade: a player they create
-- gets its token here too (the trigger), a player created here keeps its
-- first token there too (so they can sign it in), and a revoked token is
-- cleared there as well. It is NULL for players with no such token; a later
-- release can drop it.
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
ALTER TABLE players ALTER COLUMN token_hash DROP NOT NULL;
-- +goose StatementBegin
CREATE FUNCTION players_token_to_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tokens (hash, player_id, created_at) VALUES (NEW.token_hash, NEW.id, NEW.created_at)
    ON CONFLICT (hash) DO NOTHING;
    RETURN NEW;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER players_token_to_tokens AFTER INSERT ON players
    FOR EACH ROW WHEN (NEW.token_hash IS NOT NULL) EXECUTE FUNCTION players_token_to_tokens();

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
DROP TRIGGER players_token_to_tokens ON players;
DROP FUNCTION players_token_to_tokens();
UPDATE players SET token_hash = coalesce(token_hash,
    (SELECT hash FROM tokens WHERE player_id = players.id ORDER BY created_at, hash LIMIT 1),
    convert_to(id, 'UTF8'));
ALTER TABLE players ALTER COLUMN token_hash SET NOT NULL;
DROP TABLE tokens;
