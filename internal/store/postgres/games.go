package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// CreateGame implements store.Store. Seat players must exist (store.ErrNotFound).
func (s *Store) CreateGame(ctx context.Context, g store.Game) error {
	return createGame(ctx, s.pool, g)
}

// createGame is CreateGame on the pool or in a transaction.
func createGame(ctx context.Context, q querier, g store.Game) error {
	_, err := q.Exec(ctx, stmt.CreateGame,
		g.ID, g.Kind, g.Code, nullBytes(g.Options), g.Status, g.Seats[0], nullString(g.Seats[1]),
		g.Public, nullBytes(g.InviteHash), nullString(g.SeriesID), g.SeriesGame, nullBytes(g.Result),
		g.CreatedAt, g.UpdatedAt, nullBytes(g.Salt))
	return wrap("create game", err)
}

func scanGame(row store.Row) (store.Game, error) {
	var g store.Game
	if err := row.Scan(&g.ID, &g.Kind, &g.Code, &g.Options, &g.Status, &g.Seats[0], &g.Seats[1],
		&g.Public, &g.InviteHash, &g.SeriesID, &g.SeriesGame, &g.Result, &g.CreatedAt, &g.UpdatedAt, &g.Salt, &g.Hints, &g.Checked); err != nil {
		return store.Game{}, err
	}
	g.Options, g.InviteHash, g.Result, g.Salt = nullBytes(g.Options), nullBytes(g.InviteHash), nullBytes(g.Result), nullBytes(g.Salt)
	g.CreatedAt, g.UpdatedAt = g.CreatedAt.UTC(), g.UpdatedAt.UTC()
	return g, nil
}

// Game implements store.Store.
func (s *Store) Game(ctx context.Context, id string) (store.Game, error) {
	g, err := scanGame(s.pool.QueryRow(ctx, stmt.Game, id))
	return g, wrap("game", err)
}

// UpdateGame implements store.Store.
func (s *Store) UpdateGame(ctx context.Context, g store.Game) error {
	return updateGame(ctx, s.pool, "update game", g)
}

// updateGame is UpdateGame on the pool or in a transaction.
func updateGame(ctx context.Context, q querier, op string, g store.Game) error {
	tag, err := q.Exec(ctx, stmt.UpdateGame,
		g.Status, g.Seats[0], nullString(g.Seats[1]), g.Public, nullBytes(g.Result), g.UpdatedAt, g.ID)
	return affected(op, tag, err)
}

// AddHint implements store.Store.
func (s *Store) AddHint(ctx context.Context, gameID string) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, stmt.AddHint, gameID).Scan(&n)
	return n, wrap("add hint", err)
}

// SetChecked implements store.Store.
func (s *Store) SetChecked(ctx context.Context, gameID string) error {
	res, err := s.pool.Exec(ctx, stmt.SetChecked, gameID)
	return affected("set checked", res, err)
}

// JoinGame implements store.Store.
func (s *Store) JoinGame(ctx context.Context, gameID, playerID string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, stmt.JoinGame, playerID, at, gameID)
	if err != nil {
		return wrap("join game", err) // store.ErrNotFound for an unknown player
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	// Nothing changed: tell a missing game from a taken seat.
	var one int
	if err := s.pool.QueryRow(ctx, stmt.GameExists, gameID).Scan(&one); err != nil {
		return wrap("join game", err)
	}
	return fmt.Errorf("postgres: join game: %w", store.ErrConflict)
}

// CancelRace implements store.Store.
func (s *Store) CancelRace(ctx context.Context, gameID, playerID string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, stmt.CancelRace, at, gameID, playerID)
	if err != nil {
		return wrap("cancel race", err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var one int
	if err := s.pool.QueryRow(ctx, stmt.GameExists, gameID).Scan(&one); err != nil {
		return wrap("cancel race", err)
	}
	return fmt.Errorf("postgres: cancel race: %w", store.ErrConflict)
}

// ListGames implements store.Store.
func (s *Store) ListGames(ctx context.Context, q store.GameQuery) ([]store.Game, error) {
	query, args := stmt.ListGames(q, func(t time.Time) any { return t })
	return s.games(ctx, "list games", query, args...)
}

// OpenRaces implements store.Store. A limit <= 0 means no limit.
func (s *Store) OpenRaces(ctx context.Context, limit int) ([]store.Game, error) {
	q := `SELECT ` + stmt.GameColumns + ` FROM games
		WHERE kind = 'race' AND public AND status = 'waiting' AND seat2 IS NULL
		ORDER BY created_at, id`
	var args []any
	if limit > 0 {
		args = append(args, limit)
		q += ` LIMIT $1`
	}
	return s.games(ctx, "open races", q, args...)
}

func (s *Store) games(ctx context.Context, op, query string, args ...any) ([]store.Game, error) {
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, wrap(op, err)
	}
	defer rows.Close()
	games, err := store.Collect(rows, func(r pgx.Rows) (store.Game, error) { return scanGame(r) })
	return games, wrap(op, err)
}
