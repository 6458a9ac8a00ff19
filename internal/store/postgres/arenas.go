package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// CreateArena implements store.Store.
func (s *Store) CreateArena(ctx context.Context, a store.Arena) error {
	_, err := s.pool.Exec(ctx, stmt.CreateArena, a.ID, nullString(a.Creator), a.Minutes, a.Draw, a.Single,
		a.StartsAt, a.EndsAt, a.CreatedAt)
	return wrap("create arena", err)
}

func scanArena(row store.Row) (store.Arena, error) {
	var a store.Arena
	if err := row.Scan(&a.ID, &a.Creator, &a.Minutes, &a.Draw, &a.Single, &a.StartsAt, &a.EndsAt, &a.CreatedAt, &a.Players); err != nil {
		return store.Arena{}, err
	}
	a.StartsAt, a.EndsAt, a.CreatedAt = a.StartsAt.UTC(), a.EndsAt.UTC(), a.CreatedAt.UTC()
	return a, nil
}

// Arena implements store.Store.
func (s *Store) Arena(ctx context.Context, id string) (store.Arena, error) {
	a, err := scanArena(s.pool.QueryRow(ctx, stmt.Arena, id))
	return a, wrap("arena", err)
}

// ListArenas implements store.Store.
func (s *Store) ListArenas(ctx context.Context, now time.Time, since time.Duration, limit int) ([]store.Arena, error) {
	rows, err := s.pool.Query(ctx, stmt.ListArenas, now.Add(-since), limit)
	if err != nil {
		return nil, wrap("list arenas", err)
	}
	defer rows.Close()
	as, err := store.Collect(rows, func(r pgx.Rows) (store.Arena, error) { return scanArena(r) })
	return as, wrap("list arenas", err)
}

// ArenasCreated implements store.Store.
func (s *Store) ArenasCreated(ctx context.Context, player string, since time.Time) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, stmt.ArenasCreated, player, since).Scan(&n)
	return n, wrap("arenas created", err)
}

// JoinArena implements store.Store.
func (s *Store) JoinArena(ctx context.Context, arena, player string, at time.Time) error {
	_, err := s.pool.Exec(ctx, stmt.JoinArena, arena, player, at, false)
	return wrap("join arena", err)
}

// PauseArena implements store.Store.
func (s *Store) PauseArena(ctx context.Context, arena, player string, paused bool) error {
	tag, err := s.pool.Exec(ctx, stmt.PauseArena, arena, player, paused)
	if err == nil && tag.RowsAffected() == 0 {
		err = store.ErrNotFound
	}
	return wrap("pause arena", err)
}

// ArenaPlayers implements store.Store.
func (s *Store) ArenaPlayers(ctx context.Context, arena string) ([]store.ArenaPlayer, error) {
	rows, err := s.pool.Query(ctx, stmt.ArenaPlayers, arena)
	if err != nil {
		return nil, wrap("arena players", err)
	}
	defer rows.Close()
	ps, err := store.Collect(rows, func(r pgx.Rows) (store.ArenaPlayer, error) {
		var p store.ArenaPlayer
		err := r.Scan(&p.ID, &p.Name, &p.Rating, &p.JoinedAt, &p.Paused)
		p.JoinedAt = p.JoinedAt.UTC()
		return p, err
	})
	return ps, wrap("arena players", err)
}

// CreateArenaRace implements store.Store: one transaction.
func (s *Store) CreateArenaRace(ctx context.Context, arena string, n int, g store.Game) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := createGame(ctx, tx, g); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, stmt.AddArenaRace, arena, n, g.ID)
		return err
	})
	return wrap("create arena race", err)
}

// ArenaRaces implements store.Store.
func (s *Store) ArenaRaces(ctx context.Context, arena, game string) ([]store.ArenaRace, error) {
	q, args := stmt.ArenaRaces, []any{arena}
	if game != "" {
		q, args = stmt.ArenaRace, []any{arena, game}
	}
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, wrap("arena races", err)
	}
	defer rows.Close()
	rs, err := store.Collect(rows, func(r pgx.Rows) (store.ArenaRace, error) {
		var x store.ArenaRace
		var first [2]*time.Time
		var result string
		var updated time.Time
		err := r.Scan(&x.N, &x.GameID, &x.Seats[0], &x.Seats[1], &x.Status, &result, &x.CreatedAt, &updated, &first[0], &first[1])
		x.CreatedAt = x.CreatedAt.UTC()
		if x.Status == "over" {
			x.EndedAt = updated.UTC()
		}
		if result != "" {
			x.Result = []byte(result)
		}
		for i, f := range first {
			if f != nil {
				x.First[i] = f.UTC()
			}
		}
		return x, err
	})
	return rs, wrap("arena races", err)
}
