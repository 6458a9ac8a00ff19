package httpapi

import (
	"strings"
	"testing"

	"dsol/internal/apitest"
	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/store"
	"dsol/internal/winnable"
)

// TestCreateWinnable: {"winnable": true} deals a deal of the shipped list of
// its mode, and its view says so, when created and when read again, also
// after the store is reopened; without it the view says false.
func TestCreateWinnable(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ts := mustServer(t, open(t))
		c := ts.mustPlayer(t)
		listed := map[string]bool{}
		for _, d := range winnable.Listed(winnable.D1N) {
			listed[d.Code().String()] = true
		}
		var v view
		c.MustJSON(t, "POST", "/api/v1/games", map[string]any{"draw": 1, "scoring": "normal", "winnable": true}, 201, &v)
		if !v.Winnable || !listed[v.Code] || v.Seq != 0 {
			t.Fatalf("winnable game %s: winnable %v, listed %v", v.Code, v.Winnable, listed[v.Code])
		}
		var again view
		c.MustJSON(t, "GET", "/api/v1/games/"+v.ID, nil, 200, &again)
		if !again.Winnable || again.Code != v.Code {
			t.Fatalf("read again: %+v", again)
		}
		for _, body := range []any{map[string]any{"draw": 3}, map[string]any{"winnable": false}, map[string]string{"code": v.Code}} {
			var plain view
			raw := c.MustJSON(t, "POST", "/api/v1/games", body, 201, &plain)
			if plain.Winnable || !strings.Contains(string(raw), `"winnable":false`) {
				t.Fatalf("%v: %s", body, raw)
			}
		}
		ts.stop()
		ts = mustServer(t, open(t))
		c.moveTo(ts)
		c.MustJSON(t, "GET", "/api/v1/games/"+v.ID, nil, 200, &again)
		if !again.Winnable || again.Code != v.Code {
			t.Fatalf("after reopening the store: %+v", again)
		}
	})
}

// TestWinnableAvoidsPlayedDeals: a player gets every deal of a pool before
// any deal again; another player gets deals of it too.
func TestWinnableAvoidsPlayedDeals(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		pool := &winnable.Pool{}
		for n := range uint64(3) {
			pool.Add(winnable.Deal{Mode: winnable.D3V, Number: 1000 + n})
		}
		ts := mustServerPool(t, open(t), pool)
		c := ts.mustPlayer(t)
		seen := map[string]bool{}
		for range 3 {
			var v view
			c.MustJSON(t, "POST", "/api/v1/games", map[string]any{"draw": 3, "scoring": "vegas", "winnable": true}, 201, &v)
			code, err := cards.ParseCode(v.Code)
			if err != nil || seen[v.Code] || !pool.Has(winnable.D3V, code.Deal) || !v.Winnable {
				t.Fatalf("deal %s (seen %v)", v.Code, seen)
			}
			seen[v.Code] = true
		}
		var v view
		c.MustJSON(t, "POST", "/api/v1/games", map[string]any{"draw": 3, "scoring": "vegas", "winnable": true}, 201, &v)
		if !seen[v.Code] {
			t.Fatalf("a fourth deal %s from a pool of three", v.Code)
		}
		// A draw-3 Vegas deal is a draw-1 Vegas deal too.
		c.MustJSON(t, "POST", "/api/v1/games", map[string]any{"draw": 1, "scoring": "vegas", "winnable": true}, 201, &v)
		if !seen["DS1-D3V-"+v.Code[len("DS1-D1V-"):]] || !strings.HasPrefix(v.Code, "DS1-D1V-") {
			t.Fatalf("a draw-1 Vegas deal %s from a pool of three draw-3 Vegas deals", v.Code)
		}
		// A mode the pool has nothing of: unavailable, never an unproven deal.
		c.MustError(t, "POST", "/api/v1/games", map[string]any{"draw": 1, "scoring": "normal", "winnable": true}, 503, game.Unavailable)
	})
}

// TestCreateWinnableRefuses: a winnable that is not a boolean, or one that
// comes with a code, is a bad request that names it.
func TestCreateWinnableRefuses(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	c := ts.mustPlayer(t)
	for _, body := range []string{
		`{"winnable": "yes"}`,
		`{"winnable": 1, "draw": 1}`,
		`{"winnable": "true", "draw": 1, "scoring": "normal"}`,
		`{"winnable": true, "code": "DS1-D1N-AAAAAAB"}`,
	} {
		var e errorBody
		c.MustJSON(t, "POST", "/api/v1/games", body, 400, &e)
		if e.Error.Code != game.BadRequest || !strings.Contains(e.Error.Message, "winnable") {
			t.Fatalf("%s: %+v", body, e.Error)
		}
	}
	var e errorBody
	c.MustJSON(t, "POST", "/api/v1/games", `{"winnable": "yes"}`, 400, &e)
	if want := `"winnable" must be true or false`; !strings.Contains(e.Error.Message, want) {
		t.Fatalf("message %q, want it to say %s", e.Error.Message, want)
	}
}
