package postgres

import (
	"context"
	"hash/fnv"
	"time"

	"dsol/internal/store/internal/stmt"

	"github.com/jackc/pgx/v5"
)

// retentionLockID names the transaction-level advisory lock that lets one node
// at a time sweep the games of a schema. Like the migrations' lock it is
// derived from the schema, so that schemas swept independently (tests run
// side by side in one database) do not wait on each other; every node of one
// schema takes the same lock.
func retentionLockID(schema string) int64 {
	h := fnv.New64a()
	h.Write([]byte("dsol retention\x00" + schema))
	return int64(h.Sum64())
}

// DeleteAbandoned implements store.Store in one transaction that first takes
// the sweep's advisory lock (pg_try_advisory_xact_lock: another node sweeping
// makes this call return 0 at once). The candidates are locked FOR UPDATE
// (SKIP LOCKED: a game being written to is not abandoned), which keeps new
// actions out of them until the transaction ends, and then checked again by a
// fresh statement, which sees any action committed before the lock was taken.
func (s *Store) DeleteAbandoned(ctx context.Context, before time.Time, limit int) (int, error) {
	var n int
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		n = 0
		var schema string
		if err := tx.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
			return err
		}
		var locked bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, retentionLockID(schema)).Scan(&locked); err != nil {
			return err
		}
		if !locked {
			return nil
		}
		q := stmt.AbandonedOldest
		args := []any{before}
		if limit > 0 {
			q += ` LIMIT $2`
			args = append(args, limit)
		}
		candidates, err := ids(ctx, tx, q+` FOR UPDATE SKIP LOCKED`, args...)
		if err != nil || len(candidates) == 0 {
			return err
		}
		doomed, err := ids(ctx, tx, stmt.Abandoned+` AND g.id = ANY($2)`, before, candidates)
		if err != nil || len(doomed) == 0 {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM actions WHERE game_id = ANY($1)`, doomed); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM daily_entries WHERE game_id = ANY($1)`, doomed); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM games WHERE id = ANY($1)`, doomed)
		n = int(tag.RowsAffected())
		return err
	})
	if err != nil {
		return 0, wrap("delete abandoned", err)
	}
	return n, nil
}
