package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"dsol/internal/game"
	"dsol/internal/store/sqlite"
)

// FuzzPostAction sends arbitrary bodies through the real handler of
// POST /api/v1/games/{id}/actions, on one server over SQLite per fuzz
// process, all to one solo game. Whatever the body: the status is one the API
// document lists for the route (never 500); the answer is either the error
// {"error": {"code", "message"}} whose code maps to that status, or (200) the
// game's view; and the game's seq grows by at most one per accepted request,
// not at all for a refused one.
func FuzzPostAction(f *testing.F) {
	for _, s := range []string{
		`{"action":{"type":"draw"}}`, `{"action":{"type":"draw"},"id":"d1"}`, `{"action":{"type":"draw"},"id":"d1"}`,
		`{"action":{"type":"undo"}}`, `{"action":{"type":"recycle"}}`, `{"action":{"type":"tap","from":"w"}}`,
		`{"action":{"type":"move","from":"c1","to":"f"}}`, `{"action":{"type":"move","from":"w","to":"c2","id":"m"}}`,
		`{"action":{"type":"dtap","from":"c4","count":2}}`, `{"action":{"type":"pass"}}`, `{"action":{"type":"draw"},"seq":0}`,
		`{"action":{"type":"draw"},"seq":1}`, `{"action":{"type":"draw"},"seq":-1}`, `{"action":{"type":"fly"}}`,
		`{"action":{"type":"draw"}}]`, `{"action":{"type":"draw"},"id":"a","x":1}`, `{}`, ``, `null`, "\xff",
		`{"action":{"type":"draw","id":"a"},"id":"b"}`, `{"action":{"type":"move","from":"c1","to":"c2","count":14}}`,
		`{"action":{"type":"draw","pad":"` + string(bytes.Repeat([]byte("x"), 600)) + `"}}`,
	} {
		f.Add([]byte(s))
	}

	st, err := sqlite.Open(context.Background(), filepath.Join(f.TempDir(), "dsol.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	ts := mustServer(f, st, func(c *Config) { c.MaxBodyBytes = 512 })
	c := ts.mustPlayer(f)
	g := c.mustGame(f, "DS1-D1N-AAAAAAB")
	path := "/api/v1/games/" + g.ID + "/actions"
	documented := documentedStatuses(f, path)
	seq := g.Seq

	f.Fuzz(func(t *testing.T, body []byte) {
		status, raw := c.Do(t, "POST", path, body)
		if !slices.Contains(documented, status) || status == http.StatusInternalServerError {
			t.Fatalf("%q: status %d is not one of %v: %s", body, status, documented, raw)
		}
		var now view
		c.MustJSON(t, "GET", "/api/v1/games/"+g.ID, nil, 200, &now)
		if status == http.StatusOK {
			var v struct {
				ID     *string `json:"id"`
				Kind   *string `json:"kind"`
				Seq    *int64  `json:"seq"`
				Status *string `json:"status"`
			}
			if err := json.Unmarshal(raw, &v); err != nil || v.ID == nil || *v.ID != g.ID || v.Kind == nil || *v.Kind != "solo" ||
				v.Seq == nil || v.Status == nil {
				t.Fatalf("%q: 200 without the game's view: %s", body, raw)
			}
			if *v.Seq != now.Seq || now.Seq < seq || now.Seq > seq+1 {
				t.Fatalf("%q: accepted: seq %d → %d (answer %d)", body, seq, now.Seq, *v.Seq)
			}
		} else {
			checkErrorBody(t, status, raw)
			if now.Seq != seq {
				t.Fatalf("%q: refused with %d, yet seq %d → %d: %s", body, status, seq, now.Seq, raw)
			}
		}
		seq = now.Seq
	})
}

// checkErrorBody fails unless raw is exactly {"error": {"code", "message"}}
// with a known code whose status is status.
func checkErrorBody(t *testing.T, status int, raw []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var e struct {
		Error *struct {
			Code    *game.Code `json:"code"`
			Message *string    `json:"message"`
		} `json:"error"`
	}
	if err := dec.Decode(&e); err != nil || e.Error == nil || e.Error.Code == nil || e.Error.Message == nil || *e.Error.Message == "" {
		t.Fatalf("status %d: not an error body: %s (%v)", status, raw, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("status %d: trailing data after the error: %s", status, raw)
	}
	code := *e.Error.Code
	if !slices.Contains(game.Codes(), code) || statusOf(code) != status {
		t.Fatalf("status %d with error code %q: %s", status, code, raw)
	}
}

// documentedStatuses lists the statuses the API document gives for POST on
// path's route.
func documentedStatuses(tb testing.TB, path string) []int {
	tb.Helper()
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		tb.Fatal(err)
	}
	op, ok := doc.Paths["/api/v1/games/{id}/actions"]["post"]
	if !ok {
		tb.Fatalf("the API document has no POST /api/v1/games/{id}/actions (for %s)", path)
	}
	var out []int
	for k := range op.Responses {
		n, err := strconv.Atoi(k)
		if err != nil {
			tb.Fatalf("response %q", k)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
