-- The daily challenges. daily_challenges holds the deal of each UTC day
-- and mode, the same for every player, made by the first request that
-- needs it (nodes racing to make it keep the first one stored: insert or
-- keep). daily_entries holds each player's one game of a challenge: its
-- key is what keeps a player from a second try; the leaderboard reads a
-- challenge's entries by that key. daily_entries_player finds a player's
-- entries (the daily streak).

-- +goose Up
CREATE TABLE daily_challenges (
    day        text        NOT NULL,
    mode       text        NOT NULL,
    code       text        NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (day, mode)
);

CREATE TABLE daily_entries (
    day        text        NOT NULL,
    mode       text        NOT NULL,
    player_id  text        NOT NULL REFERENCES players (id),
    game_id    text        NOT NULL UNIQUE REFERENCES games (id),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (day, mode, player_id),
    FOREIGN KEY (day, mode) REFERENCES daily_challenges (day, mode)
);

CREATE INDEX daily_entries_player ON daily_entries (player_id, day);

-- +goose Down
DROP INDEX daily_entries_player;
DROP TABLE daily_entries;
DROP TABLE daily_challenges;
