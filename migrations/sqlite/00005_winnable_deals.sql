-- The pool of winnable deals (see the PostgreSQL migration of the same
-- number): solo deals of which the solver found a winning line.

-- +goose Up
CREATE TABLE winnable_deals (
    mode      TEXT    NOT NULL,
    deal      INTEGER NOT NULL,
    budget    INTEGER NOT NULL,
    positions INTEGER NOT NULL,
    found_at  INTEGER NOT NULL,
    PRIMARY KEY (mode, deal)
) WITHOUT ROWID;

-- Which of some codes a player has played (store.PlayedCodes), so that a
-- winnable deal is not dealt to the same player twice.
CREATE INDEX games_seat1_code ON games (seat1, code);

-- +goose Down
DROP INDEX games_seat1_code;
DROP TABLE winnable_deals;
