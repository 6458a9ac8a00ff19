-- Player names checked against the naming rules, and the notice of a name
-- the server changed (see the PostgreSQL migration of the same number).
-- renamed_at is in microseconds since the Unix epoch, as every time here.

-- +goose Up
ALTER TABLE players ADD COLUMN name_rules TEXT;
ALTER TABLE players ADD COLUMN name_checked TEXT;
ALTER TABLE players ADD COLUMN renamed_from TEXT;
ALTER TABLE players ADD COLUMN renamed_at INTEGER;

-- +goose Down
ALTER TABLE players DROP COLUMN renamed_at;
ALTER TABLE players DROP COLUMN renamed_from;
ALTER TABLE players DROP COLUMN name_checked;
ALTER TABLE players DROP COLUMN name_rules;
