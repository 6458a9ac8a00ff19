-- Whether the live check ("still winnable?") was ever turned on for a game
-- (store.SetChecked): such a game's win counts as assisted. It is never
-- cleared: once asked, the check stays on for the game.

-- +goose Up
ALTER TABLE games ADD COLUMN checked INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE games DROP COLUMN checked;
