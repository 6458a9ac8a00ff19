package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// PutSnapshot implements store.Store (the foreign key finds a missing game).
func (s *Store) PutSnapshot(ctx context.Context, snap store.Snapshot) error {
	_, err := s.w.ExecContext(ctx, stmt.PutSnapshot, snap.GameID, snap.Seq, snap.State, micros(snap.At))
	return wrap("put snapshot", err)
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
