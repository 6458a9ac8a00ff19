package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/sqlite"
	"dsol/internal/store/storetest"
)

// fill stores a player, a game and its actions.
func fill(t *testing.T, s store.Store, game string, actions int) {
	t.Helper()
	ctx := context.Background()
	if err := s.CreatePlayer(ctx, storetest.NewPlayer("p-"+game)); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateGame(ctx, storetest.NewSolo(game, "p-"+game, time.Now())); err != nil {
		t.Fatal(err)
	}
	var as []store.Action
	for seq := int64(1); seq <= int64(actions); seq++ {
		as = append(as, storetest.NewAction(game, seq, 1, ""))
	}
	if err := s.AppendActions(ctx, as); err != nil {
		t.Fatal(err)
	}
}

// mustHave checks that the database at path holds game with n actions.
func mustHave(t *testing.T, path, game string, n int) {
	t.Helper()
	s := mustOpen(t, path)
	defer s.Close()
	if _, err := s.Game(context.Background(), game); err != nil {
		t.Fatalf("%s: game %s: %v", path, game, err)
	}
	as, err := s.Actions(context.Background(), game, 0)
	if err != nil || len(as) != n {
		t.Fatalf("%s: game %s: %d actions, %v; want %d", path, game, len(as), err, n)
	}
}

// files lists the names in dir.
func files(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func TestBackupWhileOpen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	s := mustOpen(t, live)
	defer s.Close()
	fill(t, s, "g1", 30)
	out := filepath.Join(t.TempDir(), "copy.db")
	if err := sqlite.Backup(ctx, live, out); err != nil {
		t.Fatal(err)
	}
	// The store goes on writing; the copy stays as it was.
	fill(t, s, "g2", 5)
	if got := files(t, filepath.Dir(out)); len(got) != 1 || got[0] != "copy.db" {
		t.Fatalf("files next to the backup: %v, want copy.db alone", got)
	}
	mustHave(t, out, "g1", 30)
	c := mustOpen(t, out)
	_, err := c.Game(ctx, "g2")
	c.Close()
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a game stored after the backup is in it: %v", err)
	}
}

func TestBackupRefuses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	s := mustOpen(t, live)
	fill(t, s, "g1", 1)
	s.Close()

	existing := filepath.Join(dir, "existing.db")
	if err := os.WriteFile(existing, nil, 0o600); err != nil { // empty: VACUUM INTO would take it
		t.Fatal(err)
	}
	if err := sqlite.Backup(ctx, live, existing); !errors.Is(err, sqlite.ErrExists) {
		t.Fatalf("backup onto an existing file: %v, want ErrExists", err)
	}
	missing := filepath.Join(dir, "missing.db")
	if err := sqlite.Backup(ctx, missing, filepath.Join(dir, "out.db")); err == nil {
		t.Fatal("backup of a missing database succeeded")
	}
	plain := filepath.Join(dir, "plain.db")
	db, err := sql.Open("sqlite", plain)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t (x)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := sqlite.Backup(ctx, plain, filepath.Join(dir, "out.db")); !errors.Is(err, sqlite.ErrNotBackup) {
		t.Fatalf("backup of a database that is not dsol's: %v, want ErrNotBackup", err)
	}
	if got := files(t, dir); len(got) != 3 {
		t.Fatalf("files left: %v, want existing.db, live.db and plain.db", got)
	}
}

func TestRestore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	s := mustOpen(t, live)
	fill(t, s, "old", 2)
	backup := filepath.Join(dir, "backup.db")
	fill(t, s, "g1", 7)
	if err := sqlite.Backup(ctx, live, backup); err != nil {
		t.Fatal(err)
	}

	t.Run("NewPath", func(t *testing.T) {
		fresh := filepath.Join(t.TempDir(), "fresh.db")
		if err := sqlite.Restore(ctx, backup, fresh, false); err != nil {
			t.Fatal(err)
		}
		mustHave(t, fresh, "g1", 7)
	})
	t.Run("ClosedDatabase", func(t *testing.T) {
		// A database closed cleanly (WAL mode, no -wal left) restores as a
		// backup does, and leaves nothing behind.
		d := t.TempDir()
		closed := filepath.Join(d, "closed.db")
		c := mustOpen(t, closed)
		fill(t, c, "c1", 3)
		c.Close()
		if err := sqlite.Restore(ctx, closed, filepath.Join(d, "new.db"), false); err != nil {
			t.Fatal(err)
		}
		if got := files(t, d); len(got) != 2 || got[0] != "closed.db" || got[1] != "new.db" {
			t.Fatalf("files after the restore: %v, want closed.db and new.db", got)
		}
		mustHave(t, filepath.Join(d, "new.db"), "c1", 3)
	})
	t.Run("ExistingNeedsForce", func(t *testing.T) {
		if err := sqlite.Restore(ctx, backup, live, false); !errors.Is(err, sqlite.ErrExists) {
			t.Fatalf("restore onto an existing database: %v, want ErrExists", err)
		}
	})
	t.Run("InUse", func(t *testing.T) {
		// The store still has live.db open, as a running server would.
		if err := sqlite.Restore(ctx, backup, live, true); !errors.Is(err, sqlite.ErrInUse) {
			t.Fatalf("restore onto an open database: %v, want ErrInUse", err)
		}
		fill(t, s, "g2", 1) // the store works on
	})
	t.Run("NotABackup", func(t *testing.T) {
		// The live database itself, with its write-ahead log, is not one.
		if err := sqlite.Restore(ctx, live, filepath.Join(t.TempDir(), "x.db"), false); !errors.Is(err, sqlite.ErrNotBackup) {
			t.Fatalf("restore from a database in use: %v, want ErrNotBackup", err)
		}
		junk := filepath.Join(t.TempDir(), "junk")
		if err := os.WriteFile(junk, []byte("not a database at all, clearly not"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := sqlite.Restore(ctx, junk, filepath.Join(t.TempDir(), "x.db"), false); !errors.Is(err, sqlite.ErrNotBackup) {
			t.Fatalf("restore from junk: %v, want ErrNotBackup", err)
		}
		if err := sqlite.Restore(ctx, backup, backup, true); err == nil {
			t.Fatal("restore of a backup onto itself succeeded")
		}
	})
	t.Run("Force", func(t *testing.T) {
		if err := os.Chmod(live, 0o640); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if err := sqlite.Restore(ctx, backup, live, true); err != nil {
			t.Fatal(err)
		}
		if got := files(t, dir); len(got) != 2 || got[0] != "backup.db" || got[1] != "live.db" {
			t.Fatalf("files after the restore: %v, want backup.db and live.db (no -wal, -shm or temporary file)", got)
		}
		if st, err := os.Stat(live); err != nil || st.Mode().Perm() != 0o640 {
			t.Fatalf("restored file: %v, %v; want the old permissions 0640", st.Mode(), err)
		}
		mustHave(t, live, "g1", 7)
		r := mustOpen(t, live)
		defer r.Close()
		if _, err := r.Game(ctx, "g2"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a game stored after the backup survived the restore: %v", err)
		}
	})
}
