package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/players"
	"dsol/internal/store"
	"dsol/internal/store/sqlite"
)

// mustLink asks for a transfer code for c.
func (c *client) mustLink(tb testing.TB) linkJSON {
	tb.Helper()
	var l linkJSON
	c.MustJSON(tb, "POST", "/api/v1/me/link", nil, 201, &l)
	return l
}

// mustRedeem signs a new device in with code and returns it as a client.
func (ts *testServer) mustRedeem(tb testing.TB, code string) *client {
	tb.Helper()
	var p playerJSON
	ts.anon().MustJSON(tb, "POST", "/api/v1/link", map[string]string{"code": code}, 201, &p)
	if p.Token == "" {
		tb.Fatalf("redeemed %+v", p)
	}
	return ts.as(p.ID, p.Token)
}

var linkShape = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`)

// TestTransferCode: a code signs another device in as the same player,
// with the same games, once; it is stored as its hash only.
func TestTransferCode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dsol.db")
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ts := mustServer(t, st)
	alice := ts.mustPlayer(t)
	g := alice.mustGame(t, "DS1-D1N-AAAAAAB")
	l := alice.mustLink(t)
	if !linkShape.MatchString(l.Code) || l.ExpiresIn != 600 || !l.Expires.Equal(ts.clock.Now().Add(10*time.Minute)) {
		t.Fatalf("link %+v", l)
	}
	if !strings.HasSuffix(l.URL, "/#link="+l.Code) || !strings.HasPrefix(l.QR, "<svg") || !strings.Contains(l.QR, "<path") {
		t.Fatalf("link address %q, qr %.40q", l.URL, l.QR)
	}

	t.Run("stored hashed", func(t *testing.T) {
		plain := strings.ReplaceAll(l.Code, "-", "")
		c, err := st.LinkCode(context.Background(), alice.id)
		if err != nil {
			t.Fatal(err)
		}
		if want := sha256.Sum256([]byte(plain)); !bytes.Equal(c.Hash, want[:]) {
			t.Fatalf("stored hash %x, want SHA-256 of the code", c.Hash)
		}
		for _, f := range []string{path, path + "-wal"} {
			b, err := os.ReadFile(f)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if bytes.Contains(b, []byte(plain)) || bytes.Contains(b, []byte(l.Code)) {
				t.Fatalf("%s holds the transfer code itself", filepath.Base(f))
			}
		}
	})

	// typed sloppily: lower case, spaces for dashes
	d := ts.mustRedeem(t, strings.ToLower(strings.ReplaceAll(l.Code, "-", " ")))
	if d.id != alice.id || d.token == alice.token {
		t.Fatalf("the new device is %s with token %q; want %s with a token of its own", d.id, d.token, alice.id)
	}
	var me playerJSON
	d.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
	if me.ID != alice.id || me.Name != "Ada" {
		t.Fatalf("GET /api/v1/me on the new device: %+v", me)
	}
	var list struct{ Games []players.GameSummary }
	d.MustJSON(t, "GET", "/api/v1/games?status=playing", nil, 200, &list)
	if len(list.Games) != 1 || list.Games[0].ID != g.ID {
		t.Fatalf("the new device's games: %+v, want %s", list.Games, g.ID)
	}
	d.mustAct(t, g.ID, klondike.Simple(klondike.Draw))
	alice.MustJSON(t, "GET", "/api/v1/me", nil, 200, nil) // the first device stays signed in

	t.Run("once", func(t *testing.T) {
		ts.anon().MustError(t, "POST", "/api/v1/link", map[string]string{"code": l.Code}, 410, game.Expired)
	})
	t.Run("cookie", func(t *testing.T) {
		l := alice.mustLink(t)
		res := ts.post(t, "/api/v1/link", `{"code":"`+l.Code+`"}`, nil)
		if res.StatusCode != 201 || !hasCookie(res, CookieName) {
			t.Fatalf("redeem: %d, cookies %v", res.StatusCode, res.Header.Values("Set-Cookie"))
		}
	})
	t.Run("look-alikes", func(t *testing.T) {
		for _, tc := range []struct{ in, out string }{
			{"O0IL-1OOO-oilx", "0011-1000-011X"}, {" ab cd-ef gh-jk mn ", "ABCD-EFGH-JKMN"},
		} {
			got, err := players.NormalLinkCode(tc.in)
			if err != nil || players.GroupLinkCode(got) != tc.out {
				t.Errorf("NormalLinkCode(%q) = %q, %v; want %s", tc.in, got, err, tc.out)
			}
		}
		for _, bad := range []string{"", "ABCD-EFGH-JKM", "ABCD-EFGH-JKMNP", "ABCD-EFGH-JKMU", "ÄBCD-EFGH-JKMN"} {
			ts.anon().MustError(t, "POST", "/api/v1/link", map[string]string{"code": bad}, 400, game.BadRequest)
		}
	})
}

// post sends a raw POST with the server's origin and returns the answer.
func (ts *testServer) post(tb testing.TB, path, body string, h http.Header) *http.Response {
	tb.Helper()
	req, err := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := ts.Client().Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	res.Body.Close()
	return res
}

func hasCookie(res *http.Response, name string) bool {
	for _, c := range res.Cookies() {
		if c.Name == name && c.Value != "" && c.MaxAge >= 0 {
			return true
		}
	}
	return false
}

// TestTransferCodeExpires: a code is refused after its 10 minutes, and a
// new one replaces the one asked for before.
func TestTransferCodeExpires(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	alice := ts.mustPlayer(t)
	old := alice.mustLink(t)
	l := alice.mustLink(t)
	ts.anon().MustError(t, "POST", "/api/v1/link", map[string]string{"code": old.Code}, 404, game.NotFound)
	ts.clock.Advance(10*time.Minute - time.Microsecond)
	ts.mustRedeem(t, alice.mustLink(t).Code) // a third, still fresh
	l = alice.mustLink(t)
	ts.clock.Advance(10 * time.Minute)
	var e errorBody
	ts.anon().MustJSON(t, "POST", "/api/v1/link", map[string]string{"code": l.Code}, 410, &e)
	if e.Error.Code != game.Expired || !strings.Contains(e.Error.Message, "expired") {
		t.Fatalf("an expired code: %+v", e.Error)
	}
}

// TestTransferCodeGuesses: 5 wrong guesses a minute per client address,
// then 429 with Retry-After even for a right code from there; and 60 a
// minute from all addresses together.
func TestTransferCodeGuesses(t *testing.T) {
	proxied := func(c *Config) { c.TrustedProxies = mustPrefixes(t, "127.0.0.0/8", "::1/128") }
	from := func(ts *testServer, addr string) *client {
		c := ts.anon()
		c.Header.Set("X-Forwarded-For", addr)
		return c
	}
	const wrong = `{"code":"0000-0000-0000"}`

	t.Run("per address", func(t *testing.T) {
		ts := mustServer(t, apitest.SQLite(t), proxied)
		alice := ts.mustPlayer(t)
		l := alice.mustLink(t)
		a := from(ts, "203.0.113.7")
		for range linkPerAddr {
			a.MustError(t, "POST", "/api/v1/link", wrong, 404, game.NotFound)
		}
		a.MustError(t, "POST", "/api/v1/link", map[string]string{"code": l.Code}, 429, game.RateLimited)
		res := ts.post(t, "/api/v1/link", wrong, http.Header{"X-Forwarded-For": {"203.0.113.7"}})
		if ra, _ := strconv.Atoi(res.Header.Get("Retry-After")); res.StatusCode != 429 || ra < 1 || ra > 12 {
			t.Fatalf("the 7th guess: %d, Retry-After %q; want 429 and 12 s at most", res.StatusCode, res.Header.Get("Retry-After"))
		}
		var p playerJSON
		from(ts, "198.51.100.9").MustJSON(t, "POST", "/api/v1/link", map[string]string{"code": l.Code}, 201, &p)
		if p.ID != alice.id {
			t.Fatalf("signed in as %s, want %s", p.ID, alice.id)
		}
		ts.clock.Advance(12 * time.Second) // one guess back
		a.MustError(t, "POST", "/api/v1/link", wrong, 404, game.NotFound)
		a.MustError(t, "POST", "/api/v1/link", wrong, 429, game.RateLimited)
	})
	t.Run("right codes cost nothing", func(t *testing.T) {
		ts := mustServer(t, apitest.SQLite(t), proxied)
		alice := ts.mustPlayer(t)
		a := from(ts, "203.0.113.8")
		for range 2 * linkPerAddr {
			a.MustJSON(t, "POST", "/api/v1/link", map[string]string{"code": alice.mustLink(t).Code}, 201, nil)
		}
	})
	t.Run("all addresses", func(t *testing.T) {
		ts := mustServer(t, apitest.SQLite(t), proxied)
		alice := ts.mustPlayer(t)
		l := alice.mustLink(t)
		for i := range linkPerNode {
			from(ts, fmt.Sprintf("203.0.113.%d", i/linkPerAddr+1)).MustError(t, "POST", "/api/v1/link", wrong, 404, game.NotFound)
		}
		fresh := from(ts, "198.51.100.1")
		fresh.MustError(t, "POST", "/api/v1/link", map[string]string{"code": l.Code}, 429, game.RateLimited)
		ts.clock.Advance(time.Second) // one token back (60 a minute)
		fresh.MustJSON(t, "POST", "/api/v1/link", map[string]string{"code": l.Code}, 201, nil)
	})
}

// TestLogoutAll: signing out everywhere makes every token of the player
// fail at once, also those the auth cache holds; the other player's stay.
func TestLogoutAll(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	alice, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	phone := ts.mustRedeem(t, alice.mustLink(t).Code)
	tablet := ts.mustRedeem(t, alice.mustLink(t).Code)
	for _, c := range []*client{alice, phone, tablet, bob} {
		c.MustJSON(t, "GET", "/api/v1/me", nil, 200, nil) // cached now
	}

	t.Run("this device", func(t *testing.T) {
		res := ts.post(t, "/api/v1/me/logout", "", http.Header{"Authorization": {"Bearer " + tablet.token}})
		if res.StatusCode != 204 || !clears(res, CookieName) {
			t.Fatalf("logout: %d, cookies %v", res.StatusCode, res.Header.Values("Set-Cookie"))
		}
		tablet.MustError(t, "GET", "/api/v1/me", nil, 401, game.Unauthorized)
		phone.MustJSON(t, "GET", "/api/v1/me", nil, 200, nil)
	})
	t.Run("everywhere", func(t *testing.T) {
		res := ts.post(t, "/api/v1/me/logout-all", "", http.Header{"Authorization": {"Bearer " + phone.token}})
		if res.StatusCode != 204 || !clears(res, CookieName) {
			t.Fatalf("logout-all: %d, cookies %v", res.StatusCode, res.Header.Values("Set-Cookie"))
		}
		for _, c := range []*client{alice, phone, tablet} {
			c.MustError(t, "GET", "/api/v1/me", nil, 401, game.Unauthorized)
			c.MustError(t, "POST", "/api/v1/games", map[string]any{"draw": 1, "scoring": "normal"}, 401, game.Unauthorized)
		}
		bob.MustJSON(t, "GET", "/api/v1/me", nil, 200, nil)
		if toks, err := ts.store.Tokens(context.Background(), alice.id); err != nil || len(toks) != 0 {
			t.Fatalf("alice's tokens after logout-all: %v, %v", toks, err)
		}
	})
}

// clears reports whether res expires the cookie name.
func clears(res *http.Response, name string) bool {
	for _, c := range res.Cookies() {
		if c.Name == name && c.MaxAge < 0 {
			return true
		}
	}
	return false
}

// export is GET /api/v1/me/export as a test reads it.
type exportDoc struct {
	players.ExportHead
	Games []struct {
		players.ExportGame
		Seats   []players.ExportSeat   `json:"seats"`
		Actions []players.ExportAction `json:"actions"`
	} `json:"games"`
}

// TestExport: the export has the player, their games with seats and
// actions, and no token or code hash.
func TestExport(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	alice, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	ts.mustRedeem(t, alice.mustLink(t).Code)
	g := alice.mustGame(t, "DS1-D1N-AAAAAAB")
	alice.mustAct(t, g.ID, klondike.Simple(klondike.Draw))
	alice.mustAct(t, g.ID, klondike.Simple(klondike.Draw))
	r := alice.mustRace(t, map[string]any{"public": true})
	bob.MustJSON(t, "POST", "/api/v1/races/"+r.ID+"/join", nil, 200, nil)
	bob.mustRaceAct(t, r.ID, klondike.Simple(klondike.Resign))
	ts.waitStored(t, r.ID, "over")

	req, _ := http.NewRequest("GET", ts.URL+"/api/v1/me/export", nil)
	req.Header.Set("Authorization", "Bearer "+alice.token)
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var raw bytes.Buffer
	raw.ReadFrom(res.Body)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment") ||
		res.Header.Get("Content-Type") != "application/json" || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("export: %d %v: %s", res.StatusCode, res.Header, raw.Bytes())
	}
	var doc exportDoc
	if err := json.Unmarshal(raw.Bytes(), &doc); err != nil {
		t.Fatalf("export: %v: %s", err, raw.Bytes())
	}
	if doc.Player.ID != alice.id || doc.Player.Name != "Ada" || len(doc.Devices) != 2 || doc.LinkCode == nil || doc.LinkCode.UsedAt == nil {
		t.Fatalf("export head: %+v", doc.ExportHead)
	}
	if len(doc.Games) != 2 {
		t.Fatalf("%d games exported, want 2: %s", len(doc.Games), raw.Bytes())
	}
	byID := map[string]int{}
	for i, eg := range doc.Games {
		byID[eg.ID] = i
	}
	solo, race := doc.Games[byID[g.ID]], doc.Games[byID[r.ID]]
	if solo.Code != "DS1-D1N-AAAAAAB" || len(solo.Actions) != 2 || string(solo.Actions[0].Action) != `{"type":"draw"}` ||
		len(solo.Seats) != 1 || solo.Seats[0].ID != alice.id {
		t.Fatalf("the solo game: %+v", solo)
	}
	if race.Status != "over" || race.Code == "" || len(race.Actions) != 1 || race.Actions[0].Seat != 2 ||
		len(race.Seats) != 2 || race.Seats[1].ID != bob.id || len(race.Result) == 0 {
		t.Fatalf("the race: %+v", race)
	}
	toks, err := ts.store.Tokens(context.Background(), alice.id)
	if err != nil {
		t.Fatal(err)
	}
	lc, err := ts.store.LinkCode(context.Background(), alice.id)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range append([][]byte{lc.Hash}, toks[0].Hash, toks[1].Hash) {
		for _, enc := range []string{hex.EncodeToString(h), b64(h)} {
			if strings.Contains(raw.String(), enc) {
				t.Fatalf("the export holds a hash: %s", enc)
			}
		}
	}
	if strings.Contains(raw.String(), alice.token) || strings.Contains(strings.ToLower(raw.String()), "hash") {
		t.Fatalf("the export holds a token or a hash: %s", raw.Bytes())
	}
}

func b64(b []byte) string {
	j, _ := json.Marshal(b)
	return strings.Trim(string(j), `"`)
}

