package ws_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"go.uber.org/goleak"

	"dsol/internal/apitest"
	"dsol/internal/httpapi"
	"dsol/internal/metrics"
	"dsol/internal/players"
	"dsol/internal/store"
	"dsol/internal/table"
	"dsol/internal/ws"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("database/sql.(*DB).connectionOpener"),
	)
}

// wait bounds every wait of a test; it is a deadline against hangs, never an
// assertion about speed.
const wait = 20 * time.Second

// forEachStore runs f on SQLite and on PostgreSQL (when configured).
func forEachStore(t *testing.T, f func(t *testing.T, st store.Store)) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) { f(t, open(t)) })
}

// env is the whole server (REST and WebSocket) over a real store.
type env struct {
	*httptest.Server
	reg     *table.Registry
	com     *store.Committer
	sockets *ws.Handler
	metrics *metrics.Metrics
	once    sync.Once
}

// mustEnv starts a server over st; cfg tweaks the WebSocket limits and tcfg
// the tables.
func mustEnv(tb testing.TB, st store.Store, cfg func(*ws.Config), tcfg ...func(*table.Config)) *env {
	tb.Helper()
	clock := apitest.NewClock() // stands still: rate limits never refill by themselves
	m := metrics.New()
	com := store.NewCommitter(st, time.Millisecond, 0, m.ObserveCommit)
	tc := table.Config{Store: st, Committer: com, Clock: time.Now,
		Hooks: table.Hooks{Action: m.ObserveAction, Live: m.AddLiveTables}}
	for _, f := range tcfg {
		f(&tc)
	}
	reg := table.NewRegistry(tc)
	wc := ws.Config{}
	if cfg != nil {
		cfg(&wc)
	}
	sockets := ws.NewHandler(ws.Deps{Tables: reg, Player: httpapi.PlayerID, Metrics: m, Clock: clock.Now, Config: wc})
	h := httpapi.NewServer(httpapi.Deps{Players: players.New(players.Config{Store: st, Random: rand.Reader}), Tables: reg, Metrics: m, Clock: time.Now,
		Sockets: sockets, Config: httpapi.Config{WriteBurst: 1 << 20, WriteRate: 1 << 20}})
	e := &env{Server: httptest.NewServer(h), reg: reg, com: com, sockets: sockets, metrics: m}
	tb.Cleanup(e.stop)
	return e
}

// stop shuts down as dsol serve does: sockets, HTTP, tables, committer.
func (e *env) stop() {
	e.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		e.sockets.Shutdown(ctx)
		e.Server.Close()
		e.reg.Close(ctx)
		e.com.Close()
	})
}

// player is a registered player.
type player struct {
	e     *env
	id    string
	token string
}

// mustPlayer registers a player over REST.
func (e *env) mustPlayer(tb testing.TB) *player {
	tb.Helper()
	var p struct{ ID, Token string }
	e.mustJSON(tb, "", "POST", "/api/v1/players", `{"name":"Ada"}`, 201, &p)
	return &player{e: e, id: p.ID, token: p.Token}
}

// mustJSON sends a REST request with a token (or none) and decodes the
// answer.
func (e *env) mustJSON(tb testing.TB, token, method, path, body string, status int, out any) {
	tb.Helper()
	got, raw := e.rawREST(tb, token, method, path, body)
	if got != status {
		tb.Fatalf("%s %s: %d, want %d: %s", method, path, got, status, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			tb.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
}

// rawREST sends a REST request with a token (or none) and returns the
// status and the body.
func (e *env) rawREST(tb testing.TB, token, method, path, body string) (int, []byte) {
	tb.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.URL+path, rd)
	if err != nil {
		tb.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := e.Client().Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, raw
}

// mustSolo creates a solo game of a fixed deal and returns its id.
func (p *player) mustSolo(tb testing.TB) string {
	tb.Helper()
	var v struct{ ID string }
	p.e.mustJSON(tb, p.token, "POST", "/api/v1/games", `{"code":"DS1-D1N-AAAAAAB"}`, 201, &v)
	return v.ID
}

// conn is a test client's socket.
type conn struct {
	tb     testing.TB
	c      *websocket.Conn
	queue  []json.RawMessage // messages of the last frame not read yet
	frames int               // frames read
}

// dial opens a socket on a game; path is "" for the game's path.
func (p *player) dial(ctx context.Context, path string, header http.Header) (*websocket.Conn, *http.Response, error) {
	if header == nil {
		header = http.Header{}
	}
	if p != nil && header.Get("Authorization") == "" {
		header.Set("Authorization", "Bearer "+p.token)
	}
	u := "ws" + strings.TrimPrefix(p.e.URL, "http") + path
	return websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: header, HTTPClient: p.e.Client()})
}

// mustDial opens a socket on /api/v1/games/{id}/ws with an optional query.
func (p *player) mustDial(tb testing.TB, game, query string) *conn {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	c, res, err := p.dial(ctx, "/api/v1/games/"+game+"/ws"+query, nil)
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		tb.Fatalf("dial %s: %v (status %d)", game, err, status)
	}
	tb.Cleanup(func() { c.CloseNow() })
	return &conn{tb: tb, c: c}
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
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		_, b, err := c.c.Read(ctx)
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

// send writes a text frame.
func (c *conn) send(s string) {
	c.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := c.c.Write(ctx, websocket.MessageText, []byte(s)); err != nil {
		c.tb.Fatalf("write: %v", err)
	}
}

// act sends an action with a client id.
func (c *conn) act(id, action string) {
	c.tb.Helper()
	c.send(`{"type":"action","id":"` + id + `","action":` + action + `}`)
}

// sync sends a ping and reads up to its pong, returning the frames before
// it: the server answers in order, so this is everything it had to say.
func (c *conn) sync() []msg {
	c.tb.Helper()
	c.send(`{"type":"ping"}`)
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
	var e struct {
		Error struct{ Code string }
	}
	if err := json.NewDecoder(bytes.NewReader(raw)).Decode(&e); err != nil {
		tb.Fatalf("error body %q: %v", raw, err)
	}
	return e.Error.Code
}
