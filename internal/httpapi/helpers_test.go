package httpapi

import (
	"context"
	"crypto/rand"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"dsol/internal/apitest"
	"dsol/internal/cards"
	"dsol/internal/klondike"
	"dsol/internal/live"
	"dsol/internal/lobby"
	"dsol/internal/metrics"
	"dsol/internal/players"
	"dsol/internal/service"
	"dsol/internal/solo"
	"dsol/internal/store"
	"dsol/internal/winnable"
	"dsol/internal/ws"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// pgx's pool keeps a background health check only while open; the
		// database/sql opener of goose may leave its connection opener behind.
		goleak.IgnoreTopFunction("database/sql.(*DB).connectionOpener"),
	)
}

// testServer is a whole API over a store, on an httptest server.
type testServer struct {
	*httptest.Server
	store store.Store
	srv   *server
	games *service.Service
	reg   *live.Registry // the games' live tables
	com   *store.Committer
	clock *apitest.Clock
	once  sync.Once
}

// mustServer starts the API over st with a 1ms group-commit window; cfg
// tweaks the HTTP settings (a func(*Config)) or the game service's (a
// func(*service.Config)).
func mustServer(tb testing.TB, st store.Store, cfg ...any) *testServer {
	tb.Helper()
	return mustServerWindow(tb, st, time.Millisecond, cfg...)
}

// mustServerWindow is mustServer with a given group-commit window.
func mustServerWindow(tb testing.TB, st store.Store, window time.Duration, cfg ...any) *testServer {
	tb.Helper()
	return startServer(tb, st, window, false, nil, cfg...)
}

// mustServerPool is mustServer dealing winnable deals from pool.
func mustServerPool(tb testing.TB, st store.Store, pool *winnable.Pool) *testServer {
	tb.Helper()
	return startServer(tb, st, time.Millisecond, false, pool)
}

// startServer starts the API over st on a test clock; with timers, the
// tables' timers run on that clock too (ts.clock.Advance fires them). pool is
// the winnable deals (nil: the shipped lists).
func startServer(tb testing.TB, st store.Store, window time.Duration, timers bool, pool *winnable.Pool, cfg ...any) *testServer {
	tb.Helper()
	clock := apitest.NewClock()
	m := metrics.New()
	com := store.NewCommitter(st, window, 0, m.ObserveCommit)
	hub := lobby.NewHub(lobby.Config{Store: st})
	gc := service.Config{Store: st, Committer: com, Clock: clock.Now, Random: rand.Reader, Winnable: pool,
		LobbyChanged: hub.Changed, Action: m.ObserveAction, Waiting: m.SetMatchWaiting, Wait: m.ObserveMatchWait,
		Live: live.Config{Hooks: live.Hooks{Action: m.ObserveAction, Live: m.AddLiveTables}}}
	if timers {
		gc.Live.AfterFunc = clock.AfterFunc
	}
	// The clock stands still: no refill of the write budget. The first
	// request of a day searches for its daily challenges (up to a few
	// seconds under the race detector on a busy machine, a fraction of a
	// second in a server), so requests get a minute, not the default 10 s.
	c := Config{WriteBurst: 1 << 20, RequestTimeout: time.Minute}
	for _, f := range cfg {
		switch f := f.(type) {
		case func(*Config):
			f(&c)
		case func(*service.Config):
			f(&gc)
		default:
			tb.Fatalf("startServer: an option of type %T", f)
		}
	}
	games := service.New(gc)
	ps := players.New(players.Config{Store: st, Clock: clock.Now, Random: rand.Reader})
	sd := ws.Deps{Games: games, Player: PlayerID, Token: TokenHash, Check: ps.CheckToken, Metrics: m, Clock: clock.Now,
		Config: ws.Config{OriginPatterns: c.AllowedOrigins}}
	sockets := Sockets{Games: ws.NewHandler(sd), Match: ws.NewMatchHandler(sd), Arena: ws.NewArenaHandler(sd),
		Lobby: ws.NewLobbyHandler(ws.LobbyDeps{Hub: hub, Player: PlayerID, Token: TokenHash, Check: ps.CheckToken,
			Metrics: m, Clock: clock.Now, Config: sd.Config})}
	srv := newServer(Deps{Players: ps, Games: games, Lobby: hub, Sockets: sockets, Metrics: m, Clock: clock.Now, Config: c})
	ts := &testServer{Server: httptest.NewServer(srv.routes()), store: st, srv: srv, games: games, reg: games.Tables(),
		com: com, clock: clock}
	tb.Cleanup(ts.stop)
	return ts
}

// stop shuts the server down as dsol serve does: HTTP, tables, committer.
func (ts *testServer) stop() {
	ts.once.Do(func() {
		ts.Server.Close()
		ts.games.Close(context.Background())
		ts.com.Close()
	})
}

// client is a player (or nobody) talking to a test server.
type client struct {
	*apitest.Client
	ts    *testServer
	token string
	id    string
}

// anon returns a client without credentials.
func (ts *testServer) anon() *client { return ts.as("", "") }

// as returns a client of player id using its Bearer token ("": none).
func (ts *testServer) as(id, token string) *client {
	return &client{Client: apitest.NewClient(ts.URL, ts.Client(), token), ts: ts, id: id, token: token}
}

