-- The width of the beam that won a deal of the pool of winnable deals, 0
-- when the search was depth first (see the PostgreSQL migration of the same
-- number).

-- +goose Up
ALTER TABLE winnable_deals ADD COLUMN beam INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE winnable_deals DROP COLUMN beam;
