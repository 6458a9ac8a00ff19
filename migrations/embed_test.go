package migrations_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
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

// dialects are the two databases every migration test runs on.
var dialects = []struct {
	dialect string
	open    func(testing.TB) *sql.DB
}{
	{migrations.SQLite, mustSQLite},
	{migrations.Postgres, mustPostgres},
}

func TestUpDownUp(t *testing.T) {
	for _, tc := range dialects {
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

// TestRaceSaltMigration: races stored before the salt column get a salt of
// 16 random bytes each, and solo games none.
func TestRaceSaltMigration(t *testing.T) {
	for _, tc := range []struct {
		dialect string
		open    func(testing.TB) *sql.DB
		ph      func(int) string
		now     string
	}{
		{migrations.SQLite, mustSQLite, func(int) string { return "?" }, "0"},
		{migrations.Postgres, mustPostgres, func(i int) string { return fmt.Sprintf("$%d", i) }, "now()"},
	} {
		t.Run(tc.dialect, func(t *testing.T) {
			ctx := context.Background()
			db := tc.open(t)
			p, err := migrations.NewProvider(ctx, db, tc.dialect)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpTo(ctx, 1); err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, `INSERT INTO players (id, name, token_hash, created_at) VALUES ('p', 'P', 'h', `+tc.now+`)`); err != nil {
				t.Fatal(err)
			}
			for _, g := range [][2]string{{"r1", "race"}, {"r2", "race"}, {"s1", "solo"}} {
				q := fmt.Sprintf(`INSERT INTO games (id, kind, code, status, seat1, created_at, updated_at) VALUES (%s, %s, 'DR1-D1UI-AAAAAAB', 'over', 'p', %s, %[3]s)`, tc.ph(1), tc.ph(2), tc.now)
				if _, err := db.ExecContext(ctx, q, g[0], g[1]); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := p.Up(ctx); err != nil {
				t.Fatal(err)
			}
			salts := map[string][]byte{}
			rows, err := db.QueryContext(ctx, `SELECT id, salt FROM games ORDER BY id`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var id string
				var salt []byte
				if err := rows.Scan(&id, &salt); err != nil {
					t.Fatal(err)
				}
				salts[id] = salt
			}
			if len(salts["r1"]) != 16 || len(salts["r2"]) != 16 || bytes.Equal(salts["r1"], salts["r2"]) || salts["s1"] != nil {
				t.Fatalf("salts after the migration: %x", salts)
			}
		})
	}
}

// TestWinnableMigration: a database in use before the pool of winnable
// deals gets an empty pool and keeps its games.
func TestWinnableMigration(t *testing.T) {
	upgrade(t, 4, []string{
		`INSERT INTO players (id, name, token_hash, created_at) VALUES ('p', 'P', 'h', NOW)`,
		`INSERT INTO games (id, kind, code, status, seat1, created_at, updated_at) VALUES ('s1', 'solo', 'DS1-D1N-AAAAAAB', 'playing', 'p', NOW, NOW)`,
	}, func(t *testing.T, db *sql.DB) {
		var deals, games int
		if err := db.QueryRowContext(context.Background(), `SELECT (SELECT count(*) FROM winnable_deals), (SELECT count(*) FROM games WHERE seat1 = 'p' AND code = 'DS1-D1N-AAAAAAB')`).Scan(&deals, &games); err != nil {
			t.Fatal(err)
		}
		if deals != 0 || games != 1 {
			t.Fatalf("after the migration: %d winnable deals, %d games; want 0 and 1", deals, games)
		}
	})
}

// upgrade runs, on each dialect, the migrations up to version from, the
// statements before (NOW stands for the dialect's current time), the rest
// of the migrations, and then check.
func upgrade(t *testing.T, from int64, before []string, check func(*testing.T, *sql.DB)) {
	for _, tc := range []struct {
		dialect string
		open    func(testing.TB) *sql.DB
		now     string
	}{
		{migrations.SQLite, mustSQLite, "0"},
		{migrations.Postgres, mustPostgres, "now()"},
	} {
		t.Run(tc.dialect, func(t *testing.T) {
			ctx := context.Background()
			db := tc.open(t)
			p, err := migrations.NewProvider(ctx, db, tc.dialect)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpTo(ctx, from); err != nil {
				t.Fatal(err)
			}
			for _, q := range before {
				if _, err := db.ExecContext(ctx, strings.ReplaceAll(q, "NOW", tc.now)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := p.Up(ctx); err != nil {
				t.Fatal(err)
			}
			check(t, db)
		})
	}
}

// TestAccountsMigration: the token of a player stored before the tokens
// table still signs them in (it moves to tokens), and the row of deleted
// players is there.
func TestAccountsMigration(t *testing.T) {
	upgrade(t, 5, []string{
		`INSERT INTO players (id, name, token_hash, created_at) VALUES ('p', 'P', 'h', NOW)`,
	}, func(t *testing.T, db *sql.DB) {
		var owner, deleted string
		if err := db.QueryRowContext(context.Background(), `SELECT (SELECT player_id FROM tokens WHERE hash = 'h'), (SELECT name FROM players WHERE id = 'deleted')`).Scan(&owner, &deleted); err != nil {
			t.Fatal(err)
		}
		if owner != "p" || deleted == "" {
			t.Fatalf("after the migration: token of %q, deleted player %q", owner, deleted)
		}
	})
}

// TestOutOfOrder: a database migrated to version 6 while version 5 did not
// exist yet (two migrations that landed in the other order) gets version 5
// at the next start instead of refusing it.
func TestOutOfOrder(t *testing.T) {
	for _, tc := range dialects {
		t.Run(tc.dialect, func(t *testing.T) {
			ctx := context.Background()
			db := tc.open(t)
			p, err := migrations.NewProvider(ctx, db, tc.dialect)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpTo(ctx, 4); err != nil {
				t.Fatal(err)
			}
			if _, err := p.ApplyVersion(ctx, 6, true); err != nil {
				t.Fatal(err)
			}
			if err := migrations.Apply(ctx, db, tc.dialect); err != nil {
				t.Fatalf("Apply with version 5 missing: %v", err)
			}
			if _, err := db.ExecContext(ctx, "SELECT mode FROM winnable_deals"); err != nil {
				t.Fatalf("version 5 not applied: %v", err)
			}
		})
	}
}

// TestClientIDIndexDown: once migration 00014 has dropped the unique index
// of client ids, the store may hold an id twice; going down again keeps
// the earliest and clears the later ones, so that the index can be built.
func TestClientIDIndexDown(t *testing.T) {
	for _, tc := range []struct {
		dialect string
		open    func(testing.TB) *sql.DB
		now     string
	}{
		{migrations.SQLite, mustSQLite, "0"},
		{migrations.Postgres, mustPostgres, "now()"},
	} {
		t.Run(tc.dialect, func(t *testing.T) {
			ctx := context.Background()
			db := tc.open(t)
			p, err := migrations.NewProvider(ctx, db, tc.dialect)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpTo(ctx, 14); err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{
				`INSERT INTO players (id, name, token_hash, created_at) VALUES ('p', 'P', 'h', ` + tc.now + `)`,
				`INSERT INTO games (id, kind, code, status, seat1, created_at, updated_at) VALUES ('r1', 'race', 'DR1-D1UI-AAAAAAB', 'playing', 'p', ` + tc.now + `, ` + tc.now + `)`,
				`INSERT INTO actions (game_id, seq, seat, action, client_id, at) VALUES
					('r1', 1, 1, '{"type":"draw"}', 'a', ` + tc.now + `), ('r1', 2, 1, '{"type":"draw"}', 'a', ` + tc.now + `),
					('r1', 3, 2, '{"type":"draw"}', 'a', ` + tc.now + `), ('r1', 4, 1, '{"type":"draw"}', 'b', ` + tc.now + `),
					('r1', 5, 1, '{"type":"draw"}', 'a', ` + tc.now + `)`,
			} {
				if _, err := db.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if _, err := p.DownTo(ctx, 13); err != nil {
				t.Fatalf("down to 13 with a repeated client id: %v", err)
			}
			rows, err := db.QueryContext(ctx, `SELECT seq, COALESCE(client_id, '') FROM actions ORDER BY seq`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var got []string
			for rows.Next() {
				var seq int
				var id string
				if err := rows.Scan(&seq, &id); err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprintf("%d:%s", seq, id))
			}
			if want := "1:a 2: 3:a 4:b 5:"; strings.Join(got, " ") != want {
				t.Fatalf("client ids after down: %s, want %s", strings.Join(got, " "), want)
			}
		})
	}
}

// TestNameChecksMigration: players stored before migration 00016 have no
// name checked and no notice, and the statements of the release before
// (insert, rename, read) still work on the new columns.
func TestNameChecksMigration(t *testing.T) {
	upgrade(t, 14, []string{
		`INSERT INTO players (id, name, token_hash, created_at) VALUES ('p', 'Сomputer', 'h', NOW)`,
	}, func(t *testing.T, db *sql.DB) {
		ctx := context.Background()
		for _, q := range []string{
			`INSERT INTO players (id, name, token_hash, created_at) SELECT 'q', 'Q', 'h2', created_at FROM players WHERE id = 'p'`,
			`UPDATE players SET name = 'P' WHERE id = 'p'`,
		} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		var unchecked int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM players WHERE id IN ('p', 'q') AND name_rules IS NULL
			AND name_checked IS NULL AND renamed_from IS NULL AND renamed_at IS NULL`).Scan(&unchecked); err != nil {
			t.Fatal(err)
		}
		if unchecked != 2 {
			t.Fatalf("%d players unchecked and without a notice, want 2", unchecked)
		}
	})
}

// TestWinnableBeamMigration: a winnable deal stored before the beam column
// reads as won depth first (beam 0).
func TestWinnableBeamMigration(t *testing.T) {
	upgrade(t, 19, []string{
		`INSERT INTO winnable_deals (mode, deal, budget, positions, found_at) VALUES ('D3V', 42, 2000000, 1234, NOW)`,
	}, func(t *testing.T, db *sql.DB) {
		var beam, positions int64
		if err := db.QueryRowContext(context.Background(), `SELECT beam, positions FROM winnable_deals WHERE mode = 'D3V' AND deal = 42`).Scan(&beam, &positions); err != nil {
			t.Fatal(err)
		}
		if beam != 0 || positions != 1234 {
			t.Fatalf("after the migration: beam %d, positions %d; want 0 and 1234", beam, positions)
		}
	})
}