// mustPlayer creates a player and returns a client using its Bearer token.
func (ts *testServer) mustPlayer(tb testing.TB) *client {
	tb.Helper()
	var p struct{ ID, Name, Token string }
	ts.anon().MustJSON(tb, "POST", "/api/v1/players", map[string]string{"name": "Ada"}, 201, &p)
	if p.Token == "" || p.ID == "" {
		tb.Fatalf("player %+v", p)
	}
	return ts.as(p.ID, p.Token)
}

// moveTo has the client talk to ts from then on, with the same header.
func (c *client) moveTo(ts *testServer) {
	c.ts, c.URL, c.HTTP = ts, ts.URL, ts.Client()
}

// restart stops the client's server and closes its store, then starts a
// server on the store that open opens again, as a restarted dsol serve
// would be: the client talks to the new one from then on.
func (c *client) restart(tb testing.TB, st store.Store, open func(testing.TB) store.Store) {
	tb.Helper()
	c.ts.stop()
	st.Close()
	c.moveTo(mustServer(tb, open(tb)))
}

// view is the solo game view as a client decodes it.
type view struct {
	ID       string `json:"id"`
	Seq      int64  `json:"seq"`
	Winnable bool   `json:"winnable"`
	solo.View
}

// mustGame creates a solo game of code and returns its view.
func (c *client) mustGame(tb testing.TB, code string) view {
	tb.Helper()
	var v view
	c.MustJSON(tb, "POST", "/api/v1/games", map[string]string{"code": code}, 201, &v)
	return v
}

// mustAct posts an action and returns the view.
func (c *client) mustAct(tb testing.TB, id string, a klondike.Action) view {
	tb.Helper()
	var v view
	c.MustJSON(tb, "POST", "/api/v1/games/"+id+"/actions", map[string]any{"action": a}, 200, &v)
	return v
}

func mustCode(tb testing.TB, s string) cards.Code {
	tb.Helper()
	c, err := cards.ParseCode(s)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func mustSolo(tb testing.TB, code string) *solo.Game {
	tb.Helper()
	g, err := solo.New(mustCode(tb, code))
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// greedy returns the next action of a simple player that wins a fair share
// of deals: foundation plays, moves that turn a card over, waste to a column,
// draws, and recycles while a pass makes progress.
type greedy struct {
	progress bool
	passes   int
}

func (p *greedy) next(g *solo.Game) (klondike.Action, bool) {
	b, f := g.Board(), g.Foundations()
	t := klondike.Table{B: b, F: f, AllowRecovery: true}
	if w := b.WasteTop(); w != cards.None && f.FirstSlot(w) >= 0 {
		return klondike.NewMove(klondike.Waste, klondike.AnyF, 1), true
	}
	for i := range solo.Columns {
		if c := b.Cols[i].Top(); c != cards.None && f.FirstSlot(c) >= 0 {
			return klondike.NewMove(klondike.ColPile(i), klondike.AnyF, 1), true
		}
	}
	best, bestDown := -1, 0
	var bestTo klondike.Pile
	for i := range solo.Columns {
		col := &b.Cols[i]
		if col.Down == 0 || int(col.Down) <= bestDown || col.N == col.Down {
			continue
		}
		if to, err := t.DTapTarget(klondike.ColPile(i), int(col.N-col.Down)); err == nil {
			best, bestDown, bestTo = i, int(col.Down), to
		}
	}
	if best >= 0 {
		col := &b.Cols[best]
		return klondike.NewMove(klondike.ColPile(best), bestTo, int(col.N-col.Down)), true
	}
	if b.NWaste > 0 {
		if to, err := t.DTapTarget(klondike.Waste, 1); err == nil {
			return klondike.NewMove(klondike.Waste, to, 1), true
		}
	}
	if b.NStock > 0 {
		return klondike.Simple(klondike.Draw), true
	}
	if b.NWaste > 0 && !g.Code().Vegas && p.progress && p.passes < 50 {
		p.progress, p.passes = false, p.passes+1
		return klondike.Simple(klondike.Recycle), true
	}
	return klondike.Action{}, false
}

func (p *greedy) played(a klondike.Action) {
	if a.Type != klondike.Draw && a.Type != klondike.Recycle {
		p.progress = true
	}
}

// greedyWon returns the first DS1-D1N code from deal 1 on that the greedy
// player wins, with the number of actions it takes.
func greedyWon(tb testing.TB) (string, int) {
	tb.Helper()
	for deal := uint64(1); deal < 2000; deal++ {
		code := cards.Code{Kind: cards.Solo, Draw: 1, Deal: deal}.String()
		g := mustSolo(tb, code)
		var p greedy
		n := 0
		for g.Status() != solo.Won {
			a, ok := p.next(g)
			if !ok {
				break
			}
			if _, err := g.Apply(a); err != nil {
				tb.Fatalf("greedy played an illegal %v: %v", a, err)
			}
			p.played(a)
			n++
		}
		if g.Status() == solo.Won {
			return code, n
		}
	}
	tb.Fatal("the greedy player wins none of 2000 deals")
	return "", 0
}

func mustPrefixes(tb testing.TB, ss ...string) []netip.Prefix {
	tb.Helper()
	var ps []netip.Prefix
	for _, s := range ss {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			tb.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// waitStored waits until the stored header of game id has status: a table
// writes a changed status after it answered the action that changed it.
func (ts *testServer) waitStored(tb testing.TB, id, status string) {
	tb.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		g, err := ts.store.Game(context.Background(), id)
		if err == nil && g.Status == status {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("game %s stored as %q (%v), want %q", id, g.Status, err, status)
		}
	}
}
