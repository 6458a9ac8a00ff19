package ws_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"go.uber.org/goleak"

	"dsol/internal/apitest"
	"dsol/internal/httpapi"
	"dsol/internal/live"
	"dsol/internal/lobby"
	"dsol/internal/metrics"
	"dsol/internal/players"
	"dsol/internal/service"
	"dsol/internal/store"
	"dsol/internal/ws"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("database/sql.(*DB).connectionOpener"),
	)
}

// wait bounds every wait of a test; it is a deadline against hangs, never an
// assertion about speed.
const wait = apitest.Wait

// forEachStore runs f on SQLite and on PostgreSQL (when configured).
func forEachStore(t *testing.T, f func(t *testing.T, st store.Store)) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) { f(t, open(t)) })
}

// env is the whole server (REST and WebSocket) over a real store.
type env struct {
	*httptest.Server
	games   *service.Service
	com     *store.Committer
	sockets *ws.Handler
	feeds   []interface{ Shutdown(context.Context) error } // the lobby and match handlers, when the env made them
	metrics *metrics.Metrics
	once    sync.Once
}

// mustEnv starts a server over st; cfg tweaks the WebSocket limits and gcfg
// the game service.
func mustEnv(tb testing.TB, st store.Store, cfg func(*ws.Config), gcfg ...func(*service.Config)) *env {
	tb.Helper()
	return mustNode(tb, st, 0, cfg, gcfg...)
}

// mustNode is mustEnv with the lifetime of the node's sign-in cache (0:
// the default): a node of a cluster when several share st. Its socket
// handlers (games, lobby, match) are wired as dsol serve wires them.
func mustNode(tb testing.TB, st store.Store, authTTL time.Duration, cfg func(*ws.Config), gcfg ...func(*service.Config)) *env {
	tb.Helper()
	clock := apitest.NewClock() // stands still: rate limits never refill by themselves
	m := metrics.New()
	com := store.NewCommitter(st, time.Millisecond, 0, m.ObserveCommit)
	hub := lobby.NewHub(lobby.Config{Store: st})
	gc := service.Config{Store: st, Committer: com, Clock: time.Now, LobbyChanged: hub.Changed, Action: m.ObserveAction,
		Live: live.Config{Hooks: live.Hooks{Action: m.ObserveAction, Live: m.AddLiveTables}}}
	for _, f := range gcfg {
		f(&gc)
	}
	games := service.New(gc)
	wc := ws.Config{}
	if cfg != nil {
		cfg(&wc)
	}
	ps := players.New(players.Config{Store: st, Random: rand.Reader, AuthTTL: authTTL})
	deps := ws.Deps{Games: games, Player: httpapi.PlayerID, Token: httpapi.TokenHash, Check: ps.CheckToken,
		Metrics: m, Clock: clock.Now, Config: wc}
	sockets := ws.NewHandler(deps)
	lob := ws.NewLobbyHandler(ws.LobbyDeps{Hub: hub, Player: httpapi.PlayerID,
		Token: httpapi.TokenHash, Check: ps.CheckToken, Metrics: m, Clock: clock.Now, Config: wc})
	match := ws.NewMatchHandler(deps)
	h := httpapi.NewServer(httpapi.Deps{Players: ps, Games: games, Lobby: hub, Metrics: m, Clock: time.Now,
		Sockets: httpapi.Sockets{Games: sockets, Lobby: lob, Match: match}, Config: httpapi.Config{WriteBurst: 1 << 20, WriteRate: 1 << 20}})
	e := &env{Server: httptest.NewServer(h), games: games, com: com, sockets: sockets, metrics: m,
		feeds: []interface{ Shutdown(context.Context) error }{lob, match}}
	tb.Cleanup(e.stop)
	return e
}

// stop shuts down as dsol serve does: sockets, HTTP, tables, committer.
func (e *env) stop() {
	e.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		e.sockets.Shutdown(ctx)
		for _, f := range e.feeds {
			f.Shutdown(ctx)
		}
		e.Server.Close()
		e.games.Close(ctx)
		e.com.Close()
	})
}

// player is a registered player, a client using its Bearer token.
type player struct {
	*apitest.Client
	e     *env
	id    string
	token string
}

// anon returns a client without credentials.
func (e *env) anon() *apitest.Client { return apitest.NewClient(e.URL, e.Client(), "") }

