package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// CreatePlayer implements store.Store: the player and its first token, in
// one transaction. players.token_hash holds the id (migration 00008).
func (s *Store) CreatePlayer(ctx context.Context, p store.Player) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("create player", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO players (id, name, token_hash, created_at) VALUES (?, ?, CAST(? AS BLOB), ?)`,
		p.ID, p.Name, p.ID, micros(p.CreatedAt)); err != nil {
		return wrap("create player", err)
	}
	if _, err := tx.ExecContext(ctx, stmt.InsertToken, p.TokenHash, p.ID, micros(p.CreatedAt)); err != nil {
		return wrap("create player", err)
	}
	return wrap("create player", tx.Commit())
}

func scanPlayer(row *sql.Row, hash []byte) (store.Player, error) {
	p := store.Player{TokenHash: hash}
	var created int64
	if err := row.Scan(&p.ID, &p.Name, &created); err != nil {
		return store.Player{}, err
	}
	p.CreatedAt = fromMicros(created)
	return p, nil
}

// PlayerByTokenHash implements store.Store.
func (s *Store) PlayerByTokenHash(ctx context.Context, hash []byte) (store.Player, error) {
	p, err := scanPlayer(s.r.QueryRowContext(ctx, stmt.PlayerByTokenHash, hash), hash)
	return p, wrap("player by token", err)
}

// Player implements store.Store.
func (s *Store) Player(ctx context.Context, id string) (store.Player, error) {
	p, err := scanPlayer(s.r.QueryRowContext(ctx, stmt.Player, id), nil)
	return p, wrap("player", err)
}

// DeletePlayer implements store.Store: one IMMEDIATE transaction, so no
// game changes seats between the steps.
func (s *Store) DeletePlayer(ctx context.Context, id string) ([]string, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, wrap("delete player", err)
	}
	defer tx.Rollback()
	for _, q := range stmt.DeleteOwn {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return nil, wrap("delete player", err)
		}
	}
	rows, err := tx.QueryContext(ctx, stmt.SeatedGames, id)
	if err != nil {
		return nil, wrap("delete player", err)
	}
	kept := []string{}
	for rows.Next() {
		var g string
		if err := rows.Scan(&g); err != nil {
			rows.Close()
			return nil, wrap("delete player", err)
		}
		kept = append(kept, g)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, wrap("delete player", err)
	}
	for _, q := range stmt.PassSeats {
		if _, err := tx.ExecContext(ctx, q, id, store.DeletedPlayerID); err != nil {
			return nil, wrap("delete player", err)
		}
	}
	res, err := tx.ExecContext(ctx, stmt.DeletePlayer, id)
	if err := affected("delete player", res, err); err != nil {
		return nil, err
	}
	return kept, wrap("delete player", tx.Commit())
}

// RenamePlayer implements store.Store.
func (s *Store) RenamePlayer(ctx context.Context, id, name string) error {
	res, err := s.w.ExecContext(ctx, stmt.RenamePlayer, name, id)
	return affected("rename player", res, err)
}
