-- The secret salt of a race (at least 16 random bytes): its view carries
-- SHA-256(code ":" salt) from creation on and the salt once the race is over,
-- so that players can check afterwards that the deal was fixed before play.
-- Races stored before get a salt of their own here.

-- +goose Up
ALTER TABLE games ADD COLUMN salt BLOB;
UPDATE games SET salt = randomblob(16) WHERE kind = 'race';

-- +goose Down
ALTER TABLE games DROP COLUMN salt;
