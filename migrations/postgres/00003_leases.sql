-- Ownership of live games across nodes: a node runs a game's table (engine,
-- bot, clocks) only while it holds the game's lease, renewed every second or
-- so with a short expiry, so that a dead node's games pass to another node
-- within seconds. wanted_by names a node that was asked for the game while
-- another held it: the holder hands it over at its next renewal.

-- +goose Up
CREATE TABLE leases (
    game_id    text        NOT NULL PRIMARY KEY,
    node       text        NOT NULL,
    addr       text        NOT NULL,
    expires_at timestamptz NOT NULL,
    wanted_by  text
);
CREATE INDEX leases_node ON leases (node);

-- +goose Down
DROP TABLE leases;
