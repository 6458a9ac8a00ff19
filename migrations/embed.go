// Package migrations holds the SQL schema of dsol, one folder of goose
// migrations per dialect (sqlite/ and postgres/), embedded into the binary,
// and the Go migrations that rework stored data (ratings.go), and applies
// them with goose's Provider.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// The dialects understood by [Apply] and [NewProvider].
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// FS holds the migrations of every dialect: sqlite/*.sql and postgres/*.sql.
//
//go:embed sqlite/*.sql postgres/*.sql
var FS embed.FS

// Dialect returns the migrations of one dialect, rooted at its folder.
func Dialect(dialect string) (fs.FS, error) {
	switch dialect {
	case SQLite, Postgres:
		return fs.Sub(FS, dialect)
	}
	return nil, fmt.Errorf("migrations: unknown dialect %q", dialect)
}

// NewProvider returns a goose Provider for db and the migrations of dialect.
//
// For PostgreSQL the Provider holds a session-level advisory lock while it
// migrates, so several replicas may start at once: one migrates, the others wait
// and then find nothing to do. The lock id is derived from the current schema,
// so databases or schemas that are migrated independently do not wait on each
// other.
//
// A migration missing below the database's version (one that landed after
// a later one) is applied, not refused.
//
// Closing the Provider closes db.
func NewProvider(ctx context.Context, db *sql.DB, dialect string) (*goose.Provider, error) {
	fsys, err := Dialect(dialect)
	if err != nil {
		return nil, err
	}
	// Migrations written at the same time may land in either order: a
	// database already migrated past a version that appears later applies
	// it then instead of refusing to start.
	opts := []goose.ProviderOption{goose.WithAllowOutofOrder(true), goose.WithGoMigrations(ratingsMigration(dialect))}
	var gd goose.Dialect
	switch dialect {
	case SQLite:
		gd = goose.DialectSQLite3
	case Postgres:
		gd = goose.DialectPostgres
		id, err := postgresLockID(ctx, db)
		if err != nil {
			return nil, err
		}
		locker, err := lock.NewPostgresSessionLocker(
			lock.WithLockID(id),
			lock.WithLockTimeout(1, 300),  // poll every second, up to 5 minutes
			lock.WithUnlockTimeout(1, 60), // poll every second, up to 1 minute
		)
		if err != nil {
			return nil, fmt.Errorf("migrations: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(gd, db, fsys, opts...)
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return p, nil
}

// postgresLockID names the advisory lock of the schema that db migrates.
func postgresLockID(ctx context.Context, db *sql.DB) (int64, error) {
	var schema sql.NullString
	if err := db.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		return 0, fmt.Errorf("migrations: current schema: %w", err)
	}
	if !schema.Valid {
		return 0, errors.New("migrations: no current schema (check search_path)")
	}
	h := fnv.New64a()
	h.Write([]byte("dsol migrations\x00" + schema.String))
	return int64(h.Sum64()), nil
}

// Apply brings the schema of db up to date with the migrations of dialect
// ([SQLite] or [Postgres]). It does not close db.
func Apply(ctx context.Context, db *sql.DB, dialect string) error {
	p, err := NewProvider(ctx, db, dialect)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrations: %s: %w", dialect, err)
	}
	return nil
}
