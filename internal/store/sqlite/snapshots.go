package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// PutSnapshots implements store.Store: one transaction on the writer.
func (s *Store) PutSnapshots(ctx context.Context, snaps []store.Snapshot) error {
	if len(snaps) == 0 {
		return nil
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("put snapshots", err)
	}
	defer tx.Rollback()
	for _, snap := range snaps {
		if _, err := tx.ExecContext(ctx, stmt.PutSnapshot, snap.GameID, snap.Seq, snap.State, micros(snap.At)); err != nil {
			return wrap("put snapshots", err)
		}
	}
	return wrap("put snapshots", tx.Commit())
}

// Snapshot implements store.Store.
func (s *Store) Snapshot(ctx context.Context, gameID string) (store.Snapshot, error) {
	snap := store.Snapshot{GameID: gameID}
	var at int64
	err := s.r.QueryRowContext(ctx, stmt.Snapshot, gameID).Scan(&snap.Seq, &snap.State, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Snapshot{}, store.ErrNotFound
	}
	snap.At = fromMicros(at)
	return snap, wrap("snapshot", err)
}
