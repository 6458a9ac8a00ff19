-- The newest snapshot of each game's live table (see the PostgreSQL
-- migration of the same number). created_at is in microseconds since the
-- Unix epoch, as every time here.

-- +goose Up
CREATE TABLE snapshots (
    game_id    TEXT    NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    state      BLOB    NOT NULL,
    created_at INTEGER NOT NULL
);

-- +goose Down
DROP TABLE snapshots;
