-- Blocks between players: player_id blocked blocked_id. Two players of
-- whom either blocked the other are never paired by quick match, do not see
-- each other's races in the lobby and cannot join or rematch each other's
-- races. The index on blocked_id finds the players who blocked someone.

-- +goose Up
CREATE TABLE blocks (
    player_id  text        NOT NULL REFERENCES players (id),
    blocked_id text        NOT NULL REFERENCES players (id),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (player_id, blocked_id)
);

CREATE INDEX blocks_blocked ON blocks (blocked_id);

-- +goose Down
DROP TABLE blocks;
