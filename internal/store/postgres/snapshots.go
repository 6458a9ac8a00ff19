package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// PutSnapshot implements store.Store (the foreign key finds a missing game).
func (s *Store) PutSnapshot(ctx context.Context, snap store.Snapshot) error {
	_, err := s.pool.Exec(ctx, stmt.PutSnapshot, snap.GameID, snap.Seq, snap.State, snap.At)
	return wrap("put snapshot", err)
}

// Snapshot implements store.Store.
func (s *Store) Snapshot(ctx context.Context, gameID string) (store.Snapshot, error) {
	snap := store.Snapshot{GameID: gameID}
	err := s.pool.QueryRow(ctx, stmt.Snapshot, gameID).Scan(&snap.Seq, &snap.State, &snap.At)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Snapshot{}, store.ErrNotFound
	}
	snap.At = snap.At.UTC()
	return snap, wrap("snapshot", err)
}
