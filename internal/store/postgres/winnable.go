package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// AddWinnable implements store.Store: one statement over the arrays of the
// deals' fields.
func (s *Store) AddWinnable(ctx context.Context, deals []store.WinnableDeal) (int, error) {
	if len(deals) == 0 {
		return 0, nil
	}
	modes := make([]string, len(deals))
	numbers := make([]int64, len(deals))
	budgets := make([]int64, len(deals))
	positions := make([]int64, len(deals))
	beams := make([]int, len(deals))
	found := make([]time.Time, len(deals))
	for i, d := range deals {
		modes[i], numbers[i], budgets[i], positions[i], beams[i], found[i] = d.Mode, int64(d.Deal), d.Budget, d.Positions, d.Beam, d.FoundAt
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO winnable_deals (mode, deal, budget, positions, beam, found_at)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::integer[], $6::timestamptz[])
		ON CONFLICT (mode, deal) DO NOTHING`, modes, numbers, budgets, positions, beams, found)
	if err != nil {
		return 0, wrap("add winnable", err)
	}
	return int(tag.RowsAffected()), nil
}

// WinnableDeals implements store.Store.
func (s *Store) WinnableDeals(ctx context.Context) ([]store.WinnableDeal, error) {
	rows, err := s.pool.Query(ctx, stmt.WinnableDeals)
	if err != nil {
		return nil, wrap("winnable deals", err)
	}
	defer rows.Close()
	deals, err := store.Collect(rows, func(r pgx.Rows) (store.WinnableDeal, error) {
		var d store.WinnableDeal
		var deal int64
		err := r.Scan(&d.Mode, &deal, &d.Budget, &d.Positions, &d.Beam, &d.FoundAt)
		d.Deal, d.FoundAt = uint64(deal), d.FoundAt.UTC()
		return d, err
	})
	return deals, wrap("winnable deals", err)
}

// PlayedCodes implements store.Store.
func (s *Store) PlayedCodes(ctx context.Context, playerID string, codes []string) ([]string, error) {
	if len(codes) == 0 {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT code FROM games
		WHERE seat1 = $1 AND kind = 'solo' AND code = ANY($2)`, playerID, codes)
	if err != nil {
		return nil, wrap("played codes", err)
	}
	played, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return played, wrap("played codes", err)
}
