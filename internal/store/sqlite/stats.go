package sqlite

import (
	"context"
	"database/sql"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// Stats implements store.Store: the solo query and the race query of the
// store package, in one read transaction. The solo query reads the figures
// the triggers of migration 00013 keep.
func (s *Store) Stats(ctx context.Context, playerID string) (store.Stats, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return store.Stats{}, wrap("stats", err)
	}
	defer tx.Rollback()
	var st store.Stats
	var since sql.NullInt64
	if st.Race, err = store.ScanRaceStats(tx.QueryRowContext(ctx, store.RaceStatsQuery, playerID), &since); err != nil {
		return store.Stats{}, wrap("stats", err)
	}
	if since.Valid {
		st.Since = fromMicros(since.Int64)
	}
	rows, err := tx.QueryContext(ctx, soloStatsQuery, playerID)
	if err != nil {
		return store.Stats{}, wrap("stats", err)
	}
	defer rows.Close()
	if st.Solo, err = store.ReadSoloStats(rows); err != nil {
		return store.Stats{}, wrap("stats", err)
	}
	return st, nil
}

// never is the reset point of a player who never reset, in the statistics
// tables: minus infinity, below every time (microseconds) there is.
const never = "-9223372036854775807"

// soloStatsQuery is the solo statistics query with SQLite's never.
var soloStatsQuery = store.SoloStatsQuery(never)

// ResetStats implements store.Store.
func (s *Store) ResetStats(ctx context.Context, playerID string, at time.Time) error {
	res, err := s.w.ExecContext(ctx, stmt.ResetStats, micros(at), playerID)
	return affected("reset stats", res, err)
}
