package migrations_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"

	"dsol/internal/testenv"
	"dsol/migrations"
)

func mustSQLite(tb testing.TB) *sql.DB {
	tb.Helper()
	db, err := sql.Open("sqlite", filepath.Join(tb.TempDir(), "m.db")+"?_pragma=foreign_keys(1)")
	if err != nil {
		tb.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	tb.Cleanup(func() { db.Close() })
	return db
}

// mustPostgres returns a handle on a fresh schema, dropped at the end.
func mustPostgres(tb testing.TB) *sql.DB {
	tb.Helper()
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(testenv.PostgresURL(tb))
	if err != nil {
		tb.Fatal(err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "dsol_mig_" + hex.EncodeToString(b)
	admin := stdlib.OpenDB(*cfg.Copy())
	tb.Cleanup(func() { admin.Close() })
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if _, err := admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			tb.Error(err)
		}
	})
	cfg.RuntimeParams["search_path"] = schema
	db := stdlib.OpenDB(*cfg)
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestUpDownUp(t *testing.T) {
	for _, tc := range []struct {
		dialect string
		open    func(testing.TB) *sql.DB
	}{
		{migrations.SQLite, mustSQLite},
		{migrations.Postgres, mustPostgres},
	} {
		t.Run(tc.dialect, func(t *testing.T) {
			ctx := context.Background()
			db := tc.open(t)
			if err := migrations.Apply(ctx, db, tc.dialect); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if err := migrations.Apply(ctx, db, tc.dialect); err != nil {
				t.Fatalf("Apply again: %v", err)
			}
			p, err := migrations.NewProvider(ctx, db, tc.dialect)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.DownTo(ctx, 0); err != nil {
				t.Fatalf("down: %v", err)
			}
			if v, err := p.GetDBVersion(ctx); err != nil || v != 0 {
				t.Fatalf("version after down: %d, %v", v, err)
			}
			if _, err := p.Up(ctx); err != nil {
				t.Fatalf("up after down: %v", err)
			}
			if _, err := db.ExecContext(ctx, "SELECT game_id, seq, seat, action, client_id, at FROM actions"); err != nil {
				t.Fatalf("actions table: %v", err)
			}
		})
	}
}

func TestDialects(t *testing.T) {
	sqlite, err := fs.Glob(migrations.FS, "sqlite/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	postgres, err := fs.Glob(migrations.FS, "postgres/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if len(sqlite) == 0 || len(sqlite) != len(postgres) {
		t.Fatalf("%d sqlite and %d postgres migrations: every migration exists in both dialects", len(sqlite), len(postgres))
	}
	for i := range sqlite {
		if filepath.Base(sqlite[i]) != filepath.Base(postgres[i]) {
			t.Errorf("migration %d: %s vs %s", i, sqlite[i], postgres[i])
		}
	}
	if _, err := migrations.Dialect("mysql"); err == nil {
		t.Error("unknown dialect accepted")
	}
}
