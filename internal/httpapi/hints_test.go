package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"sync"
	"testing"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/hint"
	"dsol/internal/klondike"
	"dsol/internal/service"
	"dsol/internal/solo"
	"dsol/internal/store"
)

// hview is the solo view with its hint count, as the tests read it.
type hview struct {
	view
	Hints *int `json:"hints"`
}

// mustHint asks for a hint and checks the answer's shape: exactly the keys
// action and reason, a reason, and an action the engine accepts in mirror
// (a copy: mirror is not changed). It returns the action (nil for none).
func (c *client) mustHint(tb testing.TB, id string, mirror *solo.Game) *klondike.Action {
	tb.Helper()
	raw := c.MustJSON(tb, "GET", "/api/v1/games/"+id+"/hint", nil, 200, nil)
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil || len(keys) != 2 || keys["action"] == nil || keys["reason"] == nil {
		tb.Fatalf("hint %s: want exactly action and reason", raw)
	}
	var reason string
	if err := json.Unmarshal(keys["reason"], &reason); err != nil || reason == "" {
		tb.Fatalf("hint %s: no reason", raw)
	}
	if bytes.Equal(keys["action"], []byte("null")) {
		return nil
	}
	a, err := klondike.DecodeAction(keys["action"])
	if err != nil {
		tb.Fatalf("hint %s: %v", raw, err)
	}
	cp := *mirror
	if _, err := cp.Apply(a); err != nil {
		tb.Fatalf("hint %s is refused: %v", raw, err)
	}
	return &a
}

func (c *client) mustHints(tb testing.TB, id string) hview {
	tb.Helper()
	var v hview
	c.MustJSON(tb, "GET", "/api/v1/games/"+id, nil, 200, &v)
	if v.Hints == nil {
		tb.Fatalf("the view of %s has no hints", id)
	}
	return v
}

// TestHint: a hint is a legal action in the current position; asking
// changes neither the seq nor the board, counts in the view's hints, and
// the count survives a restart of the server over the same store; asked
// again at the same seq it is the same. Another player's solo game is
// refused as GET /api/v1/games/{id} refuses it, a race is forbidden to its
// players and spectators, a won game is game_over.
func TestHint(t *testing.T) {
	code, n := greedyWon(t)
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustServer(t, st)
		alice, bob := ts.mustPlayer(t), ts.mustPlayer(t)
		g := alice.mustGame(t, code)
		mirror := mustSolo(t, code)
		var p greedy
		for range 12 {
			a, _ := p.next(mirror)
			mirror.Apply(a)
			p.played(a)
			alice.mustAct(t, g.ID, a)
		}
		before := alice.mustHints(t, g.ID)
		if *before.Hints != 0 {
			t.Fatalf("a new game has %d hints", *before.Hints)
		}
		first := alice.mustHint(t, g.ID, mirror)
		if first == nil {
			t.Fatal("no hint in a game the greedy player wins")
		}
		after := alice.mustHints(t, g.ID)
		if *after.Hints != 1 || after.Seq != before.Seq || !reflect.DeepEqual(after.View, before.View) {
			t.Fatalf("a hint changed the game: before %+v\nafter %+v", before, after)
		}
		if again := alice.mustHint(t, g.ID, mirror); again == nil || *again != *first {
			t.Fatalf("the same position gave %v, then %v", first, again)
		}
		if v := alice.mustHints(t, g.ID); *v.Hints != 2 {
			t.Fatalf("after two hints the view counts %d", *v.Hints)
		}

		bob.MustError(t, "GET", "/api/v1/games/"+g.ID+"/hint", nil, 403, game.Forbidden)
		bob.MustError(t, "GET", "/api/v1/games/"+g.ID, nil, 403, game.Forbidden)
		alice.MustError(t, "GET", "/api/v1/games/nope/hint", nil, 404, game.NotFound)
		ts.anon().MustError(t, "GET", "/api/v1/games/"+g.ID+"/hint", nil, 401, game.Unauthorized)
		race := alice.mustRace(t, map[string]any{"draw": 1, "public": true})
		alice.MustError(t, "GET", "/api/v1/games/"+race.ID+"/hint", nil, 403, game.Forbidden)
		bob.MustError(t, "GET", "/api/v1/games/"+race.ID+"/hint", nil, 403, game.Forbidden)

		ts.stop()
		st.Close()
		ts2 := mustServer(t, open(t))
		alice.moveTo(ts2)
		if v := alice.mustHints(t, g.ID); *v.Hints != 2 || v.Seq != before.Seq {
			t.Fatalf("after a restart: %d hints at seq %d", *v.Hints, v.Seq)
		}
		alice.mustAct(t, g.ID, *first) // the hint is playable
		mirror.Apply(*first)
		alice.mustHint(t, g.ID, mirror)
		if v := alice.mustHints(t, g.ID); *v.Hints != 3 {
			t.Fatalf("after a third hint the view counts %d", *v.Hints)
		}

		won := alice.mustGame(t, code)
		mirror, p = mustSolo(t, code), greedy{}
		for range n {
			a, _ := p.next(mirror)
			mirror.Apply(a)
			p.played(a)
			alice.mustAct(t, won.ID, a)
		}
		alice.MustError(t, "GET", "/api/v1/games/"+won.ID+"/hint", nil, 409, game.GameOver)
		if v := alice.mustHints(t, won.ID); *v.Hints != 0 || v.Status != "won" {
			t.Fatalf("the won game: %+v", v)
		}
	})
}

