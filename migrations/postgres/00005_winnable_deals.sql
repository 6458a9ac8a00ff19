-- The pool of winnable deals: solo deals of which the solver found a
-- winning line within budget positions (after positions), checked through
-- the solo engine. The server's background search adds to it; every node
-- deals from it. A game created from it is a solo game like any other.

-- +goose Up
CREATE TABLE winnable_deals (
    mode      text        NOT NULL,
    deal      bigint      NOT NULL,
    budget    bigint      NOT NULL,
    positions bigint      NOT NULL,
    found_at  timestamptz NOT NULL,
    PRIMARY KEY (mode, deal)
);

-- Which of some codes a player has played (store.PlayedCodes), so that a
-- winnable deal is not dealt to the same player twice.
CREATE INDEX games_seat1_code ON games (seat1, code);

-- +goose Down
DROP INDEX games_seat1_code;
DROP TABLE winnable_deals;
