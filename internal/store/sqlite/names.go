package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// namesBatch is CheckNames' default batch.
const namesBatch = 500

// CheckNames implements store.Store: a write transaction for each batch
// (SQLite's single writer: nobody renames a player in between), each
// update still conditional on the name checked.
func (s *Store) CheckNames(ctx context.Context, rules string, at time.Time, batch int, check func(id, name string) string) (int, error) {
	if batch <= 0 {
		batch = namesBatch
	}
	total, after := 0, ""
	for {
		renamed, seen, last, err := s.checkNames(ctx, rules, at, batch, after, check)
		total += renamed
		if err != nil {
			return total, wrap("check names", err)
		}
		if seen < batch {
			return total, nil
		}
		after = last
	}
}

// checkNames is one batch of CheckNames: the players after id after.
func (s *Store) checkNames(ctx context.Context, rules string, at time.Time, batch int, after string,
	check func(id, name string) string) (renamed, seen int, last string, err error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, "", err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT id, name FROM players
		WHERE id > ? AND (name_rules IS NOT ? OR name_checked IS NOT name)
		ORDER BY id LIMIT ?`, after, rules, batch)
	if err != nil {
		return 0, 0, "", err
	}
	type named struct{ id, name string }
	var list []named
	for rows.Next() {
		var p named
		if err := rows.Scan(&p.id, &p.name); err != nil {
			rows.Close()
			return 0, 0, "", err
		}
		list = append(list, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, "", err
	}
	for _, p := range list {
		seen, last = seen+1, p.id
		if to := check(p.id, p.name); to == "" || to == p.name {
			_, err = tx.ExecContext(ctx, `UPDATE players SET name_rules = ?, name_checked = name WHERE id = ? AND name = ?`,
				rules, p.id, p.name)
		} else {
			var res sql.Result
			res, err = tx.ExecContext(ctx, `UPDATE players SET name = ?, name_checked = ?, name_rules = ?, renamed_from = name, renamed_at = ?
				WHERE id = ? AND name = ?`, to, to, rules, micros(at), p.id, p.name)
			if err == nil {
				n, _ := res.RowsAffected()
				renamed += int(n)
			}
		}
		if err != nil {
			return 0, 0, "", err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, "", err
	}
	return renamed, seen, last, nil
}

// Renamed implements store.Store.
func (s *Store) Renamed(ctx context.Context, id string) (store.Renamed, error) {
	var from sql.NullString
	var at sql.NullInt64
	if err := s.r.QueryRowContext(ctx, stmt.Renamed, id).Scan(&from, &at); err != nil {
		return store.Renamed{}, wrap("renamed", err)
	}
	if !from.Valid || !at.Valid {
		return store.Renamed{}, fmt.Errorf("sqlite: renamed: %w", store.ErrNotFound)
	}
	return store.Renamed{From: from.String, At: fromMicros(at.Int64)}, nil
}

// ClearRenamed implements store.Store.
func (s *Store) ClearRenamed(ctx context.Context, id string) error {
	res, err := s.w.ExecContext(ctx, stmt.ClearRenamed, id)
	return affected("clear renamed", res, err)
}
