package postgres

import (
	"context"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// namesBatch is CheckNames' default batch.
const namesBatch = 500

// namesLockID names the transaction-level advisory lock that lets one node
// at a time check the names of a schema (see retentionLockID).
func namesLockID(schema string) int64 {
	h := fnv.New64a()
	h.Write([]byte("dsol names\x00" + schema))
	return int64(h.Sum64())
}

// CheckNames implements store.Store: a transaction for each batch, which
// first takes the names' advisory lock (pg_try_advisory_xact_lock: another
// node checking makes this call stop at once), then locks the batch's
// players FOR UPDATE and writes the marks and the renamings in two
// statements, each still conditional on the name checked.
func (s *Store) CheckNames(ctx context.Context, rules string, at time.Time, batch int, check func(id, name string) string) (int, error) {
	if batch <= 0 {
		batch = namesBatch
	}
	total, after := 0, ""
	for {
		var renamed, seen int
		var last string
		busy := false
		err := s.inTx(ctx, func(tx pgx.Tx) error {
			renamed, seen, last, busy = 0, 0, "", false
			var schema string
			if err := tx.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
				return err
			}
			var locked bool
			if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, namesLockID(schema)).Scan(&locked); err != nil {
				return err
			}
			if !locked {
				busy = true
				return nil
			}
			rows, err := tx.Query(ctx, `SELECT id, name FROM players
				WHERE id > $1 AND (name_rules IS DISTINCT FROM $2 OR name_checked IS DISTINCT FROM name)
				ORDER BY id LIMIT $3 FOR UPDATE`, after, rules, batch)
			if err != nil {
				return err
			}
			type named struct{ ID, Name string }
			list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[named])
			if err != nil {
				return err
			}
			var keepIDs, keepNames, ids, froms, tos []string
			for _, p := range list {
				seen, last = seen+1, p.ID
				if to := check(p.ID, p.Name); to == "" || to == p.Name {
					keepIDs, keepNames = append(keepIDs, p.ID), append(keepNames, p.Name)
				} else {
					ids, froms, tos = append(ids, p.ID), append(froms, p.Name), append(tos, to)
				}
			}
			if len(keepIDs) > 0 {
				if _, err := tx.Exec(ctx, `UPDATE players AS p SET name_rules = $1, name_checked = p.name
					FROM unnest($2::text[], $3::text[]) AS k(id, name) WHERE p.id = k.id AND p.name = k.name`,
					rules, keepIDs, keepNames); err != nil {
					return err
				}
			}
			if len(ids) > 0 {
				tag, err := tx.Exec(ctx, `UPDATE players AS p
					SET name = r.new, name_checked = r.new, name_rules = $1, renamed_from = p.name, renamed_at = $2
					FROM unnest($3::text[], $4::text[], $5::text[]) AS r(id, old, new) WHERE p.id = r.id AND p.name = r.old`,
					rules, at, ids, froms, tos)
				if err != nil {
					return err
				}
				renamed = int(tag.RowsAffected())
			}
			return nil
		})
		if err != nil {
			return total, wrap("check names", err)
		}
		total += renamed
		if busy || seen < batch {
			return total, nil
		}
		after = last
	}
}

// Renamed implements store.Store.
func (s *Store) Renamed(ctx context.Context, id string) (store.Renamed, error) {
	var from *string
	var at *time.Time
	if err := s.pool.QueryRow(ctx, stmt.Renamed, id).Scan(&from, &at); err != nil {
		return store.Renamed{}, wrap("renamed", err)
	}
	if from == nil || at == nil {
		return store.Renamed{}, fmt.Errorf("postgres: renamed: %w", store.ErrNotFound)
	}
	return store.Renamed{From: *from, At: at.UTC()}, nil
}

// ClearRenamed implements store.Store.
func (s *Store) ClearRenamed(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, stmt.ClearRenamed, id)
	return affected("clear renamed", tag, err)
}
