package main

// The scale-out design on one machine (docs/operations.md, "Several nodes"): two
// dsol nodes on one PostgreSQL database behind a proxy that routes by game id
// with consistent hashing, as deploy/nginx/dsol.conf does. A node is killed
// mid-race; the clients reconnect with ?since= and the other node rebuilds the
// game from the log. The fence test writes one game through both nodes.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"dsol/internal/cards"
	"dsol/internal/klondike"
	"dsol/internal/race"
	"dsol/internal/store"
	"dsol/internal/store/postgres"
	"dsol/internal/testenv"
)

// ---- the proxy ----

// gamePath finds the game id of a request, as the nginx map does (the
// quick-match queue's requests have the fixed id "match").
var gamePath = regexp.MustCompile(`^/api/v1/(?:(?:games|races)/([^/]+)|(match)(?:/|$))`)

// hashProxy is a reverse proxy that routes every request of a game to one
// live node by rendezvous hashing of the game id (other requests go round
// robin), and passes a request to the next node when a node cannot be reached
// or, for a GET, answers 503 — nginx's `hash $dsol_game consistent` with
// `proxy_next_upstream error timeout http_503` and max_fails=1. WebSocket
// upgrades pass through (httputil.ReverseProxy handles them).
type hashProxy struct {
	nodes []*proxyNode
	rr    atomic.Uint64
	rp    *httputil.ReverseProxy
}

// proxyNode is one upstream: its address, whether the proxy holds it for
// dead, and the proxy's open connections to it.
type proxyNode struct {
	name  string
	url   *url.URL
	dead  atomic.Bool
	tr    *http.Transport
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

type routeKey struct{}

// route is what the transport needs to try the nodes of one request in order.
type route struct {
	key  string
	body []byte
}

func newHashProxy(bases ...string) *hashProxy {
	p := &hashProxy{}
	for i, b := range bases {
		u, _ := url.Parse(b)
		n := &proxyNode{name: "dsol-" + strconv.Itoa(i+1), url: u, conns: map[net.Conn]struct{}{}}
		d := &net.Dialer{Timeout: 2 * time.Second}
		n.tr = &http.Transport{
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := d.DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return n.track(c), nil
			},
			MaxIdleConnsPerHost: 16,
		}
		p.nodes = append(p.nodes, n)
	}
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(p.nodes[0].url) // the transport picks the node
			pr.Out.Host = pr.In.Host
			pr.SetXForwarded()
		},
		Transport: p,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	return p
}

func (p *hashProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	key := "rr-" + strconv.FormatUint(p.rr.Add(1), 10)
	if m := gamePath.FindStringSubmatch(r.URL.Path); m != nil {
		key = m[1] + m[2]
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r = r.WithContext(context.WithValue(r.Context(), routeKey{}, &route{key: key, body: body}))
	p.rp.ServeHTTP(w, r)
}

// rank returns the live nodes, best first, for a key (rendezvous hashing:
// when a node dies only its keys move).
func (p *hashProxy) rank(key string) []*proxyNode {
	type scored struct {
		n *proxyNode
		s uint64
	}
	var out []scored
	for _, n := range p.nodes {
		if n.dead.Load() {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(n.name + "\x00" + key))
		out = append(out, scored{n, h.Sum64()})
	}
	for i := 1; i < len(out); i++ { // insertion sort, descending
		for j := i; j > 0 && out[j].s > out[j-1].s; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	ns := make([]*proxyNode, len(out))
	for i, s := range out {
		ns[i] = s.n
	}
	return ns
}

// owner is the node a game's requests go to now.
func (p *hashProxy) owner(game string) *proxyNode {
	if ns := p.rank(game); len(ns) > 0 {
		return ns[0]
	}
	return nil
}

// RoundTrip sends a request to the best live node of its key, and on to the
// next when that one fails before answering.
func (p *hashProxy) RoundTrip(req *http.Request) (*http.Response, error) {
	rt, _ := req.Context().Value(routeKey{}).(*route)
	if rt == nil {
		return nil, errors.New("proxy: no route")
	}
	var last error = errors.New("proxy: no live node")
	for _, n := range p.rank(rt.key) {
		out := req.Clone(req.Context())
		out.URL.Scheme, out.URL.Host = n.url.Scheme, n.url.Host
		out.Body = io.NopCloser(bytes.NewReader(rt.body))
		out.ContentLength = int64(len(rt.body))
		res, err := n.tr.RoundTrip(out)
		var op *net.OpError
		switch {
		case err != nil && (errors.As(err, &op) && op.Op == "dial" || req.Method == http.MethodGet):
			n.dead.Store(true) // nothing was done: try the next node
			last = err
			continue
		case err != nil:
			return nil, err
		case res.StatusCode == http.StatusServiceUnavailable && req.Method == http.MethodGet:
			// Shutting down, or the game is moving to it: this request
			// tries the next node, the next ones this node again.
			res.Body.Close()
			last = fmt.Errorf("proxy: %s answered 503", n.name)
			continue
		}
		return res, nil
	}
	return nil, last
}

func (n *proxyNode) track(c net.Conn) net.Conn {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.conns[c] = struct{}{}
	return &trackedConn{Conn: c, n: n}
}

// sever marks the node dead and cuts every connection to it at once, as a
// crash or a network partition would: no close frame, no graceful shutdown.
func (n *proxyNode) sever() {
	n.dead.Store(true)
	n.mu.Lock()
	cs := make([]net.Conn, 0, len(n.conns))
	for c := range n.conns {
		cs = append(cs, c)
	}
	n.mu.Unlock()
	for _, c := range cs {
		c.Close()
	}
	n.tr.CloseIdleConnections()
}

type trackedConn struct {
	net.Conn
	n    *proxyNode
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.n.mu.Lock()
		delete(c.n.conns, c.Conn)
		c.n.mu.Unlock()
	})
	return c.Conn.Close()
}

