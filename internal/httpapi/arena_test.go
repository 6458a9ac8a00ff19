package httpapi

import (
	"context"
	"strings"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/arena"
	"dsol/internal/game"
	"dsol/internal/ownership"
	"dsol/internal/service"
	"dsol/internal/store"
)

// arenaServer is a test server whose arenas pair and push at once.
func arenaServer(tb testing.TB, st store.Store) *testServer {
	return mustServer(tb, st, func(c *service.Config) {
		c.Arena.PairEvery, c.Arena.PushEvery, c.Arena.PollEvery = 20*time.Millisecond, time.Millisecond, 50*time.Millisecond
	})
}

// arenaMsg is a message of the arena socket.
type arenaMsg struct {
	Type   string      `json:"type"`
	Arena  *arena.View `json:"arena"`
	Race   string      `json:"race"`
	Points *int        `json:"points"`
	Score  *int        `json:"score"`
	Reason string      `json:"reason"`
}

// next reads the arena socket's messages until one of type typ.
func next(tb testing.TB, s *apitest.Socket, typ string) arenaMsg {
	tb.Helper()
	for {
		var m arenaMsg
		s.ReadJSON(&m)
		if m.Type == typ {
			return m
		}
	}
}

// mustStandingsFromStore checks an arena's standings against their
// recomputation from its races as stored.
func mustStandingsFromStore(tb testing.TB, st store.Store, v arena.View) {
	tb.Helper()
	rs, err := st.ArenaRaces(context.Background(), v.ID, "")
	if err != nil {
		tb.Fatal(err)
	}
	races := make([]arena.Race, len(rs))
	for i, r := range rs {
		races[i] = arena.RaceOf(r)
	}
	for _, d := range arena.Diff(v.Standings, races) {
		tb.Fatal(d)
	}
}

// TestArena: players create and join an arena, are paired while their
// arena socket is open, their race is an ordinary race that names its arena
// and has no rematch, its end scores as the rules say and is pushed, the
// next pairing avoids the same opponent, and the standings equal their
// recomputation from the stored races, on both stores.
func TestArena(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := arenaServer(t, st)
		cs := make([]*client, 4)
		for i := range cs {
			cs[i] = ts.mustPlayer(t)
		}
		var v arena.View
		cs[0].MustJSON(t, "POST", "/api/v1/arenas", map[string]any{"minutes": 30, "draw": 3, "redeal": "single", "startsIn": 0}, 201, &v)
		if v.Status != arena.Running || v.Players != 1 || v.You == nil || v.Draw != 3 || v.Redeal != "single" || !v.EndsAt.Equal(v.StartsAt.Add(30*time.Minute)) {
			t.Fatalf("created %+v", v)
		}
		var list struct{ Arenas []arena.View }
		cs[1].MustJSON(t, "GET", "/api/v1/arenas", nil, 200, &list)
		if len(list.Arenas) != 1 || list.Arenas[0].ID != v.ID || list.Arenas[0].Players != 1 {
			t.Fatalf("list %+v", list)
		}
		socks := map[string]*apitest.Socket{}
		for i, c := range cs {
			if i > 0 {
				c.MustJSON(t, "POST", "/api/v1/arenas/"+v.ID+"/join", nil, 200, &v)
				c.MustJSON(t, "POST", "/api/v1/arenas/"+v.ID+"/join", nil, 200, &v) // idempotent
			}
			socks[c.id] = c.Dial(t, "/api/v1/arenas/"+v.ID+"/ws", nil)
		}
		if v.Players != 4 {
			t.Fatalf("players %d", v.Players)
		}
		opponent := map[string]string{}
		play := func(round int) {
			races := map[string][]*client{}
			for _, c := range cs {
				m := next(t, socks[c.id], "paired")
				races[m.Race] = append(races[m.Race], c)
			}
			if len(races) != 2 {
				t.Fatalf("round %d: %d races", round, len(races))
			}
			for id, pair := range races {
				var rv struct {
					Arena  string `json:"arena"`
					Status string `json:"status"`
					Turns  string `json:"turns"`
					Code   *string
					Seats  []struct{ Player struct{ ID string } }
				}
				pair[0].MustJSON(t, "GET", "/api/v1/games/"+id, nil, 200, &rv)
				if rv.Arena != v.ID || rv.Status != "playing" || rv.Turns != "simultaneous" || rv.Code != nil {
					t.Fatalf("the arena's race: %+v", rv)
				}
				a, b := pair[0], pair[1]
				if round > 0 && opponent[a.id] == b.id {
					t.Fatalf("round %d: %s met %s again while others were free", round, a.id, b.id)
				}
				opponent[a.id], opponent[b.id] = b.id, a.id
				// Both act, then b resigns: a wins 2.
				for _, c := range pair {
					c.MustJSON(t, "POST", "/api/v1/games/"+id+"/actions", map[string]any{"action": map[string]string{"type": "draw"}}, 200, nil)
				}
				b.MustJSON(t, "POST", "/api/v1/games/"+id+"/actions", map[string]any{"action": map[string]string{"type": "resign"}}, 200, nil)
				if m := next(t, socks[a.id], "scored"); m.Race != id || *m.Points != arena.WinPoints {
					t.Fatalf("the winner scored %+v", m)
				}
				if m := next(t, socks[b.id], "scored"); *m.Points != 0 {
					t.Fatalf("the loser scored %+v", m)
				}
				a.MustError(t, "POST", "/api/v1/races/"+id+"/rematch", nil, 409, game.Conflict)
			}
		}
		play(0)
		play(1)
		cs[0].MustJSON(t, "GET", "/api/v1/arenas/"+v.ID, nil, 200, &v)
		if len(v.Standings) != 4 || v.Races < 4 || v.Races-v.RacesInPlay != 4 {
			t.Fatalf("standings %+v", v)
		}
		mustStandingsFromStore(t, st, v)
		var races struct{ Races []arena.RaceRow }
		cs[0].MustJSON(t, "GET", "/api/v1/arenas/"+v.ID+"/races", nil, 200, &races)
		if len(races.Races) < 4 || races.Races[0].Status != "over" || races.Races[0].Points[0]+races.Races[0].Points[1] != 2 {
			t.Fatalf("races %+v", races)
		}
	})
}

