package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// Stats implements store.Store: the solo query and the race query of the
// store package, in one read-only REPEATABLE READ transaction (one snapshot).
// The solo query reads the figures the triggers of migration 00013 keep.
func (s *Store) Stats(ctx context.Context, playerID string) (store.Stats, error) {
	var st store.Stats
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var since *time.Time
		var err error
		if st.Race, err = store.ScanRaceStats(tx.QueryRow(ctx, store.RaceStatsQuery, playerID), &since); err != nil {
			return err
		}
		if since != nil {
			st.Since = since.UTC()
		}
		rows, err := tx.Query(ctx, soloStatsQuery, playerID)
		if err != nil {
			return err
		}
		defer rows.Close()
		st.Solo, err = store.ReadSoloStats(rows)
		return err
	})
	if err != nil {
		return store.Stats{}, wrap("stats", err)
	}
	return st, nil
}

// soloStatsQuery is the solo statistics query with the reset point of a
// player who never reset as the statistics tables hold it: '-infinity'.
var soloStatsQuery = store.SoloStatsQuery(`'-infinity'`)

// ResetStats implements store.Store.
func (s *Store) ResetStats(ctx context.Context, playerID string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, stmt.ResetStats, at, playerID)
	return affected("reset stats", tag, err)
}
