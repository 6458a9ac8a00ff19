package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// CreatePlayer implements store.Store: the player and its first token, in
// one transaction.
func (s *Store) CreatePlayer(ctx context.Context, p store.Player) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// players.token_hash too, for the nodes of the release before
		// (see migration 00008); its trigger writes the tokens row.
		if _, err := tx.Exec(ctx, `INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)`,
			p.ID, p.Name, p.TokenHash, p.CreatedAt); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, stmt.InsertToken+` ON CONFLICT (hash) DO NOTHING`,
			p.TokenHash, p.ID, p.CreatedAt)
		return err
	})
	return wrap("create player", err)
}

func scanPlayer(row pgx.Row, hash []byte) (store.Player, error) {
	p := store.Player{TokenHash: hash}
	if err := row.Scan(&p.ID, &p.Name, &p.CreatedAt); err != nil {
		return store.Player{}, err
	}
	p.CreatedAt = p.CreatedAt.UTC()
	return p, nil
}

// PlayerByTokenHash implements store.Store.
func (s *Store) PlayerByTokenHash(ctx context.Context, hash []byte) (store.Player, error) {
	p, err := scanPlayer(s.pool.QueryRow(ctx, stmt.PlayerByTokenHash, hash), hash)
	return p, wrap("player by token", err)
}

// Player implements store.Store.
func (s *Store) Player(ctx context.Context, id string) (store.Player, error) {
	p, err := scanPlayer(s.pool.QueryRow(ctx, stmt.Player, id), nil)
	return p, wrap("player", err)
}

// DeletePlayer implements store.Store in one transaction that first locks
// the player's row and games, so that nobody joins or changes them meanwhile.
func (s *Store) DeletePlayer(ctx context.Context, id string) ([]string, error) {
	var kept []string
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var locked string
		if err := tx.QueryRow(ctx, `SELECT id FROM players WHERE id = $1 FOR UPDATE`, id).Scan(&locked); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT id FROM games WHERE seat1 = $1 OR seat2 = $1 FOR UPDATE`, id); err != nil {
			return err
		}
		for _, q := range stmt.DeleteOwn {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		var err error
		if kept, err = ids(ctx, tx, stmt.SeatedGames, id); err != nil {
			return err
		}
		for _, q := range stmt.PassSeats {
			if _, err := tx.Exec(ctx, q, id, store.DeletedPlayerID); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, stmt.DeletePlayer, id)
		return err
	})
	if err != nil {
		return nil, wrap("delete player", err)
	}
	if kept == nil {
		kept = []string{}
	}
	return kept, nil
}

// RenamePlayer implements store.Store.
func (s *Store) RenamePlayer(ctx context.Context, id, name string) error {
	tag, err := s.pool.Exec(ctx, stmt.RenamePlayer, name, id)
	return affected("rename player", tag, err)
}