// TestArenaIdleAndEnd: a seat that makes no action in its race's first 30
// seconds pauses its player (told on the socket, not paired until they join
// again) and scores 0; a race still in play when its arena is long over is
// ended by count; the arena is over. Leaving pauses; joining again resumes.
func TestArenaIdleAndEnd(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := arenaServer(t, st)
		a, b := ts.mustPlayer(t), ts.mustPlayer(t)
		var v arena.View
		a.MustJSON(t, "POST", "/api/v1/arenas", map[string]any{"minutes": 5, "startsIn": 0}, 201, &v)
		b.MustJSON(t, "POST", "/api/v1/arenas/"+v.ID+"/join", nil, 200, &v)
		sa := a.Dial(t, "/api/v1/arenas/"+v.ID+"/ws", nil)
		sb := b.Dial(t, "/api/v1/arenas/"+v.ID+"/ws", nil)
		race := next(t, sa, "paired").Race
		next(t, sb, "paired")
		a.MustJSON(t, "POST", "/api/v1/games/"+race+"/actions", map[string]any{"action": map[string]string{"type": "draw"}}, 200, nil)
		ts.clock.Advance(arena.IdleWithin + time.Second)
		if m := next(t, sb, "paused"); m.Reason != "idle" {
			t.Fatalf("b: %+v", m)
		}
		b.MustJSON(t, "GET", "/api/v1/arenas/"+v.ID, nil, 200, &v)
		if v.You == nil || !v.You.Paused || !v.You.Idle || v.You.Race != race {
			t.Fatalf("b after the idle start: %+v", v.You)
		}
		// The arena ends; the race outlives it by the grace and ends by count.
		ts.clock.Advance(5*time.Minute + arena.DefaultEndGrace)
		sa.ReadJSON(&arenaMsg{})
		m := next(t, sa, "scored")
		var rv struct {
			Status string
			Result struct {
				Reason string
				Winner *int
			}
		}
		a.MustJSON(t, "GET", "/api/v1/games/"+race, nil, 200, &rv)
		if rv.Status != "over" || rv.Result.Reason != "time" {
			t.Fatalf("the race after the arena: %+v", rv)
		}
		if rv.Result.Winner != nil && *rv.Result.Winner == 2 || *m.Points == 0 && rv.Result.Winner != nil {
			t.Fatalf("a scored %d in %+v", *m.Points, rv)
		}
		b.MustJSON(t, "GET", "/api/v1/arenas/"+v.ID, nil, 200, &v)
		if v.Status != arena.Over || v.RacesInPlay != 0 {
			t.Fatalf("the arena at the end: %+v", v)
		}
		for _, row := range v.Standings {
			if row.Player.ID == b.id && (row.Score != 0 || row.Races != 1) {
				t.Fatalf("the idle seat scored: %+v", row)
			}
		}
		mustStandingsFromStore(t, st, v)
		b.MustError(t, "POST", "/api/v1/arenas/"+v.ID+"/join", nil, 409, game.Conflict)
	})
}

