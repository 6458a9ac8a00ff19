package memory

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"dsol/internal/load/loadtest"
)

// TestLoadGames builds live solo games of a length, past a snapshot, and
// reads the server's memory (the test process is the server); then wakes
// them in a server started afresh on the same database.
func TestLoadGames(t *testing.T) {
	s := loadtest.MustServe(t, 100000) // the limits a run of this mode needs
	ids := filepath.Join(t.TempDir(), "games.ids")
	cfg := Config{Base: s.Base, Games: 60, Actions: 130, Clients: 8, Duration: 100 * time.Millisecond,
		Setup: 30 * time.Second, PIDs: []int{os.Getpid()}, IDs: ids}
	rep, err := Games(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Woken || rep.Games != 60 || rep.Players != 2 || rep.Built != 60*130 || rep.LiveTablesBefore != 0 || rep.LiveTables < 60 ||
		rep.RSSAfterKiB <= 0 || rep.Go.HeapAfterKiB <= 0 {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Errors) != 0 {
		t.Fatalf("errors %v", rep.Errors)
	}
	games := mustReadGames(t, ids)
	if len(games) != 60 {
		t.Fatalf("%d games in --ids, want 60", len(games))
	}

	wake := Config{Base: s.Base, Clients: 3, Duration: 100 * time.Millisecond, Setup: 30 * time.Second,
		PIDs: []int{os.Getpid()}, Wake: ids}
	t.Run("the server that built them", func(t *testing.T) {
		_, err := Games(context.Background(), wake)
		if err == nil || !strings.Contains(err.Error(), "60 live tables") {
			t.Fatalf("wake in the server that holds the games: %v", err)
		}
	})
	s.Stop()
	again := loadtest.MustServeOn(t, s.Store, 0) // the default limits: a wake is one GET a game
	wake.Base = again.Base
	t.Run("woken", func(t *testing.T) {
		rep, err := Games(context.Background(), wake)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Woken || rep.Games != 60 || rep.Players != 2 || rep.Actions != 130 || rep.Built != 60*130 ||
			rep.LiveTablesBefore != 0 || rep.LiveTables != 60 || rep.BuildSeconds <= 0 || rep.RSSAfterKiB <= 0 || rep.Go.HeapAfterKiB <= 0 {
			t.Fatalf("report %+v", rep)
		}
		if len(rep.Errors) != 0 {
			t.Fatalf("errors %v", rep.Errors)
		}
	})
	t.Run("a game not there", func(t *testing.T) {
		other := loadtest.MustServeOn(t, s.Store, 0)
		bad := filepath.Join(t.TempDir(), "bad.ids")
		if err := os.WriteFile(bad, []byte(games[0].ID+" "+games[0].Token+"\nnogame "+games[0].Token+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg := wake
		cfg.Base, cfg.Wake = other.Base, bad
		_, err := Games(context.Background(), cfg)
		if err == nil || !strings.Contains(err.Error(), "1 of 2 games woken") || !strings.Contains(err.Error(), "not_found 1") {
			t.Fatalf("wake of a game not there: %v", err)
		}
	})
	t.Run("no file", func(t *testing.T) {
		cfg := wake
		cfg.Wake = filepath.Join(t.TempDir(), "none")
		if _, err := Games(context.Background(), cfg); err == nil {
			t.Fatal("wake of a file not there")
		}
	})

	cfg.PIDs = nil
	if _, err := Games(context.Background(), cfg); err == nil {
		t.Fatal("games mode without --pid")
	}
}

// TestGamesFile: what WriteGames writes, ReadGames reads back, and a file
// that is not one is refused.
func TestGamesFile(t *testing.T) {
	games := []Game{{ID: "g1", Token: "t1"}, {ID: "g2", Token: "t2"}}
	var b bytes.Buffer
	if err := WriteGames(&b, games); err != nil {
		t.Fatal(err)
	}
	if b.String() != "g1 t1\ng2 t2\n" {
		t.Fatalf("written %q", b.String())
	}
	got, err := ReadGames(&b)
	if err != nil || !reflect.DeepEqual(got, games) {
		t.Fatalf("read back %v, %v", got, err)
	}
	for _, tc := range []struct{ name, file, err string }{
		{"empty", "", "no games"},
		{"no token", "g1 t1\ng2\n", "line 2"},
		{"three fields", "g1 t1 x\n", "line 1"},
		{"a blank line", "g1 t1\n\ng2 t2\n", "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ReadGames(strings.NewReader(tc.file)); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
		})
	}
}

// mustReadGames reads a file of --ids.
func mustReadGames(tb testing.TB, path string) []Game {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	games, err := ReadGames(f)
	if err != nil {
		tb.Fatal(err)
	}
	return games
}
