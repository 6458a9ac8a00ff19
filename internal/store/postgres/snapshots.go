package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// PutSnapshots implements store.Store: one transaction, one round trip.
func (s *Store) PutSnapshots(ctx context.Context, snaps []store.Snapshot) error {
	if len(snaps) == 0 {
		return nil
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var b pgx.Batch
		for _, snap := range snaps {
			b.Queue(stmt.PutSnapshot, snap.GameID, snap.Seq, snap.State, snap.At)
		}
		return tx.SendBatch(ctx, &b).Close()
	})
	return wrap("put snapshots", err)
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
