-- The daily challenges (see the PostgreSQL migration of the same number).
-- Times INTEGER microseconds, as everywhere.

-- +goose Up
CREATE TABLE daily_challenges (
    day        TEXT    NOT NULL,
    mode       TEXT    NOT NULL,
    code       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (day, mode)
) WITHOUT ROWID;

CREATE TABLE daily_entries (
    day        TEXT    NOT NULL,
    mode       TEXT    NOT NULL,
    player_id  TEXT    NOT NULL REFERENCES players (id),
    game_id    TEXT    NOT NULL UNIQUE REFERENCES games (id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (day, mode, player_id),
    FOREIGN KEY (day, mode) REFERENCES daily_challenges (day, mode)
) WITHOUT ROWID;

CREATE INDEX daily_entries_player ON daily_entries (player_id, day);

-- +goose Down
DROP INDEX daily_entries_player;
DROP TABLE daily_entries;
DROP TABLE daily_challenges;
