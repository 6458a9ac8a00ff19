package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/players"
	"dsol/internal/protocol"
	"dsol/internal/solo"
	"dsol/internal/store"
)

func TestWholeSoloGame(t *testing.T) {
	code, n := greedyWon(t)
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ts := mustServer(t, open(t))
		c := ts.mustPlayer(t)
		v := c.mustGame(t, code)
		if v.Code != code || v.Seq != 0 || v.Status != "playing" || v.Stock != 59 {
			t.Fatalf("new game %+v", v)
		}
		mirror := mustSolo(t, code)
		var p greedy
		for i := 0; mirror.Status() != solo.Won; i++ {
			a, ok := p.next(mirror)
			if !ok {
				t.Fatal("the greedy player gave up")
			}
			if _, err := mirror.Apply(a); err != nil {
				t.Fatal(err)
			}
			p.played(a)
			got := c.mustAct(t, v.ID, a)
			if got.Seq != int64(i+1) || !reflect.DeepEqual(got.View, mirror.View()) {
				t.Fatalf("after %v (#%d): got %+v\nwant %+v", a, i+1, got, mirror.View())
			}
		}
		var end view
		c.MustJSON(t, "GET", "/api/v1/games/"+v.ID, nil, 200, &end)
		if end.Status != "won" || end.Seq != int64(n) || end.Score != mirror.Score() {
			t.Fatalf("end %+v", end)
		}
		c.MustError(t, "POST", "/api/v1/games/"+v.ID+"/actions", `{"action":{"type":"undo"}}`, 409, game.GameOver)
		var won struct{ Games []players.GameSummary }
		c.MustJSON(t, "GET", "/api/v1/games?status=won", nil, 200, &won)
		if len(won.Games) != 1 || won.Games[0].ID != v.ID || won.Games[0].Seat != 1 {
			t.Fatalf("won games %+v", won)
		}
		var playing struct{ Games []players.GameSummary }
		c.MustJSON(t, "GET", "/api/v1/games?status=playing", nil, 200, &playing)
		if len(playing.Games) != 0 {
			t.Fatalf("playing games %+v", playing)
		}
	})
}

func TestRestartGivesTheSameGame(t *testing.T) {
	code, _ := greedyWon(t)
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustServer(t, st)
		c := ts.mustPlayer(t)
		v := c.mustGame(t, code)
		mirror := mustSolo(t, code)
		var p greedy
		for range 40 {
			a, ok := p.next(mirror)
			if !ok {
				t.Fatal("gave up")
			}
			mirror.Apply(a)
			p.played(a)
			c.mustAct(t, v.ID, a)
		}
		var before view
		c.MustJSON(t, "GET", "/api/v1/games/"+v.ID, nil, 200, &before)
		c.restart(t, st, open)
		var after view
		c.MustJSON(t, "GET", "/api/v1/games/"+v.ID, nil, 200, &after)
		if !reflect.DeepEqual(before, after) || after.Seq != 40 {
			t.Fatalf("after a restart:\n got %+v\nwant %+v", after, before)
		}
		a, _ := p.next(mirror)
		mirror.Apply(a)
		if got := c.mustAct(t, v.ID, a); got.Seq != 41 || !reflect.DeepEqual(got.View, mirror.View()) {
			t.Fatalf("next action after the restart: %+v", got)
		}
	})
}

