package httpapi

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/store"
)

// TestMeRenamed: a player whose stored name the rules came to refuse is
// renamed by the check of stored names, and GET /api/v1/me tells them so
// until they have seen it (DELETE /api/v1/me/renamed), on both stores.
func TestMeRenamed(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ctx := context.Background()
		st := open(t)
		ts := mustServer(t, st)
		ada := ts.mustPlayer(t)
		eve := ts.mustPlayer(t)
		// a name stored before the rules refused it
		if err := st.RenamePlayer(ctx, eve.id, "Сomputer"); err != nil {
			t.Fatal(err)
		}
		ts.clock.Advance(time.Minute)
		if n, err := ts.srv.players.CheckNames(ctx); err != nil || n != 1 {
			t.Fatalf("CheckNames: %d, %v", n, err)
		}
		var me meJSON
		eve.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
		if me.Name != "Player "+eve.id[:4] || me.Renamed == nil || me.Renamed.From != "Сomputer" || !me.Renamed.At.Equal(ts.clock.Now()) {
			t.Fatalf("me after the renaming: %+v, %+v", me, me.Renamed)
		}
		me = meJSON{}
		ada.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
		if me.Renamed != nil {
			t.Fatalf("a player not renamed has a notice: %+v", me.Renamed)
		}
		// seen: the notice goes, and seeing it again is no error
		for range 2 {
			if code, body := eve.Do(t, "DELETE", "/api/v1/me/renamed", nil); code != 204 {
				t.Fatalf("DELETE /api/v1/me/renamed: %d %s", code, body)
			}
		}
		me = meJSON{}
		eve.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
		if me.Renamed != nil || me.Name != "Player "+eve.id[:4] {
			t.Fatalf("me after the notice was seen: %+v", me)
		}
		ts.anon().MustError(t, "DELETE", "/api/v1/me/renamed", nil, 401, game.Unauthorized)
	})
}

// TestMeRenamedByChoice: a player renamed by the server who chooses a name
// has no notice any more.
func TestMeRenamedByChoice(t *testing.T) {
	ctx := context.Background()
	st := apitest.SQLite(t)
	ts := mustServer(t, st)
	eve := ts.mustPlayer(t)
	if err := st.RenamePlayer(ctx, eve.id, "Deleted player"); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.srv.players.CheckNames(ctx); err != nil {
		t.Fatal(err)
	}
	eve.MustJSON(t, "PATCH", "/api/v1/me", map[string]string{"name": "Eve"}, 200, nil)
	var me meJSON
	eve.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
	if me.Name != "Eve" || me.Renamed != nil {
		t.Fatalf("me after choosing a name: %+v", me)
	}
}

// TestAccountsPerHour: POST /api/v1/players from one client address, or
// one IPv6 /64, is refused past the hourly bound, 429 rate_limited with
// Retry-After, until the bucket fills again; other addresses and /64s are
// not held back, and a request refused for its name takes nothing.
func TestAccountsPerHour(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t), func(c *Config) {
		c.TrustedProxies = mustPrefixes(t, "127.0.0.0/8", "::1/128")
		c.AccountsPerHour = 3
	})
	from := func(addr string) *client {
		c := ts.anon()
		c.Header.Set("X-Forwarded-For", addr)
		return c
	}
	create := func(addr string, status int) {
		t.Helper()
		if status == 201 {
			from(addr).MustJSON(t, "POST", "/api/v1/players", `{}`, 201, nil)
			return
		}
		var e errorBody
		from(addr).MustJSON(t, "POST", "/api/v1/players", `{}`, status, &e)
		if e.Error.Code != game.RateLimited || !strings.Contains(e.Error.Message, "at most 3 an hour") {
			t.Fatalf("from %s: %+v", addr, e.Error)
		}
	}

	from("203.0.113.7").MustError(t, "POST", "/api/v1/players", `{"name":"Сomputer"}`, 400, game.BadRequest)
	for range 3 {
		create("203.0.113.7", 201)
	}
	create("203.0.113.7", 429)
	res := ts.post(t, "/api/v1/players", `{}`, http.Header{"X-Forwarded-For": {"203.0.113.7"}})
	if res.StatusCode != 429 || res.Header.Get("Retry-After") != "1200" {
		t.Fatalf("the 5th player: %d, Retry-After %q; want 429 and 1200 s (one player every 20 minutes)", res.StatusCode, res.Header.Get("Retry-After"))
	}
	create("203.0.113.8", 201) // another address

	// IPv6: one bound for a /64, whatever the address in it
	for _, a := range []string{"2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:fffe"} {
		create(a, 201)
	}
	create("2001:db8:1:2:abcd::9", 429)
	create("2001:db8:1:3::1", 201) // the next /64

	// past the 10 minutes other buckets are kept unused, an empty bucket
	// of players is still kept (another address's request sweeps)
	ts.clock.Advance(11 * time.Minute)
	create("203.0.113.9", 201)
	create("203.0.113.7", 429)
	ts.clock.Advance(9*time.Minute - time.Second)
	create("203.0.113.7", 429)
	ts.clock.Advance(time.Second) // one player back
	create("203.0.113.7", 201)
	create("203.0.113.7", 429)
	// an hour later the bucket is full again, though it was kept
	ts.clock.Advance(time.Hour)
	for range 3 {
		create("2001:db8:1:2::1", 201)
	}
	create("2001:db8:1:2::1", 429)
}

// TestAccountsPerHourDefaults: the bound is DefaultAccountsPerHour unless
// set; a negative one is no bound.
func TestAccountsPerHourDefaults(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	for range DefaultAccountsPerHour {
		ts.anon().MustJSON(t, "POST", "/api/v1/players", `{}`, 201, nil)
	}
	ts.anon().MustError(t, "POST", "/api/v1/players", `{}`, 429, game.RateLimited)
	ts = mustServer(t, apitest.SQLite(t), func(c *Config) { c.AccountsPerHour = -1 })
	for range DefaultAccountsPerHour + 10 {
		ts.anon().MustJSON(t, "POST", "/api/v1/players", `{}`, 201, nil)
	}
}
