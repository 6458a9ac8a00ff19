-- Ownership of live games across nodes (see the PostgreSQL migration of the
-- same number). SQLite serves one node, which owns every game, so nothing
-- reads this table; it is here so that both dialects have the same schema.

-- +goose Up
CREATE TABLE leases (
    game_id    TEXT    NOT NULL PRIMARY KEY,
    node       TEXT    NOT NULL,
    addr       TEXT    NOT NULL,
    expires_at INTEGER NOT NULL,
    wanted_by  TEXT
);

-- +goose Down
DROP TABLE leases;
