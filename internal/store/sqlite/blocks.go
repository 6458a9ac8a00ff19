package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// Block implements store.Store (the foreign keys find a missing player).
func (s *Store) Block(ctx context.Context, playerID, blockedID string, at time.Time) error {
	_, err := s.w.ExecContext(ctx, stmt.Block, playerID, blockedID, micros(at))
	return wrap("block", err)
}

// Unblock implements store.Store.
func (s *Store) Unblock(ctx context.Context, playerID, blockedID string) error {
	_, err := s.w.ExecContext(ctx, stmt.Unblock, playerID, blockedID)
	return wrap("unblock", err)
}

// Blocks implements store.Store.
func (s *Store) Blocks(ctx context.Context, playerID string) ([]store.Block, error) {
	rows, err := s.r.QueryContext(ctx, stmt.Blocks, playerID)
	return scanBlocks("blocks", rows, err)
}

// BlocksAmong implements store.Store.
func (s *Store) BlocksAmong(ctx context.Context, ids []string) ([]store.Block, error) {
	if len(ids) == 0 {
		return []store.Block{}, nil
	}
	in := "?" + strings.Repeat(", ?", len(ids)-1)
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.r.QueryContext(ctx, `SELECT player_id, blocked_id, '', created_at FROM blocks
		WHERE player_id IN (`+in+`) UNION SELECT player_id, blocked_id, '', created_at FROM blocks
		WHERE blocked_id IN (`+in+`)`, append(args, args...)...)
	return scanBlocks("blocks among", rows, err)
}

func scanBlocks(op string, rows *sql.Rows, err error) ([]store.Block, error) {
	if err != nil {
		return nil, wrap(op, err)
	}
	defer rows.Close()
	out := []store.Block{}
	for rows.Next() {
		var b store.Block
		var at int64
		if err := rows.Scan(&b.PlayerID, &b.BlockedID, &b.BlockedName, &at); err != nil {
			return nil, wrap(op, err)
		}
		b.CreatedAt = fromMicros(at)
		out = append(out, b)
	}
	return out, wrap(op, rows.Err())
}
