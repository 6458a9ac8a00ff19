package sqlite

import (
	"context"
	"time"

	"dsol/internal/store/internal/stmt"
)

// abandonedQuery selects the ids of at most $2 abandoned games (-1: no
// limit), the least recently active first: unfinished, and last active
// before $1 (stmt.Abandoned).
const abandonedQuery = stmt.AbandonedOldest + ` LIMIT $2`

// DeleteAbandoned implements store.Store: one IMMEDIATE transaction, so no
// action is appended to a game between the check and the delete.
func (s *Store) DeleteAbandoned(ctx context.Context, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		limit = -1
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, wrap("delete abandoned", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, abandonedQuery, micros(before), limit)
	if err != nil {
		return 0, wrap("delete abandoned", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, wrap("delete abandoned", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return 0, wrap("delete abandoned", err)
	}
	if err := rows.Err(); err != nil {
		return 0, wrap("delete abandoned", err)
	}
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM actions WHERE game_id = ?`, id); err != nil {
			return 0, wrap("delete abandoned", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM daily_entries WHERE game_id = ?`, id); err != nil {
			return 0, wrap("delete abandoned", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM games WHERE id = ?`, id); err != nil {
			return 0, wrap("delete abandoned", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, wrap("delete abandoned", err)
	}
	return len(ids), nil
}