// ---- a race client ----

// wsMsg is any server frame.
type wsMsg struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Seq       int64           `json:"seq"`
	Seat      int             `json:"seat"`
	Action    json.RawMessage `json:"action"`
	Game      json.RawMessage `json:"game"`
	Duplicate bool            `json:"duplicate"`
	Error     struct{ Code, Message string }
	at        time.Time // when it was read from the socket
}

// sight is the part of a race view that a replay of the log must give again.
type sight struct {
	Seq         *int64                  `json:"seq,omitempty"`
	Status      string                  `json:"status"`
	Foundations [][]race.FoundationCard `json:"foundations"`
	Seats       []race.SeatView         `json:"seats"`
	Result      *race.ResultView        `json:"result"`
}

func sightOf(v any) (sight, error) {
	b, ok := v.([]byte)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			return sight{}, err
		}
	}
	var s sight
	err := json.Unmarshal(b, &s)
	s.Seq = nil
	return s, err
}

// racer is one player: it keeps a shadow race in step with the events it
// receives and lets a race.Bot choose its next action on it, one action in
// flight at a time, each with its own client id.
type racer struct {
	name   string
	seat   int
	token  string
	game   string
	wsBase string

	shadow *race.Race
	bot    race.Bot
	last   int64 // the seq of the last event applied to the shadow
	over   bool

	pending  string // the client id of the action sent and not answered
	chosenAt int64  // the shadow's seq when the action in flight was chosen
	frame    []byte
	resend   bool      // send frame again (after conflict, rate_limited, unavailable)
	needSeq  int64     // choose nothing before the shadow reaches this seq
	rechoose time.Time // ... or before this time, when set (after a reject)
	lastSend time.Time // pacing under the socket's message rate

	sent       int                     // actions chosen so far: the client ids
	acked      map[string]int64        // client id → seq
	afterSend  func(r *racer)          // called after each first send of a new action
	onFrame    func(r *racer, m wsMsg) // called with each server frame before it is handled
	viewEvery  int                     // compare the view of every nth event only (and the last; 0: every one)
	ackTotal   *atomic.Int64
	reconnects int
	duplicates int
}

var errReconnect = errors.New("socket closed")

// pace keeps a player under the WebSocket message rate (20/s).
const pace = 55 * time.Millisecond

func newRacer(name string, seat int, token, game, code, wsBase string, acks *atomic.Int64) (*racer, error) {
	c, err := cards.ParseCode(code)
	if err != nil {
		return nil, err
	}
	r, err := race.New(c, race.Options{})
	if err != nil {
		return nil, err
	}
	return &racer{name: name, seat: seat, token: token, game: game, wsBase: wsBase,
		shadow: r, acked: map[string]int64{}, ackTotal: acks}, nil
}

