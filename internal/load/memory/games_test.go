package memory

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
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
	t.Run("added", func(t *testing.T) {
		// One server afresh: the first half of the file woken as above, then
		// the second half added to it.
		other := loadtest.MustServeOn(t, s.Store, 0)
		dir := t.TempDir()
		first, second := filepath.Join(dir, "first.ids"), filepath.Join(dir, "second.ids")
		mustWriteGames(t, first, games[:20])
		mustWriteGames(t, second, games[20:])
		cfg := wake
		cfg.Base, cfg.Wake, cfg.Added = other.Base, second, true
		if _, err := Games(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "--added") || !strings.Contains(err.Error(), "no live table") {
			t.Fatalf("--added on a server that holds no live table: %v", err)
		}
		cfg.Wake, cfg.Added = first, false
		if rep, err := Games(context.Background(), cfg); err != nil || rep.Added || rep.Games != 20 || rep.LiveTables != 20 {
			t.Fatalf("the first half: %+v, %v", rep, err)
		}
		cfg.Wake = second
		if _, err := Games(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "20 live tables") {
			t.Fatalf("the second half without --added: %v", err)
		}
		cfg.Added = true
		rep, err := Games(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Woken || !rep.Added || rep.Games != 40 || rep.Players != 2 || rep.Actions != 130 || rep.Built != 40*130 ||
			rep.LiveTablesBefore != 20 || rep.LiveTables != 60 || rep.RSSAfterKiB <= 0 || rep.Go.HeapAfterKiB <= 0 {
			t.Fatalf("report %+v", rep)
		}
		if rep.KiBPerGame != float64(rep.RSSAfterKiB-rep.RSSBeforeKiB)/40 {
			t.Fatalf("%.2f KiB per game: want the growth over the 40 games added, %d -> %d KiB", rep.KiBPerGame, rep.RSSBeforeKiB, rep.RSSAfterKiB)
		}
		var text bytes.Buffer
		rep.WriteText(&text)
		for _, want := range []string{"40 solo games of 130 actions woken (2 players), added to 20 live tables", "before them (20 live tables)", "with them (60)"} {
			if !strings.Contains(text.String(), want) {
				t.Errorf("text report without %q:\n%s", want, text.String())
			}
		}
		if _, err := Games(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "0 of the 40 games") || !strings.Contains(err.Error(), "live already") {
			t.Fatalf("--added of games live already: %v", err)
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

// TestWakeRetries: a wake tries a game again when the server answers it
// is unavailable for now (a lease moving, a database busy), as it says to.
func TestWakeRetries(t *testing.T) {
	var mu sync.Mutex
	tried, live := map[string]bool{}, 0
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "go_memstats_heap_inuse_bytes 1e+06\ngo_memstats_stack_inuse_bytes 65536\ngo_goroutines 10\ndsol_live_tables %d\n", live)
	})
	mux.HandleFunc("GET /api/v1/games/{id}", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if id := r.PathValue("id"); !tried[id] {
			tried[id] = true
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `{"error":{"code":"unavailable","message":"the game is moving between nodes; retry"}}`)
			return
		}
		live++
		fmt.Fprint(w, `{"seq":7}`)
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	ids := filepath.Join(t.TempDir(), "games.ids")
	mustWriteGames(t, ids, []Game{{ID: "g1", Token: "t1"}, {ID: "g2", Token: "t1"}, {ID: "g3", Token: "t2"}})
	rep, err := Games(context.Background(), Config{Base: ts.URL, Clients: 2, Duration: time.Millisecond, Setup: 30 * time.Second,
		PIDs: []int{os.Getpid()}, Wake: ids})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 3 || rep.Players != 2 || rep.Actions != 7 || rep.LiveTables != 3 || rep.Errors["unavailable"] != 3 {
		t.Fatalf("report %+v", rep)
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

// mustWriteGames writes games to a file of --ids.
func mustWriteGames(tb testing.TB, path string, games []Game) {
	tb.Helper()
	var b bytes.Buffer
	if err := WriteGames(&b, games); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		tb.Fatal(err)
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