// mustPlayer registers a player over REST.
func (e *env) mustPlayer(tb testing.TB) *player {
	tb.Helper()
	var p struct{ ID, Token string }
	e.anon().MustJSON(tb, "POST", "/api/v1/players", `{"name":"Ada"}`, 201, &p)
	return &player{Client: apitest.NewClient(e.URL, e.Client(), p.Token), e: e, id: p.ID, token: p.Token}
}

// mustSolo creates a solo game of a fixed deal and returns its id.
func (p *player) mustSolo(tb testing.TB) string {
	tb.Helper()
	var v struct{ ID string }
	p.MustJSON(tb, "POST", "/api/v1/games", `{"code":"DS1-D1N-AAAAAAB"}`, 201, &v)
	return v.ID
}

// conn is a test client's socket, read message by message.
type conn struct {
	*apitest.Socket
	tb     testing.TB
	queue  []json.RawMessage // messages of the last frame not read yet
	frames int               // frames read
}

// mustDial opens a socket on /api/v1/games/{id}/ws with an optional query.
func (p *player) mustDial(tb testing.TB, game, query string) *conn {
	tb.Helper()
	return &conn{Socket: p.Dial(tb, "/api/v1/games/"+game+"/ws"+query, nil), tb: tb}
}

// msg is any server frame.
type msg struct {
	Type   string          `json:"type"`
	ID     string          `json:"id"`
	Seq    int64           `json:"seq"`
	Seat   int             `json:"seat"`
	Action json.RawMessage `json:"action"`
	Status string          `json:"status"`
	Game   json.RawMessage `json:"game"`
	Error  struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Online    *bool           `json:"online"`
	Result    json.RawMessage `json:"result"`
	Duplicate bool            `json:"duplicate"`
	D         json.RawMessage `json:"d"` // protocol 2: what an event changed
	raw       []byte
}

// gameSeq is the seq inside a frame's game view.
func (m msg) gameSeq(tb testing.TB) int64 {
	var v struct{ Seq int64 }
	if err := json.Unmarshal(m.Game, &v); err != nil {
		tb.Fatalf("game of %s: %v", m.raw, err)
	}
	return v.Seq
}

// read reads the next message: a frame, or one message of a protocol 2
// frame that holds several (a JSON array).
func (c *conn) read() (msg, error) {
	if len(c.queue) == 0 {
		b, err := c.Read()
		if err != nil {
			return msg{}, err
		}
		c.frames++
		if len(b) > 0 && b[0] == '[' {
			var all []json.RawMessage
			if err := json.Unmarshal(b, &all); err != nil || len(all) < 2 {
				c.tb.Fatalf("frame %s: %v (an array holds two messages or more)", b, err)
			}
			c.queue = all
		} else {
			c.queue = []json.RawMessage{b}
		}
	}
	b := c.queue[0]
	c.queue = c.queue[1:]
	var m msg
	if err := json.Unmarshal(b, &m); err != nil {
		c.tb.Fatalf("message %s: %v", b, err)
	}
	m.raw = b
	return m, nil
}

// mustRead reads the next frame.
func (c *conn) mustRead() msg {
	c.tb.Helper()
	m, err := c.read()
	if err != nil {
		c.tb.Fatalf("read: %v", err)
	}
	return m
}

// mustReadType reads the next frame and checks its type.
func (c *conn) mustReadType(typ string) msg {
	c.tb.Helper()
	m := c.mustRead()
	if m.Type != typ {
		c.tb.Fatalf("got %s, want a %s", m.raw, typ)
	}
	return m
}

// sync sends a ping and reads up to its pong, returning the frames before
// it: the server answers in order, so this is everything it had to say.
func (c *conn) sync() []msg {
	c.tb.Helper()
	c.Send(`{"type":"ping"}`)
	var out []msg
	for {
		m := c.mustRead()
		if m.Type == "pong" {
			return out
		}
		out = append(out, m)
	}
}

// mustClose reads until the socket closes and returns its close code.
func (c *conn) mustClose() (websocket.StatusCode, []msg) {
	c.tb.Helper()
	var seen []msg
	for {
		m, err := c.read()
		if err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) {
				c.tb.Fatalf("closed without a close frame: %v", err)
			}
			return ce.Code, seen
		}
		seen = append(seen, m)
	}
}

// errorCode reads the code of a JSON error answer.
func errorCode(tb testing.TB, res *http.Response) string {
	tb.Helper()
	if res == nil {
		tb.Fatal("no HTTP answer")
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var e apitest.ErrorBody
	if err := json.Unmarshal(raw, &e); err != nil {
		tb.Fatalf("error body %q: %v", raw, err)
	}
	return string(e.Error.Code)
}
