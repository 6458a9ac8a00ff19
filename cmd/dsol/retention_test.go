package main

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dsol/internal/cli"
	"dsol/internal/store"
	"dsol/internal/store/storetest"
	"dsol/internal/testenv"
)

func TestRetentionConfig(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want time.Duration
		bad  bool
	}{
		{nil, nil, 0, false},
		{[]string{"--retain-unfinished", "720h"}, nil, 720 * time.Hour, false},
		{nil, map[string]string{"DSOL_RETAIN_UNFINISHED": "48h"}, 48 * time.Hour, false},
		{[]string{"--retain-unfinished", "1h"}, map[string]string{"DSOL_RETAIN_UNFINISHED": "48h"}, time.Hour, false},
		{[]string{"--retain-unfinished", "-1h"}, nil, 0, true},
		{nil, map[string]string{"DSOL_RETAIN_UNFINISHED": "30d"}, 0, true},
	} {
		c, err := parseServe(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
		var ue *cli.UsageError
		if tc.bad {
			if !errors.As(err, &ue) {
				t.Errorf("%v %v: error %v, want a usage error", tc.args, tc.env, err)
			}
			continue
		}
		if err != nil || c.retention != tc.want {
			t.Errorf("%v %v: retention %v, err %v; want %v", tc.args, tc.env, c.retention, err, tc.want)
		}
	}
}

// TestServeRetention: dsol serve keeps every game by default; with
// --retain-unfinished it deletes at start the unfinished games nobody touched
// for that long (a solo game in play, a race nobody joined), keeps the
// finished ones and the recent ones, logs how many went and counts them in
// dsol_games_deleted_total.
func TestServeRetention(t *testing.T) {
	for _, tc := range []struct {
		name string
		db   func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "r.db") }},
		{"postgres", func(t *testing.T) string { return testenv.PostgresSchemaURL(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := tc.db(t)
			ctx := context.Background()
			old := time.Now().Add(-60 * 24 * time.Hour)
			withStore(t, db, func(st store.Store) {
				for _, p := range []string{"ann", "bob"} {
					if err := st.CreatePlayer(ctx, storetest.NewPlayer(p)); err != nil {
						t.Fatal(err)
					}
				}
				won := storetest.NewSolo("won", "ann", old)
				won.Status = "won"
				for _, g := range []store.Game{
					storetest.NewSolo("abandoned", "ann", old),
					storetest.NewRace("unjoined", "bob", true, old),
					won,
					storetest.NewSolo("fresh", "bob", time.Now()),
				} {
					if err := st.CreateGame(ctx, g); err != nil {
						t.Fatal(err)
					}
				}
				a := storetest.NewAction("abandoned", 1, 1, "")
				a.At = old
				if err := st.AppendActions(ctx, []store.Action{a}); err != nil {
					t.Fatal(err)
				}
			})
			env := map[string]string{"DATABASE_URL": db, "DSOL_LOG_FORMAT": "text"}

			s := mustServe(t, env)
			s.stop(t)
			if strings.Contains(s.logs.String(), "retention") {
				t.Fatalf("a sweep without --retain-unfinished:\n%s", s.logs)
			}
			checkGames(t, db, []string{"abandoned", "unjoined", "won", "fresh"}, nil)

			env["DSOL_RETAIN_UNFINISHED"] = "720h"
			s = mustServe(t, env)
			deadline := time.Now().Add(20 * time.Second)
			for !strings.Contains(s.logs.String(), "abandoned games deleted") {
				if time.Now().After(deadline) {
					t.Fatalf("no sweep logged:\n%s", s.logs)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if logs := s.logs.String(); !strings.Contains(logs, "deleted=2") {
				t.Fatalf("the sweep did not log 2 games deleted:\n%s", logs)
			}
			if body := s.metrics(t); !strings.Contains(body, "\ndsol_games_deleted_total 2\n") {
				t.Fatalf("metrics do not count 2 deleted games:\n%s", grepLines(body, "dsol_games_deleted"))
			}
			s.stop(t)
			checkGames(t, db, []string{"won", "fresh"}, []string{"abandoned", "unjoined"})
		})
	}
}

// withStore opens the store of a --db value for f, then closes it.
func withStore(t *testing.T, db string, f func(store.Store)) {
	t.Helper()
	st, _, err := openStore(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f(st)
}

// checkGames checks which games are stored and which are not.
func checkGames(t *testing.T, db string, present, gone []string) {
	t.Helper()
	withStore(t, db, func(st store.Store) {
		for _, id := range present {
			if _, err := st.Game(context.Background(), id); err != nil {
				t.Errorf("game %s: %v, want it kept", id, err)
			}
		}
		for _, id := range gone {
			if _, err := st.Game(context.Background(), id); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("game %s: %v, want it deleted", id, err)
			}
			if as, err := st.Actions(context.Background(), id, 0); err != nil || len(as) != 0 {
				t.Errorf("game %s: %d actions left, %v", id, len(as), err)
			}
		}
	})
}

// grepLines returns the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
