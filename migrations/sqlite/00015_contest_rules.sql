-- The rules of the contests (see the PostgreSQL migration of the same
-- number).

-- +goose Up
ALTER TABLE daily_entries ADD COLUMN gap_ms INTEGER;
CREATE INDEX race_ratings_pair ON race_ratings (seat1, seat2, at) WHERE rated;

-- +goose Down
DROP INDEX race_ratings_pair;
ALTER TABLE daily_entries DROP COLUMN gap_ms;