func TestResentActionAppliesOnce(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	c := ts.mustPlayer(t)
	v := c.mustGame(t, "DS1-D1N-AAAAAAB")
	path := "/api/v1/games/" + v.ID + "/actions"
	for _, tc := range []struct {
		name string
		body string
	}{
		{"inside the action", `{"action":{"type":"draw","id":"a-1"},"seq":%d}`},
		{"top level", `{"action":{"type":"draw"},"id":"b-1","seq":%d}`},
		{"both", `{"action":{"type":"draw","id":"c-1"},"id":"c-1","seq":%d}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first, again view
			var cur view
			c.MustJSON(t, "GET", "/api/v1/games/"+v.ID, nil, 200, &cur)
			body := fmt.Sprintf(tc.body, cur.Seq)
			c.MustJSON(t, "POST", path, body, 200, &first)
			c.MustJSON(t, "POST", path, body, 200, &again) // its seq is stale now: still the earlier result
			if first.Seq != cur.Seq+1 || again.Seq != first.Seq || again.Stock != first.Stock {
				t.Fatalf("first %d/%d, resend %d/%d", first.Seq, first.Stock, again.Seq, again.Stock)
			}
		})
	}
	c.MustError(t, "POST", path, `{"action":{"type":"draw","id":"x"},"id":"y"}`, 400, game.BadRequest)
	c.MustError(t, "POST", path, `{"action":{"type":"draw","id":7}}`, 400, game.BadRequest)
	c.MustError(t, "POST", path, `{"action":{"type":"draw"},"id":""}`, 400, game.BadRequest)
	c.MustError(t, "POST", path, `{"action":{"type":"draw"},"seq":0}`, 409, game.Conflict)
	c.MustError(t, "POST", path, `{"action":{"type":"draw","bogus":1}}`, 400, game.BadRequest)
	c.MustError(t, "POST", path, `{"action":{"type":"draw"},"extra":1}`, 400, game.BadRequest)
	c.MustError(t, "POST", path, `{"action":{"type":"move","from":"c1","to":"c1"}}`, 422, game.IllegalMove)
	c.MustError(t, "POST", path, `{"action":"draw"}`, 400, game.BadRequest)
	c.MustError(t, "POST", path, `not json`, 400, game.BadRequest)
}

func TestConcurrentActionsAreTotallyOrdered(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ts := mustServer(t, open(t), func(c *Config) { c.WriteBurst = 100 })
		c := ts.mustPlayer(t)
		v := c.mustGame(t, "DS1-D1N-AAAAAAB")
		const n = 50
		seqs := make([]int64, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				code, raw := c.Do(t, "POST", "/api/v1/games/"+v.ID+"/actions",
					fmt.Sprintf(`{"action":{"type":"draw"},"id":"d%d"}`, i))
				var got view
				if code != 200 || json.Unmarshal(raw, &got) != nil {
					t.Errorf("status %d: %s", code, raw)
					return
				}
				seqs[i] = got.Seq
			})
		}
		wg.Wait()
		seen := make([]bool, n+1)
		for _, s := range seqs {
			if s < 1 || s > n || seen[s] {
				t.Fatalf("seqs are not 1..%d without gaps: %v", n, seqs)
			}
			seen[s] = true
		}
		acts, err := ts.store.Actions(context.Background(), v.ID, 0)
		if err != nil || len(acts) != n {
			t.Fatalf("%d stored actions, %v", len(acts), err)
		}
		ids := make(map[string]bool)
		for i, a := range acts {
			if a.Seq != int64(i+1) || ids[a.ClientID] || !strings.HasPrefix(a.ClientID, "d") {
				t.Fatalf("stored %+v", a)
			}
			ids[a.ClientID] = true
		}
	})
}

func TestAuthAndOwnership(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	alice, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	g := alice.mustGame(t, "DS1-D3V-AAAAAAB").ID
	nobody := ts.anon()
	wrong := ts.anon()
	wrong.Header.Set("Authorization", "Bearer not-a-token")
	malformed := ts.anon()
	malformed.Header.Set("Authorization", "Basic abc")
	act := `{"action":{"type":"draw"}}`
	type req struct{ name, method, path, body string }
	authed := []req{
		{"get me", "GET", "/api/v1/me", ""},
		{"rename", "PATCH", "/api/v1/me", `{"name":"Bo"}`},
		{"list games", "GET", "/api/v1/games", ""},
		{"new game", "POST", "/api/v1/games", `{"draw":1}`},
		{"get game", "GET", "/api/v1/games/" + g, ""},
		{"action", "POST", "/api/v1/games/" + g + "/actions", act},
		{"code", "GET", "/api/v1/codes/DS1-D1N-AAAAAAB", ""},
	}
	for _, r := range authed {
		for name, c := range map[string]*client{"no token": nobody, "wrong token": wrong, "not bearer": malformed} {
			t.Run(r.name+"/"+name, func(t *testing.T) {
				var body any
				if r.body != "" {
					body = r.body
				}
				c.MustError(t, r.method, r.path, body, 401, game.Unauthorized)
			})
		}
	}
	t.Run("other player's game", func(t *testing.T) {
		bob.MustError(t, "GET", "/api/v1/games/"+g, nil, 403, game.Forbidden)
		bob.MustError(t, "POST", "/api/v1/games/"+g+"/actions", act, 403, game.Forbidden)
	})
	t.Run("missing game", func(t *testing.T) {
		bob.MustError(t, "GET", "/api/v1/games/nope", nil, 404, game.NotFound)
		bob.MustError(t, "POST", "/api/v1/games/nope/actions", act, 404, game.NotFound)
		bob.MustError(t, "GET", "/api/v1/nothing", nil, 404, game.NotFound)
		bob.MustError(t, "PUT", "/api/v1/me", nil, 405, game.MethodNotAllowed)
	})
	t.Run("cookie", func(t *testing.T) {
		c := ts.anon()
		c.Header.Set("Cookie", CookieName+"="+alice.token)
		var me playerJSON
		c.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
		if me.ID != alice.id || me.Token != "" {
			t.Fatalf("me %+v", me)
		}
	})
	t.Run("names", func(t *testing.T) {
		for _, bad := range []string{`{"name":""}`, `{"name":"   "}`, `{"name":"a\u0007b"}`, `{"name":"` + strings.Repeat("é", 25) + `"}`, `{}`} {
			bob.MustError(t, "PATCH", "/api/v1/me", bad, 400, game.BadRequest)
		}
		var me playerJSON
		bob.MustJSON(t, "PATCH", "/api/v1/me", `{"name":"`+strings.Repeat("é", 24)+`"}`, 200, &me)
		bob.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
		if me.Name != strings.Repeat("é", 24) {
			t.Fatalf("name %q", me.Name)
		}
	})
	t.Run("new games", func(t *testing.T) {
		bob.MustError(t, "POST", "/api/v1/games", `{"code":"DS1-D2N-AAAAAAB"}`, 400, game.BadCode)
		bob.MustError(t, "POST", "/api/v1/games", `{"code":"DR1-D1UI-AAAAAAB"}`, 400, game.BadCode)
		bob.MustError(t, "POST", "/api/v1/games", `{"code":"DS1-D1N-AAAAAAB","draw":3}`, 400, game.BadRequest)
		bob.MustError(t, "POST", "/api/v1/games", `{"draw":2}`, 400, game.BadRequest)
		bob.MustError(t, "POST", "/api/v1/games", `{"scoring":"odd"}`, 400, game.BadRequest)
		var v view
		bob.MustJSON(t, "POST", "/api/v1/games", `{"draw":3,"scoring":"vegas"}`, 201, &v)
		if v.Draw != 3 || v.Scoring != "vegas" || v.Score != -104 || !strings.HasPrefix(v.Code, "DS1-D3V-") {
			t.Fatalf("new game %+v", v)
		}
		bob.MustJSON(t, "POST", "/api/v1/games", nil, 201, &v)
		if v.Draw != 1 || v.Scoring != "normal" {
			t.Fatalf("default game %+v", v)
		}
		bob.MustError(t, "GET", "/api/v1/games?status=lost", nil, 400, game.BadRequest)
	})
	t.Run("codes", func(t *testing.T) {
		var got codeJSON
		bob.MustJSON(t, "GET", "/api/v1/codes/ds1-d3v-aaaaaab", nil, 200, &got)
		if got != (codeJSON{Code: "DS1-D3V-AAAAAAB", Kind: "solo", Draw: 3, Scoring: "vegas", Deal: float64(1)}) {
			t.Fatalf("code %+v", got)
		}
		got = codeJSON{}
		bob.MustJSON(t, "GET", "/api/v1/codes/DR1-D1SM-AAAAABA", nil, 200, &got)
		if got != (codeJSON{Code: "DR1-D1SM-AAAAABA", Kind: "race", Draw: 1, Redeal: "single", Decks: "mirrored", Deal: float64(26)}) {
			t.Fatalf("code %+v", got)
		}
		bob.MustError(t, "GET", "/api/v1/codes/DS1-D1N-AAAAAA", nil, 400, game.BadCode)
	})
}

func TestCrossOriginCookieRequests(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t), func(c *Config) { c.AllowedOrigins = []string{"https://friend.example"} })
	alice := ts.mustPlayer(t)
	g := alice.mustGame(t, "DS1-D1N-AAAAAAB").ID
	path := "/api/v1/games/" + g + "/actions"
	cookie := func(origin string) *client {
		c := ts.anon()
		c.Header.Set("Cookie", CookieName+"="+alice.token)
		if origin != "" {
			c.Header.Set("Origin", origin)
		}
		return c
	}
	cookie("https://evil.example").MustError(t, "POST", path, `{"action":{"type":"draw"}}`, 403, game.Forbidden)
	cookie("https://evil.example").MustError(t, "PATCH", "/api/v1/me", `{"name":"pwned"}`, 403, game.Forbidden)
	cookie("https://evil.example").MustError(t, "POST", "/api/v1/players", `{}`, 403, game.Forbidden)
	cookie("https://evil.example").MustJSON(t, "GET", "/api/v1/games/"+g, nil, 200, nil) // safe method
	cookie(ts.URL).MustJSON(t, "POST", path, `{"action":{"type":"draw"}}`, 200, nil)
	cookie("https://friend.example").MustJSON(t, "POST", path, `{"action":{"type":"draw"}}`, 200, nil)
	cookie("").MustJSON(t, "POST", path, `{"action":{"type":"draw"}}`, 200, nil)
	// A Bearer request cannot be forged by a page, whatever its Origin.
	alice.Header.Set("Origin", "https://evil.example")
	alice.MustJSON(t, "POST", path, `{"action":{"type":"draw"}}`, 200, nil)
}

func TestRateLimit(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t), func(c *Config) { c.WriteRate, c.WriteBurst = 1, 3 })
	c := ts.mustPlayer(t) // one token of the IP bucket
	g := c.mustGame(t, "DS1-D1N-AAAAAAB").ID
	path := "/api/v1/games/" + g + "/actions"
	c.MustJSON(t, "POST", path, `{"action":{"type":"draw"}}`, 200, nil)
	c.MustJSON(t, "POST", path, `{"action":{"type":"draw"}}`, 200, nil)
	c.MustError(t, "POST", path, `{"action":{"type":"draw"}}`, 429, game.RateLimited)
	c.MustJSON(t, "GET", "/api/v1/games/"+g, nil, 200, nil) // reads are not limited
	ts.clock.Advance(1e9)                                   // one second: one token
	c.MustJSON(t, "POST", path, `{"action":{"type":"draw"}}`, 200, nil)
	c.MustError(t, "POST", path, `{"action":{"type":"draw"}}`, 429, game.RateLimited)
	other := ts.mustPlayer(t) // another player has a bucket of its own
	other.mustGame(t, "DS1-D1N-AAAAAAB")
}

func TestBodyLimit(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	c := ts.mustPlayer(t)
	g := c.mustGame(t, "DS1-D1N-AAAAAAB").ID
	big := `{"action":{"type":"draw"},"id":"` + strings.Repeat("x", 17<<10) + `"}`
	c.MustError(t, "POST", "/api/v1/games/"+g+"/actions", big, 413, game.TooLarge)
	// Without a Content-Length the limit holds too.
	req, _ := http.NewRequest("POST", ts.URL+"/api/v1/games/"+g+"/actions", strings.NewReader(big))
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer "+c.token)
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 413 {
		t.Fatalf("chunked oversized body: %d", res.StatusCode)
	}
}

func TestClientIP(t *testing.T) {
	s := newServer(Deps{Config: Config{TrustedProxies: mustPrefixes(t, "10.0.0.0/8", "::1/128")}})
	for _, tc := range []struct {
		name, remote, xff, proto string
		ip                       string
		secure                   bool
	}{
		{"direct", "203.0.113.9:1234", "198.51.100.1", "https", "203.0.113.9", false},
		{"one proxy", "10.1.2.3:80", "198.51.100.1", "https", "198.51.100.1", true},
		{"spoofed left", "10.1.2.3:80", "1.2.3.4, 198.51.100.1, 10.9.9.9", "", "198.51.100.1", false},
		{"ipv6 proxy", "[::1]:80", "2001:db8::1", "http", "2001:db8::1", false},
		{"garbage", "10.1.2.3:80", "nonsense", "", "10.1.2.3", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := http.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.remote
			if tc.xff != "" {
				r.Header.Set("X-Forwarded-For", tc.xff)
			}
			if tc.proto != "" {
				r.Header.Set("X-Forwarded-Proto", tc.proto)
			}
			var got *peer
			s.clientIP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = clientOf(r.Context()) })).ServeHTTP(nil, r)
			if got.ip.String() != tc.ip || got.secure != tc.secure {
				t.Fatalf("got %v secure=%v, want %s secure=%v", got.ip, got.secure, tc.ip, tc.secure)
			}
		})
	}
}

func TestOperatorEndpoints(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	c := ts.anon()
	c.MustJSON(t, "GET", "/healthz", nil, 200, nil)
	c.MustJSON(t, "GET", "/readyz", nil, 200, nil)
	p := ts.mustPlayer(t)
	g := p.mustGame(t, "DS1-D1N-AAAAAAB").ID
	p.mustAct(t, g, klondike.Simple(klondike.Draw))
	p.MustError(t, "POST", "/api/v1/games/"+g+"/actions", `{"action":{"type":"recycle"}}`, 422, game.IllegalMove)
	code, raw := c.Do(t, "GET", "/metrics", nil)
	text := string(raw)
	for _, want := range []string{
		`dsol_http_requests_total{method="POST",route="/api/v1/games/{id}/actions",status="200"} 1`,
		`dsol_actions_total{result="accepted",type="draw"} 1`,
		`dsol_actions_total{result="illegal_move",type="recycle"} 1`,
		`dsol_commit_batch_actions_count 1`,
		`dsol_live_tables 1`,
		`go_goroutines`,
		`process_cpu_seconds_total`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if code != 200 || strings.Contains(text, g) {
		t.Fatalf("metrics: status %d, or a game id as a label", code)
	}
	ts.store.Close()
	ts.clock.Advance(time.Second) // past the ping /readyz reuses
	c.MustError(t, "GET", "/readyz", nil, 503, game.Unavailable)
}

// TestErrorTable checks the transports' tables: every code has an error
// status here and a close code on the sockets, and an application close
// code is 4000 + the status (the standard ones stand for 413, 500, 503).
func TestErrorTable(t *testing.T) {
	standard := map[int]int{1009: 413, 1011: 500, 1013: 503}
	for _, c := range game.Codes() {
		st, cc := statusOf(c), protocol.CloseCode(c)
		if _, ok := statuses[c]; !ok || st < 400 || cc < 1000 {
			t.Errorf("%s: status %d, close %d", c, st, cc)
		}
		if cc >= 4000 && cc != 4000+st || cc < 4000 && standard[cc] != st {
			t.Errorf("%s: status %d, but close code %d", c, st, cc)
		}
	}
}

// TestLengthLimit: a solo game with klondike.MaxActions actions refuses the
// next one with too_long (409), on both stores, and says how many a game
// may have; the game stays readable, undo refused as well.
func TestLengthLimit(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustServer(t, st)
		c := ts.mustPlayer(t)
		v := c.mustGame(t, "DS1-D1N-AAAAAAB")
		apitest.SeedSolo(t, st, v.ID, klondike.MaxActions)
		path := "/api/v1/games/" + v.ID + "/actions"
		for _, body := range []string{`{"action":{"type":"draw"}}`, `{"action":{"type":"undo"}}`} {
			var e struct {
				Error struct{ Code, Message string }
			}
			c.MustJSON(t, "POST", path, body, 409, &e)
			if e.Error.Code != string(game.TooLong) || !strings.Contains(e.Error.Message, "20000") {
				t.Fatalf("%s at the limit: %+v", body, e.Error)
			}
		}
		var cur view
		c.MustJSON(t, "GET", "/api/v1/games/"+v.ID, nil, 200, &cur)
		if cur.Seq != klondike.MaxActions {
			t.Fatalf("the game is at seq %d, want %d", cur.Seq, klondike.MaxActions)
		}
	})
}
