package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
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
		_, err := tx.Exec(ctx, `INSERT INTO tokens (hash, player_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING`,
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
	p, err := scanPlayer(s.pool.QueryRow(ctx,
		`SELECT p.id, p.name, p.created_at FROM tokens AS t JOIN players AS p ON p.id = t.player_id WHERE t.hash = $1`, hash), hash)
	return p, wrap("player by token", err)
}

// Player implements store.Store.
func (s *Store) Player(ctx context.Context, id string) (store.Player, error) {
	p, err := scanPlayer(s.pool.QueryRow(ctx,
		`SELECT id, name, created_at FROM players WHERE id = $1`, id), nil)
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
		for _, q := range []string{
			`DELETE FROM tokens WHERE player_id = $1`,
			`DELETE FROM link_codes WHERE player_id = $1`,
			`DELETE FROM blocks WHERE player_id = $1 OR blocked_id = $1`,
			`DELETE FROM ratings WHERE player_id = $1`,
			`DELETE FROM daily_entries WHERE player_id = $1`,
			`DELETE FROM actions WHERE game_id IN (SELECT id FROM games WHERE ` + store.OwnGames + `)`,
			`DELETE FROM games WHERE ` + store.OwnGames,
		} {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		var err error
		if kept, err = ids(ctx, tx, `SELECT id FROM games WHERE seat1 = $1 OR seat2 = $1 ORDER BY id`, id); err != nil {
			return err
		}
		for _, q := range []string{
			`UPDATE games SET seat1 = $2 WHERE seat1 = $1`,
			`UPDATE games SET seat2 = $2 WHERE seat2 = $1`,
			`UPDATE race_ratings SET seat1 = $2 WHERE seat1 = $1`,
			`UPDATE race_ratings SET seat2 = $2 WHERE seat2 = $1`,
		} {
			if _, err := tx.Exec(ctx, q, id, store.DeletedPlayerID); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `DELETE FROM players WHERE id = $1`, id)
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
	tag, err := s.pool.Exec(ctx, `UPDATE players SET name = $1, renamed_from = NULL, renamed_at = NULL WHERE id = $2`, name, id)
	return affected("rename player", tag, err)
}