// TestHintLimits: a player's hints are rate limited (another player has a
// bucket of their own, and time refills it), and while every hint slot of
// the server is taken a hint is refused rate_limited with Retry-After; a
// refused hint counts nothing.
func TestHintLimits(t *testing.T) {
	slots := service.NewSlots(2)
	ts := mustServer(t, apitest.SQLite(t), func(c *Config) { c.HintRate, c.HintBurst = 1, 2 }, func(c *service.Config) {
		c.Slots = slots
		c.Hint = hint.Options{Samples: 2, Positions: 2000}
	})
	alice, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	g := alice.mustGame(t, "DS1-D1N-AAAAAAB")
	path := "/api/v1/games/" + g.ID + "/hint"
	mirror := mustSolo(t, "DS1-D1N-AAAAAAB")
	alice.mustHint(t, g.ID, mirror)
	alice.mustHint(t, g.ID, mirror)
	alice.MustError(t, "GET", path, nil, 429, game.RateLimited)
	ts.clock.Advance(1e9) // one second: one token
	alice.mustHint(t, g.ID, mirror)
	alice.MustError(t, "GET", path, nil, 429, game.RateLimited)
	bg := bob.mustGame(t, "DS1-D3V-AAAAAAC")
	bmirror := mustSolo(t, "DS1-D3V-AAAAAAC")
	bob.mustHint(t, bg.ID, bmirror)

	// Both slots busy: refused at once, with Retry-After.
	slots.TryTake()
	slots.TryTake()
	ts.clock.Advance(10e9)
	status, raw := alice.Do(t, "GET", path, nil)
	var e errorBody
	if err := json.Unmarshal(raw, &e); err != nil || status != 429 || e.Error.Code != game.RateLimited || e.Error.Message == "" {
		t.Fatalf("with every slot busy: %d %s", status, raw)
	}
	res, err := ts.Client().Do(mustRequest(t, alice, path))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("with every slot busy: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	slots.Free()
	slots.Free()
	ts.clock.Advance(10e9) // the refused asks took tokens too
	alice.mustHint(t, g.ID, mirror)
	if v := alice.mustHints(t, g.ID); *v.Hints != 4 {
		t.Fatalf("%d hints counted, want 4 (the refused ones count nothing)", *v.Hints)
	}

	// More hints at once than there are slots, from many players: each is
	// answered 200 or 429.
	var wg sync.WaitGroup
	var mu sync.Mutex
	answered := 0
	for range 6 {
		c := ts.mustPlayer(t)
		id := c.mustGame(t, "DS1-D1N-AAAAAAB").ID
		wg.Go(func() {
			status, raw := c.Do(t, "GET", "/api/v1/games/"+id+"/hint", nil)
			switch status {
			case 200:
				mu.Lock()
				answered++
				mu.Unlock()
			case 429:
			default:
				t.Errorf("a hint at once: %d %s", status, raw)
			}
		})
	}
	wg.Wait()
	if answered == 0 {
		t.Fatal("no hint answered")
	}
}

func mustRequest(tb testing.TB, c *client, path string) *http.Request {
	tb.Helper()
	req, err := http.NewRequest("GET", c.ts.URL+path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	req.Header = c.Header.Clone()
	return req
}
