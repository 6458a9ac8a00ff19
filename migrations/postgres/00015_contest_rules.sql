-- The rules of the contests. daily_entries.gap_ms is the median time in
-- milliseconds between two actions of an entry's game, stored with its win
-- (NULL: not won, or won before the pace rule): a win faster than a person
-- plays is kept but not ranked. race_ratings_pair finds the rated races of
-- two players, which count for rating only a few times a day.

-- +goose Up
ALTER TABLE daily_entries ADD COLUMN gap_ms integer;
CREATE INDEX race_ratings_pair ON race_ratings (seat1, seat2, at) WHERE rated;

-- +goose Down
DROP INDEX race_ratings_pair;
ALTER TABLE daily_entries DROP COLUMN gap_ms;
