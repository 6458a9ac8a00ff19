package sqlite

import (
	"context"
	"database/sql"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// CreateArena implements store.Store.
func (s *Store) CreateArena(ctx context.Context, a store.Arena) error {
	_, err := s.w.ExecContext(ctx, stmt.CreateArena, a.ID, nullString(a.Creator), a.Minutes, a.Draw, a.Single,
		micros(a.StartsAt), micros(a.EndsAt), micros(a.CreatedAt))
	return wrap("create arena", err)
}

func scanArena(row store.Row) (store.Arena, error) {
	var a store.Arena
	var starts, ends, created int64
	if err := row.Scan(&a.ID, &a.Creator, &a.Minutes, &a.Draw, &a.Single, &starts, &ends, &created, &a.Players); err != nil {
		return store.Arena{}, err
	}
	a.StartsAt, a.EndsAt, a.CreatedAt = fromMicros(starts), fromMicros(ends), fromMicros(created)
	return a, nil
}

// Arena implements store.Store.
func (s *Store) Arena(ctx context.Context, id string) (store.Arena, error) {
	a, err := scanArena(s.r.QueryRowContext(ctx, stmt.Arena, id))
	return a, wrap("arena", err)
}

// ListArenas implements store.Store.
func (s *Store) ListArenas(ctx context.Context, now time.Time, since time.Duration, limit int) ([]store.Arena, error) {
	rows, err := s.r.QueryContext(ctx, stmt.ListArenas, micros(now.Add(-since)), limit)
	if err != nil {
		return nil, wrap("list arenas", err)
	}
	defer rows.Close()
	as, err := store.Collect(rows, func(r *sql.Rows) (store.Arena, error) { return scanArena(r) })
	return as, wrap("list arenas", err)
}

// ArenasCreated implements store.Store.
func (s *Store) ArenasCreated(ctx context.Context, player string, since time.Time) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, stmt.ArenasCreated, player, micros(since)).Scan(&n)
	return n, wrap("arenas created", err)
}

// JoinArena implements store.Store.
func (s *Store) JoinArena(ctx context.Context, arena, player string, at time.Time) error {
	_, err := s.w.ExecContext(ctx, stmt.JoinArena, arena, player, micros(at), false)
	return wrap("join arena", err)
}

// PauseArena implements store.Store.
func (s *Store) PauseArena(ctx context.Context, arena, player string, paused bool) error {
	res, err := s.w.ExecContext(ctx, stmt.PauseArena, arena, player, paused)
	return affected("pause arena", res, err)
}

// ArenaPlayers implements store.Store.
func (s *Store) ArenaPlayers(ctx context.Context, arena string) ([]store.ArenaPlayer, error) {
	rows, err := s.r.QueryContext(ctx, stmt.ArenaPlayers, arena)
	if err != nil {
		return nil, wrap("arena players", err)
	}
	defer rows.Close()
	ps, err := store.Collect(rows, func(r *sql.Rows) (store.ArenaPlayer, error) {
		var p store.ArenaPlayer
		var joined int64
		err := r.Scan(&p.ID, &p.Name, &p.Rating, &joined, &p.Paused)
		p.JoinedAt = fromMicros(joined)
		return p, err
	})
	return ps, wrap("arena players", err)
}

// CreateArenaRace implements store.Store: one transaction on the writer.
func (s *Store) CreateArenaRace(ctx context.Context, arena string, n int, g store.Game) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("create arena race", err)
	}
	defer tx.Rollback()
	if err := createGame(ctx, tx, g); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, stmt.AddArenaRace, arena, n, g.ID); err != nil {
		return wrap("create arena race", err)
	}
	return wrap("create arena race", tx.Commit())
}

// ArenaRaces implements store.Store.
func (s *Store) ArenaRaces(ctx context.Context, arena, game string) ([]store.ArenaRace, error) {
	q, args := stmt.ArenaRaces, []any{arena}
	if game != "" {
		q, args = stmt.ArenaRace, []any{arena, game}
	}
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap("arena races", err)
	}
	defer rows.Close()
	rs, err := store.Collect(rows, func(r *sql.Rows) (store.ArenaRace, error) {
		var x store.ArenaRace
		var created, updated int64
		var first [2]sql.NullInt64
		var result string
		err := r.Scan(&x.N, &x.GameID, &x.Seats[0], &x.Seats[1], &x.Status, &result, &created, &updated, &first[0], &first[1])
		x.CreatedAt = fromMicros(created)
		if x.Status == "over" {
			x.EndedAt = fromMicros(updated)
		}
		if result != "" {
			x.Result = []byte(result)
		}
		for i, f := range first {
			if f.Valid {
				x.First[i] = fromMicros(f.Int64)
			}
		}
		return x, err
	})
	return rs, wrap("arena races", err)
}
