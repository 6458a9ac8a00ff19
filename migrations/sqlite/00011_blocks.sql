-- Blocks between players (see the PostgreSQL migration of the same number).
-- Times INTEGER microseconds, as everywhere.

-- +goose Up
CREATE TABLE blocks (
    player_id  TEXT    NOT NULL REFERENCES players (id),
    blocked_id TEXT    NOT NULL REFERENCES players (id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, blocked_id)
) WITHOUT ROWID;

CREATE INDEX blocks_blocked ON blocks (blocked_id);

-- +goose Down
DROP TABLE blocks;
