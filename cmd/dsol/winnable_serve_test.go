package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"dsol/internal/testenv"
	"dsol/internal/winnable"
)

// metric returns the value of one series of a server's /metrics, or -1.
func (s *server) metric(tb testing.TB, series string) float64 {
	tb.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(s.metrics(tb))
	if m == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

// TestServeWinnable: dsol serve deals winnable games of every mode from its
// first start, its search adds deals to the stored pool, and after a
// restart with the defaults (the search off) the pool is still there.
func TestServeWinnable(t *testing.T) {
	for _, tc := range []struct {
		name string
		db   func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "w.db") }},
		{"postgres", func(t *testing.T) string { return testenv.PostgresSchemaURL(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := tc.db(t)
			// A target just over the shipped D1N list, and a small budget:
			// a few searches make it.
			shipped := len(winnable.Listed(winnable.D1N))
			s := mustServe(t, map[string]string{"DATABASE_URL": db, "DSOL_LOG_FORMAT": "text"},
				"--winnable-target", strconv.Itoa(shipped+2), "--winnable-budget", "3000")
			var p struct{ Token string }
			s.call(t, "POST", "/api/v1/players", "", `{"name":"Ann"}`, 201, &p)
			var g struct {
				Code     string
				Winnable bool
			}
			s.call(t, "POST", "/api/v1/games", p.Token, `{"draw":1,"scoring":"normal","winnable":true}`, 201, &g)
			if !g.Winnable {
				t.Fatalf("game %+v", g)
			}
			// Every mode has a shipped list: a fresh server deals winnable
			// Vegas games too.
			for _, body := range []string{`{"draw":1,"scoring":"vegas","winnable":true}`, `{"draw":3,"scoring":"vegas","winnable":true}`} {
				var v struct {
					Code     string
					Winnable bool
				}
				s.call(t, "POST", "/api/v1/games", p.Token, body, 201, &v)
				if !v.Winnable {
					t.Fatalf("%s: game %+v", body, v)
				}
			}
			if n := s.metric(t, `dsol_winnable_deals{mode="D1N",source="list"}`); n != float64(shipped) {
				t.Fatalf("D1N list: %v deals", n)
			}
			const pooled = `dsol_winnable_deals{mode="D1N",source="pool"}`
			deadline := time.Now().Add(60 * time.Second)
			for s.metric(t, pooled) < 2 {
				if time.Now().After(deadline) {
					t.Fatalf("the search added %v D1N deals in 60 s (searched %v, state searching %v)", s.metric(t, pooled),
						s.metric(t, `dsol_winnable_searched_total{mode="D1N"}`), s.metric(t, `dsol_winnable_search_state{state="searching"}`))
				}
				time.Sleep(50 * time.Millisecond)
			}
			s.stop(t)

			s = mustServe(t, map[string]string{"DATABASE_URL": db, "DSOL_LOG_FORMAT": "text"})
			deadline = time.Now().Add(10 * time.Second)
			for s.metric(t, pooled) < 2 {
				if time.Now().After(deadline) {
					t.Fatalf("after a restart the pool holds %v D1N deals", s.metric(t, pooled))
				}
				time.Sleep(20 * time.Millisecond)
			}
			if v := s.metric(t, `dsol_winnable_search_state{state="off"}`); v != 1 {
				t.Fatalf("search state off: %v", v)
			}
		})
	}
}
