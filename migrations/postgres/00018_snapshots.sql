-- The newest snapshot of each game's live table: the engine's state after
-- the game's first seq actions, so that a table comes back from the store
-- by reading it and the actions after it instead of the whole log. It is
-- derived from the log and never its truth: a table that cannot read it
-- replays the log. One row a game, deleted with the game. A release before
-- this one neither reads nor writes it, and the snapshots it leaves behind
-- stay true (the log only grows), so nodes may be replaced one at a time.

-- +goose Up
CREATE TABLE snapshots (
    game_id    text        NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq        bigint      NOT NULL,
    state      bytea       NOT NULL,
    created_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE snapshots;
