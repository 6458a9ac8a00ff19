package sqlite

import (
	"context"
	"time"
)

// unfinished is the condition of a game that may be abandoned: a solo game in
// play or a race waiting for a second player. The games_unfinished index has
// the same predicate, word for word, so that SQLite uses it.
const unfinished = `((kind = 'solo' AND status = 'playing') OR (kind = 'race' AND status = 'waiting'))`

// abandonedQuery selects the ids of at most ?2 abandoned games: unfinished, and
// last active before ?1. The last activity of a game is its last action's
// time, else (no action yet) its header's; a header change after the last
// action (a status write) counts too.
const abandonedQuery = `SELECT id FROM games AS g
	WHERE ` + unfinished + ` AND updated_at < ?1
	AND COALESCE((SELECT a.at FROM actions AS a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), updated_at) < ?1
	ORDER BY updated_at, id LIMIT ?2`

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
