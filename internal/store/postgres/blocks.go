package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// Block implements store.Store (the foreign keys find a missing player).
func (s *Store) Block(ctx context.Context, playerID, blockedID string, at time.Time) error {
	_, err := s.pool.Exec(ctx, stmt.Block, playerID, blockedID, at)
	return wrap("block", err)
}

// Unblock implements store.Store.
func (s *Store) Unblock(ctx context.Context, playerID, blockedID string) error {
	_, err := s.pool.Exec(ctx, stmt.Unblock, playerID, blockedID)
	return wrap("unblock", err)
}

// Blocks implements store.Store.
func (s *Store) Blocks(ctx context.Context, playerID string) ([]store.Block, error) {
	rows, err := s.pool.Query(ctx, stmt.Blocks, playerID)
	return collectBlocks("blocks", rows, err)
}

// BlocksAmong implements store.Store.
func (s *Store) BlocksAmong(ctx context.Context, ids []string) ([]store.Block, error) {
	rows, err := s.pool.Query(ctx, `SELECT player_id, blocked_id, '', created_at FROM blocks
		WHERE player_id = ANY($1) OR blocked_id = ANY($1)`, ids)
	return collectBlocks("blocks among", rows, err)
}

func collectBlocks(op string, rows pgx.Rows, err error) ([]store.Block, error) {
	if err != nil {
		return nil, wrap(op, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Block, error) {
		var b store.Block
		err := r.Scan(&b.PlayerID, &b.BlockedID, &b.BlockedName, &b.CreatedAt)
		b.CreatedAt = b.CreatedAt.UTC()
		return b, err
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	if out == nil {
		out = []store.Block{}
	}
	return out, nil
}
