-- How many hints each game has been given (store.AddHint): shown in the
-- solo view; a hint is not an action, so it is not in the log.

-- +goose Up
ALTER TABLE games ADD COLUMN hints integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE games DROP COLUMN hints;
