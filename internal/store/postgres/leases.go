package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
)

var _ store.Leases = (*Store)(nil)

// Acquire implements store.Leases: one upsert that takes the lease when it
// is free, expired or already node's. A lease released between the upsert
// and the request for it is tried for once more.
func (s *Store) Acquire(ctx context.Context, game, node, addr string, now time.Time, ttl time.Duration) (store.Lease, bool, error) {
	l, ok, err := s.acquire(ctx, game, node, addr, now, ttl)
	if errors.Is(err, pgx.ErrNoRows) {
		l, ok, err = s.acquire(ctx, game, node, addr, now, ttl)
	}
	if errors.Is(err, pgx.ErrNoRows) {
		err = errors.New("the lease keeps changing hands")
	}
	return l, ok, wrap("acquire lease", err)
}

func (s *Store) acquire(ctx context.Context, game, node, addr string, now time.Time, ttl time.Duration) (store.Lease, bool, error) {
	l := store.Lease{Game: game, Node: node, Addr: addr, Expires: now.Add(ttl)}
	var got string
	err := s.pool.QueryRow(ctx, `INSERT INTO leases (game_id, node, addr, expires_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (game_id) DO UPDATE SET node = excluded.node, addr = excluded.addr,
			expires_at = excluded.expires_at, wanted_by = NULL
		WHERE leases.node = excluded.node OR leases.expires_at <= $5
		RETURNING node`, game, node, addr, l.Expires, now).Scan(&got)
	if err == nil {
		return l, true, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return store.Lease{}, false, err
	}
	// Held by another node: ask for it, and say who holds it.
	err = s.pool.QueryRow(ctx, `UPDATE leases SET wanted_by = $2 WHERE game_id = $1
		RETURNING node, addr, expires_at`, game, node).Scan(&l.Node, &l.Addr, &l.Expires)
	if err != nil {
		return store.Lease{}, false, err // pgx.ErrNoRows: released meanwhile
	}
	return l, l.Node == node, nil
}

// Renew implements store.Leases.
func (s *Store) Renew(ctx context.Context, node string, games []string, now time.Time, ttl time.Duration) (map[string]bool, error) {
	held := make(map[string]bool, len(games))
	if len(games) == 0 {
		return held, nil
	}
	rows, err := s.pool.Query(ctx, `UPDATE leases SET expires_at = $3
		WHERE node = $1 AND game_id = ANY($2) AND expires_at > $4
		RETURNING game_id, COALESCE(wanted_by, '') <> ''`, node, games, now.Add(ttl), now)
	if err != nil {
		return nil, wrap("renew leases", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var wanted bool
		if err := rows.Scan(&id, &wanted); err != nil {
			return nil, wrap("renew leases", err)
		}
		held[id] = wanted
	}
	return held, wrap("renew leases", rows.Err())
}

// Release implements store.Leases.
func (s *Store) Release(ctx context.Context, node string, games []string) error {
	var err error
	if games == nil {
		_, err = s.pool.Exec(ctx, `DELETE FROM leases WHERE node = $1`, node)
	} else if len(games) > 0 {
		_, err = s.pool.Exec(ctx, `DELETE FROM leases WHERE node = $1 AND game_id = ANY($2)`, node, games)
	}
	return wrap("release leases", err)
}

// LiveLeases implements store.Leases.
func (s *Store) LiveLeases(ctx context.Context, now time.Time) ([]store.Lease, error) {
	rows, err := s.pool.Query(ctx, `SELECT game_id, node, addr, expires_at FROM leases
		WHERE expires_at > $1 ORDER BY game_id`, now)
	if err != nil {
		return nil, wrap("leases", err)
	}
	defer rows.Close()
	var out []store.Lease
	for rows.Next() {
		var l store.Lease
		if err := rows.Scan(&l.Game, &l.Node, &l.Addr, &l.Expires); err != nil {
			return nil, wrap("leases", err)
		}
		out = append(out, l)
	}
	return out, wrap("leases", rows.Err())
}