// TestDeleteMe: deleting resigns the player's race in play, removes the
// player, their tokens and solo games, and keeps the opponent's race whole
// with the seat shown as a deleted player.
func TestDeleteMe(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	alice, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	phone := ts.mustRedeem(t, alice.mustLink(t).Code)
	g := alice.mustGame(t, "DS1-D1N-AAAAAAB")
	over := alice.mustRace(t, map[string]any{"public": true})
	bob.MustJSON(t, "POST", "/api/v1/races/"+over.ID+"/join", nil, 200, nil)
	bob.mustRaceAct(t, over.ID, klondike.Simple(klondike.Resign))
	live := alice.mustRace(t, map[string]any{"public": true})
	bob.MustJSON(t, "POST", "/api/v1/races/"+live.ID+"/join", nil, 200, nil)
	bob.mustRaceAct(t, live.ID, klondike.Simple(klondike.Draw))
	alone := alice.mustRace(t, map[string]any{"public": true})
	before := bob.mustView(t, over.ID)

	req, _ := http.NewRequest("DELETE", ts.URL+"/api/v1/me", nil)
	req.Header.Set("Authorization", "Bearer "+alice.token)
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 204 || !clears(res, CookieName) {
		t.Fatalf("DELETE /api/v1/me: %d, cookies %v", res.StatusCode, res.Header.Values("Set-Cookie"))
	}
	for _, c := range []*client{alice, phone} {
		c.MustError(t, "GET", "/api/v1/me", nil, 401, game.Unauthorized)
	}
	ctx := context.Background()
	if _, err := ts.store.Player(ctx, alice.id); err == nil {
		t.Fatal("the player is still stored")
	}
	for _, id := range []string{g.ID, alone.ID} {
		if _, err := ts.store.Game(ctx, id); err == nil {
			t.Fatalf("game %s nobody else played is still stored", id)
		}
	}
	var lobby struct{ Races []struct{ ID string } }
	bob.MustJSON(t, "GET", "/api/v1/lobby", nil, 200, &lobby)
	if len(lobby.Races) != 0 {
		t.Fatalf("the lobby after alice left: %+v", lobby.Races)
	}

	after := bob.mustView(t, over.ID)
	if p := after.Seats[0].Player; p == nil || !p.Deleted || p.ID != store.DeletedPlayerID || p.Name == "" {
		t.Fatalf("alice's seat after she left: %+v", p)
	}
	if after.Status != "over" || after.Code != before.Code || after.Seq != before.Seq || after.Seats[1].Player.ID != bob.id ||
		after.Result == nil || after.Result.Winner == nil || *after.Result.Winner != 1 {
		t.Fatalf("the finished race after alice left: %+v, before %+v", after, before)
	}
	resigned := bob.mustView(t, live.ID)
	if resigned.Status != "over" || resigned.Result == nil || resigned.Result.Winner == nil || *resigned.Result.Winner != 2 ||
		resigned.Result.Reason != "resign" || !resigned.Seats[0].Player.Deleted {
		t.Fatalf("the race in play after alice left: %+v", resigned)
	}
	var list struct{ Games []players.GameSummary }
	bob.MustJSON(t, "GET", "/api/v1/games", nil, 200, &list)
	if len(list.Games) != 2 {
		t.Fatalf("bob's games after alice left: %+v", list.Games)
	}
	bob.MustError(t, "POST", "/api/v1/races/"+over.ID+"/rematch", nil, 409, game.Conflict)
}