// play plays until the race is over and nothing is in flight, reconnecting
// with ?since= whenever the socket closes.
func (r *racer) play(ctx context.Context) error {
	for first := true; ; first = false {
		if r.over && r.pending == "" {
			return nil
		}
		if !first {
			r.reconnects++
		}
		c, err := r.dial(ctx)
		if err != nil {
			return err
		}
		err = r.session(ctx, c)
		c.CloseNow()
		if !errors.Is(err, errReconnect) {
			return err
		}
	}
}

// dial connects through the proxy, retrying while no node takes the socket.
func (r *racer) dial(ctx context.Context) (*websocket.Conn, error) {
	u := r.wsBase + "/api/v1/races/" + r.game + "/ws?since=" + strconv.FormatInt(r.last, 10)
	for {
		c, res, err := websocket.Dial(ctx, u, &websocket.DialOptions{
			HTTPHeader: http.Header{"Authorization": {"Bearer " + r.token}},
		})
		if err == nil {
			c.SetReadLimit(1 << 20)
			return c, nil
		}
		if res != nil && res.StatusCode != http.StatusBadGateway && res.StatusCode != http.StatusServiceUnavailable {
			return nil, fmt.Errorf("%s: dial: %v", r.name, err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%s: dial: %w (last: %v)", r.name, ctx.Err(), err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// session serves one connection; errReconnect means it closed.
func (r *racer) session(ctx context.Context, c *websocket.Conn) error {
	msgs := make(chan wsMsg, 256)
	go func() {
		defer close(msgs)
		for {
			var m wsMsg
			if err := wsjson.Read(ctx, c, &m); err != nil {
				return
			}
			m.at = time.Now()
			msgs <- m
		}
	}()
	if r.pending != "" {
		r.resend = true // unanswered on the old socket: same id again
	}
	tick := time.NewTicker(15 * time.Millisecond)
	defer tick.Stop()
	for {
		if r.over && r.pending == "" {
			c.Close(websocket.StatusNormalClosure, "")
			return nil
		}
		if time.Since(r.lastSend) >= pace {
			if err := r.maybeSend(ctx, c); err != nil {
				return errReconnect
			}
		}
		select {
		case m, ok := <-msgs:
			if !ok {
				return errReconnect
			}
			if err := r.handle(m); err != nil {
				return fmt.Errorf("%s: %w", r.name, err)
			}
		case <-tick.C:
		case <-ctx.Done():
			return fmt.Errorf("%s at seq %d: %w", r.name, r.last, ctx.Err())
		}
	}
}

// maybeSend resends the action in flight, or picks and sends a new one.
func (r *racer) maybeSend(ctx context.Context, c *websocket.Conn) error {
	switch {
	case r.pending != "" && !r.resend:
		return nil
	case r.pending == "":
		if r.over || r.last < r.needSeq && (r.rechoose.IsZero() || time.Now().Before(r.rechoose)) {
			return nil
		}
		a, ok := r.bot.Next(r.shadow.Seen(r.seat))
		if !ok {
			return nil
		}
		r.sent++
		r.pending, r.chosenAt = fmt.Sprintf("%s-%d", r.name, r.sent), r.last
		r.frame = []byte(`{"type":"action","id":"` + r.pending + `","action":` + string(a.AppendJSON(nil)) + `}`)
	}
	first := !r.resend
	r.resend = false
	r.lastSend = time.Now()
	if err := c.Write(ctx, websocket.MessageText, r.frame); err != nil {
		return err
	}
	if first && r.afterSend != nil {
		r.afterSend(r)
	}
	return nil
}

// handle checks and applies one server frame.
func (r *racer) handle(m wsMsg) error {
	if r.onFrame != nil {
		r.onFrame(r, m)
	}
	switch m.Type {
	case "event":
		if m.Seq != r.last+1 {
			return fmt.Errorf("event seq %d after %d: a gap or a repeat", m.Seq, r.last)
		}
		a, err := klondike.DecodeAction(m.Action)
		if err != nil {
			return fmt.Errorf("event %d: %v", m.Seq, err)
		}
		if _, err := r.shadow.Apply(m.Seat, a); err != nil {
			return fmt.Errorf("event %d (%s by seat %d) does not apply to the shadow race: %v", m.Seq, m.Action, m.Seat, err)
		}
		r.last = m.Seq
		check := r.viewEvery <= 1 || m.Seq%int64(r.viewEvery) == 0 || r.shadow.Status() == race.Over
		if check && len(m.Game) > 0 && string(m.Game) != "null" {
			if err := r.sameView(m.Game); err != nil {
				return fmt.Errorf("event %d: %v", m.Seq, err)
			}
		}
		if r.shadow.Status() == race.Over {
			r.over = true
		}
	case "state":
		if m.Seq != r.last {
			return fmt.Errorf("resumed with since=%d but got the state at seq %d: the node served a stale game", r.last, m.Seq)
		}
		if err := r.sameView(m.Game); err != nil {
			return fmt.Errorf("state %d: %v", m.Seq, err)
		}
	case "ack":
		if m.ID != r.pending {
			return fmt.Errorf("ack of %q, but %q is in flight", m.ID, r.pending)
		}
		if m.Duplicate {
			r.duplicates++
		}
		r.acked[m.ID] = m.Seq
		r.ackTotal.Add(1)
		r.needSeq, r.rechoose = m.Seq, time.Time{}
		r.pending = ""
	case "reject":
		if m.ID != r.pending {
			return fmt.Errorf("reject of %q (%s), but %q is in flight", m.ID, m.Error.Code, r.pending)
		}
		switch m.Error.Code {
		case "illegal_move", "too_late", "not_your_turn":
			// The shadow was behind the table, or the action was chosen
			// before a reconnect and resent: choose again after the next
			// event, or soon if none comes (the opponent may be waiting).
			r.pending = ""
			r.needSeq, r.rechoose = r.last+1, time.Now().Add(200*time.Millisecond)
		case "game_over":
			r.pending, r.over = "", true
		case "conflict", "unavailable", "rate_limited":
			r.resend = true // same id: it applies at most once
		default:
			return fmt.Errorf("reject of %s: %s %s", m.ID, m.Error.Code, m.Error.Message)
		}
	case "over":
		r.over = true
	}
	return nil
}

// sameView compares a view from the server with the shadow race's.
func (r *racer) sameView(game []byte) error {
	got, err := sightOf(game)
	if err != nil {
		return err
	}
	want, _ := sightOf(r.shadow.View(r.seat))
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("the server's view differs from the shadow race:\n got %s\nwant %s", mustJSONs(got), mustJSONs(want))
	}
	return nil
}

func mustJSONs(v any) string { b, _ := json.Marshal(v); return string(b) }

// ---- the tests ----

// clusterNodes starts n dsol nodes on one fresh PostgreSQL schema.
func clusterNodes(t *testing.T, n int) ([]*server, string) {
	t.Helper()
	db := testenv.PostgresSchemaURL(t)
	env := map[string]string{"DATABASE_URL": db, "DSOL_LOG_FORMAT": "text", "DSOL_SHUTDOWN_TIMEOUT": "5s"}
	nodes := make([]*server, n)
	for i := range nodes {
		nodes[i] = mustServe(t, env)
	}
	return nodes, db
}

// openDB opens the cluster's database, closed when the test ends.
func openDB(t *testing.T, db string) *postgres.Store {
	t.Helper()
	st, err := postgres.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// mustLog reads a game's action log from the database.
func mustLog(t *testing.T, db, game string) []store.Action {
	t.Helper()
	ctx := context.Background()
	st := openDB(t, db)
	acts, err := st.Actions(ctx, game, 0)
	if err != nil {
		t.Fatal(err)
	}
	return acts
}

// checkLog asserts a linear log (seq 1..N, each client id once) that holds
// every acknowledged action at its seq, and returns its replay.
func checkLog(t *testing.T, acts []store.Action, code string, acked map[string]int64) *race.Race {
	t.Helper()
	c, err := cards.ParseCode(code)
	if err != nil {
		t.Fatal(err)
	}
	r, err := race.New(c, race.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	for i, a := range acts {
		if a.Seq != int64(i+1) {
			t.Fatalf("log entry %d has seq %d: the log is not linear", i, a.Seq)
		}
		if a.ClientID != "" {
			if s, dup := ids[a.ClientID]; dup {
				t.Fatalf("client id %s at seq %d and %d", a.ClientID, s, a.Seq)
			}
			ids[a.ClientID] = a.Seq
		}
		act, err := klondike.DecodeAction(a.Action)
		if err == nil {
			_, err = r.Apply(a.Seat, act)
		}
		if err != nil {
			t.Fatalf("seq %d (%s) does not replay: %v", a.Seq, a.Action, err)
		}
	}
	for id, seq := range acked {
		if ids[id] != seq {
			t.Errorf("acknowledged action %s (seq %d) is at seq %d of the log", id, seq, ids[id])
		}
	}
	return r
}

// raceSetup creates a race through base (the proxy or a node) and seats two
// players; warm lists nodes that load the race before the second player joins.
func raceSetup(t *testing.T, db, base string, warm ...*server) (game, code, tok1, tok2 string) {
	t.Helper()
	api := &server{base: base}
	var p1, p2 struct{ Token string }
	api.call(t, "POST", "/api/v1/players", "", `{"name":"Ann"}`, 201, &p1)
	api.call(t, "POST", "/api/v1/players", "", `{"name":"Bob"}`, 201, &p2)
	var v struct{ ID, Code, Invite string }
	api.call(t, "POST", "/api/v1/races", p1.Token, `{"draw":1,"public":false}`, 201, &v)
	for _, n := range warm { // the first to ask takes the race; the others are refused
		status, _, err := n.client(p1.Token).Request(context.Background(), "GET", "/api/v1/games/"+v.ID, nil)
		if err == nil && status != 200 && status != 503 {
			t.Fatalf("GET the race on %s: %d", n.base, status)
		}
	}
	api.call(t, "POST", "/api/v1/races/"+v.ID+"/join", p2.Token, `{"invite":"`+v.Invite+`"}`, 200, nil)
	return v.ID, storedCode(t, db, v.ID), p1.Token, p2.Token
}

// storedCode reads a race's code from the database: its views do not show
// it before the race is over.
func storedCode(t *testing.T, db, game string) string {
	t.Helper()
	ctx := context.Background()
	st := openDB(t, db)
	g, err := st.Game(ctx, game)
	if err != nil {
		t.Fatal(err)
	}
	return g.Code
}

// TestClusterFailover plays races through a hashing proxy in front of two
// nodes and kills the node holding the race mid-race: gracefully (its run
// context ends: sockets close with 1012) or abruptly (the proxy cuts every
// connection to it at once and the node lives on, unreachable, holding the
// game). The players reconnect with ?since=, land on the other node, resend
// what was not acknowledged with the same ids and finish the race.
func TestClusterFailover(t *testing.T) {
	for _, kill := range []string{"graceful", "abrupt"} {
		t.Run(kill, func(t *testing.T) {
			nodes, db := clusterNodes(t, 2)
			px := newHashProxy(nodes[0].base, nodes[1].base)
			front := httptest.NewServer(px)
			defer front.Close()

			// Both nodes are asked for the race before the second player
			// joins: only one may run it.
			game, code, tok1, tok2 := raceSetup(t, db, front.URL, nodes...)
			// A bound on waiting, not a speed check: with -race and browser
			// tests beside it on two cores, a race of ~200 actions may take a while.
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			var acks atomic.Int64
			wsBase := "ws" + strings.TrimPrefix(front.URL, "http")
			players := make([]*racer, 2)
			for i, tok := range []string{tok1, tok2} {
				p, err := newRacer([]string{"ann", "bob"}[i], i+1, tok, game, code, wsBase, &acks)
				if err != nil {
					t.Fatal(err)
				}
				players[i] = p
			}
			// Kill the race's node right after Ann sends her 13th action,
			// which is then in flight: never answered on the old socket, it
			// is resent with its id to the other node.
			// The race's node is the one running it, which the routing may
			// not have moved it to yet.
			var owner *proxyNode
			idx := 0
			var killedAt int64
			var inFlight string
			stopped := make(chan struct{})
			players[0].afterSend = func(r *racer) {
				if r.sent != 13 {
					return
				}
				idx = runningNode(t, nodes, game)
				owner = px.nodes[idx]
				killedAt, inFlight = acks.Load(), r.pending
				switch kill {
				case "graceful":
					owner.dead.Store(true)
					go func() { nodes[idx].stop(t); close(stopped) }()
				case "abrupt":
					owner.sever()
					close(stopped)
				}
			}
			errs := make(chan error, 2)
			for _, p := range players {
				go func() { errs <- p.play(ctx) }()
			}
			for range 2 {
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
			}
			select {
			case <-stopped:
			case <-ctx.Done():
				t.Fatalf("the race ended before the kill (%d acks)", acks.Load())
			}
			if now := px.owner(game); now == owner || now == nil {
				t.Fatalf("the proxy still routes the race to %v", now)
			}

			acts := mustLog(t, db, game)
			acked := map[string]int64{}
			for _, p := range players {
				if p.reconnects == 0 {
					t.Errorf("%s never reconnected", p.name)
				}
				if p.last != int64(len(acts)) {
					t.Errorf("%s saw events up to seq %d, the log has %d", p.name, p.last, len(acts))
				}
				for id, seq := range p.acked {
					acked[id] = seq
				}
			}
			replay := checkLog(t, acts, code, acked)
			if replay.Status() != race.Over {
				t.Fatalf("the race is not over after %d actions", len(acts))
			}
			want, _ := sightOf(replay.View(0))
			api := &server{base: front.URL}
			for _, p := range players {
				if got, _ := sightOf(p.shadow.View(p.seat)); !reflect.DeepEqual(got, want) {
					t.Errorf("%s's race differs from the replay of the log", p.name)
				}
				var raw json.RawMessage
				api.call(t, "GET", "/api/v1/games/"+game, p.token, "", 200, &raw)
				if got, _ := sightOf([]byte(raw)); !reflect.DeepEqual(got, want) {
					t.Errorf("GET as %s:\n got %s\nwant %s", p.name, mustJSONs(got), mustJSONs(want))
				}
			}
			if _, ok := players[0].acked[inFlight]; !ok {
				t.Errorf("the action in flight at the kill (%q) was never acknowledged", inFlight)
			}
			t.Logf("%s kill after %d acks with %s in flight (acked at seq %d, duplicate: %v); %d actions in the log; reconnects %d/%d",
				kill, killedAt, inFlight, players[0].acked[inFlight], players[0].duplicates > 0, len(acts), players[0].reconnects, players[1].reconnects)
		})
	}
}

// restAction posts one action with a client id to a node and returns the
// status and the error code or the seq of the view in the answer (for a
// resent id, the current seq).
func restAction(t *testing.T, n *server, game, token, id, typ string) (int, string) {
	t.Helper()
	status, raw := n.client(token).Do(t, "POST", "/api/v1/games/"+game+"/actions", `{"id":"`+id+`","action":{"type":"`+typ+`"}}`)
	var out struct {
		Seq   int64
		Error struct{ Code string }
	}
	json.Unmarshal(raw, &out)
	if status == 200 {
		return 200, strconv.FormatInt(out.Seq, 10)
	}
	return status, out.Error.Code
}

// TestClusterOwnership writes one race through two nodes directly,
// bypassing the proxy. Only the node holding the race's lease runs it: the
// other answers unavailable (with Retry-After), never from a copy of its
// own, and asks for the race, which the holder hands over within a lease
// renewal; a resent client id never applies twice; both players drawing
// through both nodes at once, resending what was not answered, leave a linear
// log with every acknowledged action once; each node's /node lists exactly
// the games whose lease it holds.
func TestClusterOwnership(t *testing.T) {
	nodes, db := clusterNodes(t, 2)
	a, b := nodes[0], nodes[1]
	game, code, tok1, tok2 := raceSetup(t, db, a.base)
	// until retries an action on a node while it answers unavailable: the
	// handover takes a lease renewal.
	until := func(n *server, tok, id string) (int, string) {
		deadline := time.Now().Add(10 * time.Second)
		for {
			status, answer := restAction(t, n, game, tok, id, "draw")
			if status != 503 || time.Now().After(deadline) {
				return status, answer
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	for i, step := range []struct {
		node   *server
		token  string
		id     string
		retry  bool
		status int
		answer string // seq or error code
	}{
		{a, tok1, "f1", false, 200, "1"},
		{b, tok1, "f2", false, 503, "unavailable"}, // a holds the race
		{b, tok1, "f2", true, 200, "2"},            // handed over to b
		{a, tok2, "g1", false, 503, "unavailable"}, // b holds it now
		{a, tok1, "f1", true, 200, "2"},            // back to a: a resent id applies nothing
		{a, tok2, "g1", false, 200, "3"},
	} {
		status, answer := restAction(t, step.node, game, step.token, step.id, "draw")
		if step.retry {
			status, answer = until(step.node, step.token, step.id)
		}
		if status != step.status || answer != step.answer {
			t.Fatalf("step %d (%s on %s): %d %s, want %d %s", i, step.id, step.node.base, status, answer, step.status, step.answer)
		}
	}
	checkOwners(t, db, nodes)

	// Both players draw through both nodes at once, each action to the other
	// node than the last, resending on unavailable with the same id.
	var wg sync.WaitGroup
	var mu sync.Mutex
	acked := map[string]int64{"f1": 1, "f2": 2, "g1": 3}
	fail := make(chan string, 2)
	for pi, tok := range []string{tok1, tok2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 4 {
				id := fmt.Sprintf("p%d-%d", pi+1, k)
				status, answer := until(nodes[(k+pi)%2], tok, id)
				if status != 200 {
					fail <- fmt.Sprintf("%s: %d %s", id, status, answer)
					return
				}
				seq, _ := strconv.ParseInt(answer, 10, 64)
				mu.Lock()
				acked[id] = seq
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(fail)
	for f := range fail {
		t.Fatal(f)
	}
	acts := mustLog(t, db, game)
	if len(acts) != len(acked) {
		t.Fatalf("%d actions in the log, %d acknowledged", len(acts), len(acked))
	}
	replay := checkLog(t, acts, code, acked)
	want, _ := sightOf(replay.View(0))
	checkOwners(t, db, nodes)
	// A socket opened with since= on either node resumes without a gap once
	// that node holds the race (a refused upgrade is retried).
	for _, n := range nodes {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		var c *websocket.Conn
		for {
			var err error
			c, _, err = n.client(tok1).Handshake(ctx, "/api/v1/games/"+game+"/ws?since=3", nil)
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		seq := int64(3)
		var game json.RawMessage
		for seq < int64(len(acts)) {
			var m wsMsg
			if err := wsjson.Read(ctx, c, &m); err != nil {
				t.Fatalf("%s: %v", n.base, err)
			}
			if m.Type == "presence" {
				continue
			}
			if m.Type != "event" || m.Seq != seq+1 {
				t.Fatalf("%s: %s at seq %d after seq %d, want the next event", n.base, m.Type, m.Seq, seq)
			}
			seq, game = m.Seq, m.Game
		}
		c.CloseNow()
		cancel()
		if got, _ := sightOf([]byte(game)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the view at the last event differs from the replay", n.base)
		}
	}
}

// runningNode returns the index of the node whose /node lists game.
func runningNode(t *testing.T, nodes []*server, game string) int {
	for i, n := range nodes {
		var v struct{ Games []string }
		n.call(t, "GET", "/node", "", "", 200, &v)
		if slices.Contains(v.Games, game) {
			return i
		}
	}
	t.Errorf("no node runs %s", game)
	return 0
}

// checkOwners checks that no game runs on two nodes and that what each node
// says it runs (GET /node) is what the leases say it holds.
func checkOwners(t *testing.T, db string, nodes []*server) {
	t.Helper()
	ctx := context.Background()
	st := openDB(t, db)
	leases, err := st.LiveLeases(ctx, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	held := map[string][]string{}
	for _, l := range leases {
		held[l.Node] = append(held[l.Node], l.Game)
	}
	where := map[string]string{}
	for _, n := range nodes {
		var v struct {
			Node  string
			Games []string
		}
		n.call(t, "GET", "/node", "", "", 200, &v)
		for _, g := range v.Games {
			if other, ok := where[g]; ok {
				t.Fatalf("game %s runs on %s and on %s", g, other, v.Node)
			}
			where[g] = v.Node
		}
		if fmt.Sprint(v.Games) != fmt.Sprint(held[v.Node]) && !(len(v.Games) == 0 && len(held[v.Node]) == 0) {
			t.Fatalf("node %s runs %v but holds the leases of %v", v.Node, v.Games, held[v.Node])
		}
	}
}
