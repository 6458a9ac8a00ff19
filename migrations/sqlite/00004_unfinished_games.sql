-- The games that may be abandoned (solo games in play, races waiting for a
-- second player) by their last header change, for the retention sweep
-- (store.DeleteAbandoned): it finds its candidates without reading the whole
-- games table. The predicate is the sweep's, word for word.

-- +goose Up
CREATE INDEX games_unfinished ON games (updated_at, id)
    WHERE (kind = 'solo' AND status = 'playing') OR (kind = 'race' AND status = 'waiting');

-- +goose Down
DROP INDEX games_unfinished;
