package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// Tokens implements store.Store.
func (s *Store) Tokens(ctx context.Context, playerID string) ([]store.Token, error) {
	rows, err := s.r.QueryContext(ctx, stmt.Tokens, playerID)
	if err != nil {
		return nil, wrap("tokens", err)
	}
	defer rows.Close()
	toks := []store.Token{}
	for rows.Next() {
		var t store.Token
		var created int64
		if err := rows.Scan(&t.Hash, &created); err != nil {
			return nil, wrap("tokens", err)
		}
		t.CreatedAt = fromMicros(created)
		toks = append(toks, t)
	}
	return toks, wrap("tokens", rows.Err())
}

// RevokeToken implements store.Store.
func (s *Store) RevokeToken(ctx context.Context, hash []byte) error {
	res, err := s.w.ExecContext(ctx, stmt.RevokeToken, hash)
	return affected("revoke token", res, err)
}

// RevokeTokens implements store.Store.
func (s *Store) RevokeTokens(ctx context.Context, playerID string) (int, error) {
	res, err := s.w.ExecContext(ctx, stmt.RevokeTokens, playerID)
	if err != nil {
		return 0, wrap("revoke tokens", err)
	}
	n, err := res.RowsAffected()
	return int(n), wrap("revoke tokens", err)
}

// PutLinkCode implements store.Store.
func (s *Store) PutLinkCode(ctx context.Context, c store.LinkCode) error {
	_, err := s.w.ExecContext(ctx, stmt.PutLinkCode, c.PlayerID, c.Hash, micros(c.Expires), micros(c.CreatedAt))
	return wrap("put link code", err)
}

func scanLinkCode(row store.Row) (store.LinkCode, error) {
	var c store.LinkCode
	var expires, created int64
	var used sql.NullInt64
	if err := row.Scan(&c.PlayerID, &c.Hash, &expires, &used, &created); err != nil {
		return store.LinkCode{}, err
	}
	c.Expires, c.CreatedAt = fromMicros(expires), fromMicros(created)
	if used.Valid {
		c.UsedAt = fromMicros(used.Int64)
	}
	return c, nil
}

// LinkCode implements store.Store.
func (s *Store) LinkCode(ctx context.Context, playerID string) (store.LinkCode, error) {
	c, err := scanLinkCode(s.r.QueryRowContext(ctx, stmt.LinkCode, playerID))
	return c, wrap("link code", err)
}

// RedeemLinkCode implements store.Store: one IMMEDIATE transaction, so a
// code is used once however many redeem it at the same time.
func (s *Store) RedeemLinkCode(ctx context.Context, hash, tokenHash []byte, now time.Time) (store.LinkCode, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return store.LinkCode{}, wrap("redeem link code", err)
	}
	defer tx.Rollback()
	c, err := scanLinkCode(tx.QueryRowContext(ctx, stmt.LinkCodeByHash, hash))
	if err != nil {
		return store.LinkCode{}, wrap("redeem link code", err)
	}
	if !c.UsedAt.IsZero() || !now.Before(c.Expires) {
		return c, fmt.Errorf("sqlite: redeem link code: %w", store.ErrConflict)
	}
	c.UsedAt = now
	if _, err := tx.ExecContext(ctx, stmt.UseLinkCode, micros(now), c.PlayerID); err != nil {
		return store.LinkCode{}, wrap("redeem link code", err)
	}
	if _, err := tx.ExecContext(ctx, stmt.InsertToken, tokenHash, c.PlayerID, micros(now)); err != nil {
		return store.LinkCode{}, wrap("redeem link code", err)
	}
	return c, wrap("redeem link code", tx.Commit())
}
