package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// Tokens implements store.Store.
func (s *Store) Tokens(ctx context.Context, playerID string) ([]store.Token, error) {
	rows, err := s.pool.Query(ctx, stmt.Tokens, playerID)
	if err != nil {
		return nil, wrap("tokens", err)
	}
	toks, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Token, error) {
		var t store.Token
		err := row.Scan(&t.Hash, &t.CreatedAt)
		t.CreatedAt = t.CreatedAt.UTC()
		return t, err
	})
	if toks == nil {
		toks = []store.Token{}
	}
	return toks, wrap("tokens", err)
}

// RevokeToken implements store.Store.
func (s *Store) RevokeToken(ctx context.Context, hash []byte) error {
	var tag pgconn.CommandTag
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE players SET token_hash = NULL WHERE token_hash = $1`, hash); err != nil {
			return err
		}
		var err error
		tag, err = tx.Exec(ctx, stmt.RevokeToken, hash)
		return err
	})
	return affected("revoke token", tag, err)
}

// RevokeTokens implements store.Store.
func (s *Store) RevokeTokens(ctx context.Context, playerID string) (int, error) {
	var tag pgconn.CommandTag
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE players SET token_hash = NULL WHERE id = $1`, playerID); err != nil {
			return err
		}
		var err error
		tag, err = tx.Exec(ctx, stmt.RevokeTokens, playerID)
		return err
	})
	return int(tag.RowsAffected()), wrap("revoke tokens", err)
}

// PutLinkCode implements store.Store.
func (s *Store) PutLinkCode(ctx context.Context, c store.LinkCode) error {
	_, err := s.pool.Exec(ctx, stmt.PutLinkCode, c.PlayerID, c.Hash, c.Expires, c.CreatedAt)
	return wrap("put link code", err)
}

func scanLinkCode(row pgx.Row) (store.LinkCode, error) {
	var c store.LinkCode
	var used *time.Time
	if err := row.Scan(&c.PlayerID, &c.Hash, &c.Expires, &used, &c.CreatedAt); err != nil {
		return store.LinkCode{}, err
	}
	c.Expires, c.CreatedAt = c.Expires.UTC(), c.CreatedAt.UTC()
	if used != nil {
		c.UsedAt = used.UTC()
	}
	return c, nil
}

// LinkCode implements store.Store.
func (s *Store) LinkCode(ctx context.Context, playerID string) (store.LinkCode, error) {
	c, err := scanLinkCode(s.pool.QueryRow(ctx, stmt.LinkCode, playerID))
	return c, wrap("link code", err)
}

// errSpent ends the transaction of a code used before or expired.
var errSpent = fmt.Errorf("postgres: redeem link code: %w", store.ErrConflict)

// RedeemLinkCode implements store.Store: the code's row is locked FOR
// UPDATE, so it is used once however many redeem it at the same time.
func (s *Store) RedeemLinkCode(ctx context.Context, hash, tokenHash []byte, now time.Time) (store.LinkCode, error) {
	var c store.LinkCode
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		c, err = scanLinkCode(tx.QueryRow(ctx, stmt.LinkCodeByHash+` FOR UPDATE`, hash))
		if err != nil {
			return err
		}
		if !c.UsedAt.IsZero() || !now.Before(c.Expires) {
			return errSpent
		}
		c.UsedAt = now
		if _, err := tx.Exec(ctx, stmt.UseLinkCode, now, c.PlayerID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, stmt.InsertToken, tokenHash, c.PlayerID, now)
		return err
	})
	if errors.Is(err, errSpent) {
		return c, err
	}
	if err != nil {
		return store.LinkCode{}, wrap("redeem link code", err)
	}
	return c, nil
}
