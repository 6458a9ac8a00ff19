-- The secret salt of a race (at least 16 random bytes): its view carries
-- SHA-256(code ":" salt) from creation on and the salt once the race is over,
-- so that players can check afterwards that the deal was fixed before play.
-- Races stored before get a salt of their own here (gen_random_uuid draws
-- from the server's strong random source; its 16 bytes serve as the salt).

-- +goose Up
ALTER TABLE games ADD COLUMN salt BYTEA;
UPDATE games SET salt = decode(replace(gen_random_uuid()::text, '-', ''), 'hex') WHERE kind = 'race';

-- +goose Down
ALTER TABLE games DROP COLUMN salt;
