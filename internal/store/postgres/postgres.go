// Package postgres is the production store of dsol on PostgreSQL (and
// CockroachDB, which speaks the same SQL), through pgx/v5 and its pool.
//
// The schema is migrated on Open with goose (through database/sql and pgx's
// stdlib driver) under a session advisory lock, so several replicas can start at
// once. Action batches are written with COPY inside one transaction. Unique
// violations (SQLSTATE 23505) become store.ErrConflict, foreign key violations
// (23503: the game or player does not exist) store.ErrNotFound, and lost or
// refused connections store.ErrUnavailable.
//
// JSON columns are text, so they read back byte for byte as written; times are
// timestamptz (microsecond precision), read back in UTC.
//
// Each role of store.Store is in a file of its name, as in package sqlite:
// players.go, devices.go, names.go, blocks.go, games.go, actions.go,
// ratings.go, stats.go, daily.go, winnable.go and retention.go, and the
// leases of live games (store.Leases) in leases.go; this file opens the
// pool, maps errors and retries transactions. The statements both adapters
// run as one text are in package stmt.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"dsol/internal/store"
	"dsol/migrations"
)

// maxAttempts bounds the retries of a transaction that failed with a
// serialization failure or a deadlock (frequent under CockroachDB's SERIALIZABLE).
const maxAttempts = 5

// Store is the PostgreSQL implementation of store.Store.
type Store struct {
	pool *pgxpool.Pool
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url (a postgres:// URL or a key=value
// connection string; pool settings such as pool_max_conns are accepted) and
// brings its schema up to date.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse url: %w", err)
	}
	return OpenConfig(ctx, cfg)
}

// OpenConfig is Open with a parsed pool configuration. The migrations use the
// same connection settings (cfg.ConnConfig), search_path included.
func OpenConfig(ctx context.Context, cfg *pgxpool.Config) (*Store, error) {
	if err := migrate(ctx, cfg.ConnConfig); err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, wrap("connect", err)
	}
	s := &Store{pool: pool}
	if err := s.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Migrate brings the schema of the database at url up to date, for
// `dsol migrate`. Open migrates too.
func Migrate(ctx context.Context, url string) error {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("postgres: parse url: %w", err)
	}
	return migrate(ctx, cfg)
}

// migrate applies the migrations through a short-lived database/sql handle.
func migrate(ctx context.Context, cfg *pgx.ConnConfig) error {
	db := stdlib.OpenDB(*cfg.Copy())
	defer db.Close()
	if err := migrations.Apply(ctx, db, migrations.Postgres); err != nil {
		return wrap("migrate", err)
	}
	return nil
}

// Ping implements store.Store.
func (s *Store) Ping(ctx context.Context) error {
	return wrap("ping", s.pool.Ping(ctx))
}

// Close implements store.Store.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// wrap maps pgx errors onto the store's errors.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("postgres: %s: %w", op, store.ErrNotFound)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "23505": // unique_violation
			return fmt.Errorf("postgres: %s: %w: %w", op, store.ErrConflict, err)
		case pe.Code == "23503": // foreign_key_violation
			return fmt.Errorf("postgres: %s: %w: %w", op, store.ErrNotFound, err)
		case strings.HasPrefix(pe.Code, "08"), // connection exception
			strings.HasPrefix(pe.Code, "53"), // insufficient resources: disk_full, out_of_memory, too_many_connections
			pe.Code == "57P01",               // admin_shutdown
			pe.Code == "57P02",               // crash_shutdown
			pe.Code == "57P03":               // cannot_connect_now
			return fmt.Errorf("postgres: %s: %w: %w", op, store.ErrUnavailable, err)
		}
		return fmt.Errorf("postgres: %s: %w", op, err)
	}
	if unreachable(err) {
		return fmt.Errorf("postgres: %s: %w: %w", op, store.ErrUnavailable, err)
	}
	return fmt.Errorf("postgres: %s: %w", op, err)
}

// unreachable reports whether err means the server could not be reached or the
// connection was lost (as opposed to an error of the statement).
func unreachable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) ||
		pgconn.SafeToRetry(err) || pgconn.Timeout(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE)
}

// retryable reports a serialization failure or a deadlock: the transaction may
// simply be run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// inTx runs fn in a transaction (pgx.BeginFunc), again when it failed with a
// serialization failure or a deadlock.
func (s *Store) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	var err error
	for attempt := 1; ; attempt++ {
		err = pgx.BeginFunc(ctx, s.pool, fn)
		if err == nil || !retryable(err) || attempt == maxAttempts || ctx.Err() != nil {
			return err
		}
		time.Sleep(time.Duration(attempt) * time.Millisecond)
	}
}

func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nullBytes(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// affected maps an UPDATE that matched no row to store.ErrNotFound.
func affected(op string, tag pgconn.CommandTag, err error) error {
	if err != nil {
		return wrap(op, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres: %s: %w", op, store.ErrNotFound)
	}
	return nil
}

// querier is the pool or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// ids runs a query of one text column and collects it.
func ids(ctx context.Context, tx pgx.Tx, query string, args ...any) ([]string, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
