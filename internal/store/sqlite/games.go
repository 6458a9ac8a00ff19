package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// CreateGame implements store.Store. Seat players must exist (store.ErrNotFound).
func (s *Store) CreateGame(ctx context.Context, g store.Game) error {
	return createGame(ctx, s.w, g)
}

// createGame is CreateGame on the writer or in a transaction.
func createGame(ctx context.Context, q querier, g store.Game) error {
	_, err := q.ExecContext(ctx, stmt.CreateGame,
		g.ID, g.Kind, g.Code, nullText(g.Options), g.Status, g.Seats[0], nullString(g.Seats[1]),
		g.Public, nullBlob(g.InviteHash), nullString(g.SeriesID), g.SeriesGame, nullText(g.Result),
		micros(g.CreatedAt), micros(g.UpdatedAt), nullBlob(g.Salt))
	return wrap("create game", err)
}

func scanGame(row store.Row) (store.Game, error) {
	var g store.Game
	var created, updated int64
	if err := row.Scan(&g.ID, &g.Kind, &g.Code, &g.Options, &g.Status, &g.Seats[0], &g.Seats[1],
		&g.Public, &g.InviteHash, &g.SeriesID, &g.SeriesGame, &g.Result, &created, &updated, &g.Salt, &g.Hints, &g.Checked); err != nil {
		return store.Game{}, err
	}
	g.Options, g.InviteHash, g.Result, g.Salt = emptyNil(g.Options), emptyNil(g.InviteHash), emptyNil(g.Result), emptyNil(g.Salt)
	g.CreatedAt, g.UpdatedAt = fromMicros(created), fromMicros(updated)
	return g, nil
}

// Game implements store.Store.
func (s *Store) Game(ctx context.Context, id string) (store.Game, error) {
	g, err := scanGame(s.r.QueryRowContext(ctx, stmt.Game, id))
	return g, wrap("game", err)
}

// UpdateGame implements store.Store.
func (s *Store) UpdateGame(ctx context.Context, g store.Game) error {
	return updateGame(ctx, s.w, "update game", g)
}

// updateGame is UpdateGame on the writer or in a transaction.
func updateGame(ctx context.Context, q querier, op string, g store.Game) error {
	res, err := q.ExecContext(ctx, stmt.UpdateGame,
		g.Status, g.Seats[0], nullString(g.Seats[1]), g.Public, nullText(g.Result), micros(g.UpdatedAt), g.ID)
	return affected(op, res, err)
}

// AddHint implements store.Store.
func (s *Store) AddHint(ctx context.Context, gameID string) (int, error) {
	var n int
	err := s.w.QueryRowContext(ctx, stmt.AddHint, gameID).Scan(&n)
	return n, wrap("add hint", err)
}

// SetChecked implements store.Store.
func (s *Store) SetChecked(ctx context.Context, gameID string) error {
	res, err := s.w.ExecContext(ctx, stmt.SetChecked, gameID)
	return affected("set checked", res, err)
}

// JoinGame implements store.Store.
func (s *Store) JoinGame(ctx context.Context, gameID, playerID string, at time.Time) error {
	res, err := s.w.ExecContext(ctx, stmt.JoinGame, playerID, micros(at), gameID)
	if err != nil {
		return wrap("join game", err) // store.ErrNotFound for an unknown player
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return wrap("join game", err)
	}
	// Nothing changed: tell a missing game from a taken seat.
	var one int
	err = s.w.QueryRowContext(ctx, stmt.GameExists, gameID).Scan(&one)
	if err != nil {
		return wrap("join game", err)
	}
	return fmt.Errorf("sqlite: join game: %w", store.ErrConflict)
}

// CancelRace implements store.Store.
func (s *Store) CancelRace(ctx context.Context, gameID, playerID string, at time.Time) error {
	res, err := s.w.ExecContext(ctx, stmt.CancelRace, micros(at), gameID, playerID)
	if err != nil {
		return wrap("cancel race", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return wrap("cancel race", err)
	}
	var one int
	if err := s.w.QueryRowContext(ctx, stmt.GameExists, gameID).Scan(&one); err != nil {
		return wrap("cancel race", err)
	}
	return fmt.Errorf("sqlite: cancel race: %w", store.ErrConflict)
}

// ListGames implements store.Store.
func (s *Store) ListGames(ctx context.Context, q store.GameQuery) ([]store.Game, error) {
	query, args := stmt.ListGames(q, func(t time.Time) any { return micros(t) })
	return s.games(ctx, "list games", query, args...)
}

// OpenRaces implements store.Store. A limit <= 0 means no limit.
func (s *Store) OpenRaces(ctx context.Context, limit int) ([]store.Game, error) {
	if limit <= 0 {
		limit = -1
	}
	return s.games(ctx, "open races", `SELECT `+stmt.GameColumns+` FROM games
		WHERE kind = 'race' AND public = 1 AND status = 'waiting' AND seat2 IS NULL
		ORDER BY created_at, id LIMIT ?`, limit)
}

func (s *Store) games(ctx context.Context, op, query string, args ...any) ([]store.Game, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap(op, err)
	}
	defer rows.Close()
	games, err := store.Collect(rows, func(r *sql.Rows) (store.Game, error) { return scanGame(r) })
	return games, wrap(op, err)
}
