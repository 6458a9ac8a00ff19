-- Player names checked against the naming rules of each release, and the
-- notice of a name the server changed.
--
-- name_rules and name_checked: the fingerprint of the rules a name was
-- found good under, and that name. A name is checked again when either
-- differs (new rules, or a name changed since: by any release, which
-- writes neither column). renamed_from and renamed_at: the name the server
-- took away and when, until the player has seen the notice.
--
-- Every column is nullable and nothing reads them but this release: a node
-- of the release before keeps inserting, reading and renaming players as
-- it did.

-- +goose Up
ALTER TABLE players ADD COLUMN name_rules text;
ALTER TABLE players ADD COLUMN name_checked text;
ALTER TABLE players ADD COLUMN renamed_from text;
ALTER TABLE players ADD COLUMN renamed_at timestamptz;

-- +goose Down
ALTER TABLE players DROP COLUMN renamed_at;
ALTER TABLE players DROP COLUMN renamed_from;
ALTER TABLE players DROP COLUMN name_checked;
ALTER TABLE players DROP COLUMN name_rules;