// TestArenaRequests: the bad requests for arenas get clear errors; a
// player may create only so many arenas a day; leave pauses and join
// resumes.
func TestArenaRequests(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t), func(c *service.Config) { c.ArenasPerDay = 2 })
	a := ts.mustPlayer(t)
	for _, body := range []any{
		map[string]any{}, map[string]any{"minutes": 4}, map[string]any{"minutes": 121}, map[string]any{"minutes": 5, "draw": 2},
		map[string]any{"minutes": 5, "redeal": "twice"}, map[string]any{"minutes": 5, "startsIn": -1},
		map[string]any{"minutes": 5, "startsIn": 86401}, map[string]any{"minutes": 5, "startsIn": 9223372037}, map[string]any{"minutes": 5, "x": 1}, "5",
	} {
		a.MustError(t, "POST", "/api/v1/arenas", body, 400, game.BadRequest)
	}
	var v arena.View
	a.MustJSON(t, "POST", "/api/v1/arenas", map[string]any{"minutes": 5}, 201, &v)
	if v.Status != arena.Waiting || !v.StartsAt.Equal(ts.clock.Now().Add(service.DefaultStartsIn).Truncate(time.Second)) {
		t.Fatalf("default start: %+v", v)
	}
	a.MustJSON(t, "POST", "/api/v1/arenas", map[string]any{"minutes": 5}, 201, nil)
	a.MustError(t, "POST", "/api/v1/arenas", map[string]any{"minutes": 5}, 429, game.RateLimited)
	a.MustError(t, "GET", "/api/v1/arenas/nope", nil, 404, game.NotFound)
	a.MustError(t, "GET", "/api/v1/arenas/"+strings.Repeat("x", 12), nil, 404, game.NotFound)
	a.MustError(t, "POST", "/api/v1/arenas/nope/join", nil, 404, game.NotFound)
	b := ts.mustPlayer(t)
	b.MustError(t, "POST", "/api/v1/arenas/"+v.ID+"/leave", nil, 404, game.NotFound)
	a.MustJSON(t, "POST", "/api/v1/arenas/"+v.ID+"/leave", nil, 200, &v)
	if !v.You.Paused || v.You.Idle {
		t.Fatalf("left: %+v", v.You)
	}
	a.MustJSON(t, "POST", "/api/v1/arenas/"+v.ID+"/join", nil, 200, &v)
	if v.You.Paused || len(v.Standings) != 1 {
		t.Fatalf("back: %+v", v)
	}
	ts.anon().MustError(t, "GET", "/api/v1/arenas", nil, 401, game.Unauthorized)

	// A player who deletes their data leaves the standings at once.
	b.MustJSON(t, "POST", "/api/v1/arenas/"+v.ID+"/join", nil, 200, &v)
	if len(v.Standings) != 2 {
		t.Fatalf("standings of two: %+v", v.Standings)
	}
	b.MustJSON(t, "DELETE", "/api/v1/me", nil, 204, nil)
	a.MustJSON(t, "GET", "/api/v1/arenas/"+v.ID, nil, 200, &v)
	if len(v.Standings) != 1 || v.Standings[0].Player.ID != a.id {
		t.Fatalf("standings after a deletion: %+v", v.Standings)
	}
}

// elsewhere is a lease table in which another node holds everything.
type elsewhere struct{}

func (elsewhere) Acquire(_ context.Context, game, _, _ string, now time.Time, ttl time.Duration) (store.Lease, bool, error) {
	return store.Lease{Game: game, Node: "other", Expires: now.Add(ttl)}, false, nil
}

func (elsewhere) Renew(context.Context, string, []string, time.Time, time.Duration) (map[string]bool, error) {
	return map[string]bool{}, nil
}

func (elsewhere) Release(context.Context, string, []string) error { return nil }

// TestArenaElsewhere: an arena another node runs is answered 503
// unavailable with Retry-After, over REST and before the socket's upgrade,
// and nothing of it starts here.
func TestArenaElsewhere(t *testing.T) {
	st := apitest.SQLite(t)
	owner := ownership.New(ownership.Config{Leases: elsewhere{}, Node: "here"})
	defer owner.Close()
	ts := mustServer(t, st, func(c *service.Config) { c.Owner = owner })
	a := ts.mustPlayer(t)
	now := ts.clock.Now()
	if err := st.CreateArena(context.Background(), store.Arena{ID: "arenaElsewhe", Creator: a.id, Minutes: 5, Draw: 1,
		StartsAt: now, EndsAt: now.Add(5 * time.Minute), CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ method, path string }{{"GET", "/api/v1/arenas/arenaElsewhe"}, {"POST", "/api/v1/arenas/arenaElsewhe/join"}} {
		status, body := a.Do(t, r.method, r.path, nil)
		if status != 503 || !strings.Contains(string(body), `"unavailable"`) || !strings.Contains(string(body), "arena is moving") {
			t.Fatalf("%s %s: %d %s", r.method, r.path, status, body)
		}
	}
	_, res, err := a.Handshake(context.Background(), "/api/v1/arenas/arenaElsewhe/ws", nil)
	if err == nil || res == nil || res.StatusCode != 503 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("the socket of an arena run elsewhere: %v, %+v", err, res)
	}
	if arenas, _, _ := ts.games.ArenaCounts(); arenas != 0 {
		t.Fatalf("%d arenas live here", arenas)
	}
}
