-- How the solver won a deal of the pool of winnable deals: with a beam of
-- this width (tally.Options.Beam), or depth first (0, every deal stored
-- before). Solving the deal again the same way, within its budget, wins it
-- again after the same number of positions.

-- +goose Up
ALTER TABLE winnable_deals ADD COLUMN beam integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE winnable_deals DROP COLUMN beam;
