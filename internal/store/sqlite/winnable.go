package sqlite

import (
	"context"
	"database/sql"
	"strings"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// AddWinnable implements store.Store: one transaction.
func (s *Store) AddWinnable(ctx context.Context, deals []store.WinnableDeal) (int, error) {
	if len(deals) == 0 {
		return 0, nil
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, wrap("add winnable", err)
	}
	defer tx.Rollback()
	added := 0
	for _, d := range deals {
		res, err := tx.ExecContext(ctx, `INSERT INTO winnable_deals (mode, deal, budget, positions, beam, found_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (mode, deal) DO NOTHING`,
			d.Mode, int64(d.Deal), d.Budget, d.Positions, d.Beam, micros(d.FoundAt))
		if err != nil {
			return 0, wrap("add winnable", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, wrap("add winnable", err)
		}
		added += int(n)
	}
	if err := tx.Commit(); err != nil {
		return 0, wrap("add winnable", err)
	}
	return added, nil
}

// WinnableDeals implements store.Store.
func (s *Store) WinnableDeals(ctx context.Context) ([]store.WinnableDeal, error) {
	rows, err := s.r.QueryContext(ctx, stmt.WinnableDeals)
	if err != nil {
		return nil, wrap("winnable deals", err)
	}
	defer rows.Close()
	deals, err := store.Collect(rows, func(r *sql.Rows) (store.WinnableDeal, error) {
		var d store.WinnableDeal
		var deal, found int64
		err := r.Scan(&d.Mode, &deal, &d.Budget, &d.Positions, &d.Beam, &found)
		d.Deal, d.FoundAt = uint64(deal), fromMicros(found)
		return d, err
	})
	return deals, wrap("winnable deals", err)
}

// PlayedCodes implements store.Store.
func (s *Store) PlayedCodes(ctx context.Context, playerID string, codes []string) ([]string, error) {
	if len(codes) == 0 {
		return nil, nil
	}
	args := make([]any, 0, 1+len(codes))
	args = append(args, playerID)
	for _, c := range codes {
		args = append(args, c)
	}
	q := `SELECT DISTINCT code FROM games WHERE seat1 = ? AND kind = 'solo' AND code IN (?` +
		strings.Repeat(", ?", len(codes)-1) + `)`
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap("played codes", err)
	}
	defer rows.Close()
	var played []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, wrap("played codes", err)
		}
		played = append(played, c)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("played codes", err)
	}
	return played, nil
}
