package main

// The golden transcripts: scripted flows of REST calls and socket messages
// against the server as dsol serve wires it (wire), on a fresh database,
// seeded random sources and a manual clock, recorded under testdata/golden/
// and compared at every run, on SQLite and, when DSOL_TEST_POSTGRES_URL is
// set, on PostgreSQL (the same files). What a client receives must not
// change unless the transcripts are recorded again, on purpose:
//
//	DSOL_GOLDEN_UPDATE=1 go test -run TestGolden ./cmd/dsol/
//
// Each flow is one file of JSON Lines, one record a line, in the order the
// script made and read them:
//
//	{"step": "…"}                                        what the script does next
//	{"who", "req", "body"?, "status", "headers", "resp"}  a REST call and its answer
//	{"ws", "who", "open", "status"}                       a socket opened ("ws": "refused": refused)
//	{"ws", "send": …} / {"ws", "recv": …}                 a client frame / a server message
//	{"ws", "close", "reason"} / {"ws", "hangUp"}          the server / the client closed the socket
//	{"clock": "…"}                                        the manual clock moved
//
// Bodies and messages are recorded byte for byte (key order, escaping; a
// REST answer's final newline is taken off), with a few headers (not Date),
// but for the placeholders of the normalizer: the ids, tokens, invites,
// salts, commitments and transfer codes the server draws from its random
// sources become "<id:1>", "<token:1>", … in the order they first appear,
// so that a refactoring that reads a random source in another order still
// passes. Times are kept: they come from the manual clock. The game service
// and the players service have a source each, so that the players' ids,
// tokens and default names do not depend on the games drawn before them.
// What the game service draws besides ids does depend on the order of its
// reads, and is kept: the cards of the deals the server chooses (a random
// solo deal, a winnable one, the daily challenges, a server-dealt race, a
// rematch) and the hints, which are worked out from the game id (the game of
// the hints is its flow's first, so its id is the source's first draw).
// They come out the same as long as that order is kept.
//
// Socket frames that batch several messages (protocol 2) are recorded
// message by message, so that timing, which decides the batching, does not
// show, and each socket is read in windows (see expect). The script waits
// for every answer it expects before its next step, so that the order of
// the records is the script's, not the scheduler's.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"dsol/internal/metrics"
	"dsol/internal/store"
	"dsol/internal/store/postgres"
	"dsol/internal/store/sqlite"
	"dsol/internal/testenv"
)

// goldenUpdate is the environment variable that rewrites the transcripts.
const goldenUpdate = "DSOL_GOLDEN_UPDATE"

// goldenStart is where the manual clock of every flow starts.
var goldenStart = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// goldenWait bounds every wait of the script (a request, a socket read):
// a guard against hangs, never an assertion about speed.
const goldenWait = 15 * time.Second

// TestGolden runs every flow and compares its transcript with the one
// recorded under testdata/golden/.
func TestGolden(t *testing.T) {
	flows := []struct {
		name string
		run  func(g *golden)
	}{
		{"players", flowPlayers},
		{"solo", flowSolo},
		{"race", flowRace},
		{"daily", flowDaily},
		{"replay", flowReplay},
		{"match", flowMatch},
		{"lobby", flowLobby},
		{"errors", flowErrors},
	}
	for _, f := range flows {
		t.Run(f.name, func(t *testing.T) {
			for _, kind := range []string{"sqlite", "postgres"} {
				t.Run(kind, func(t *testing.T) {
					g := newGolden(t, kind)
					f.run(g)
					// The transcript is the same on both stores: recorded
					// from SQLite, compared on PostgreSQL.
					g.finish(filepath.Join("testdata", "golden", f.name+".jsonl"), kind == "sqlite")
				})
			}
		})
	}
}

// ---- the server ----

// golden is one flow: a server of its own and the transcript.
type golden struct {
	t       *testing.T
	url     string
	clock   *testenv.Clock
	st      store.Store
	hc      *http.Client
	norm    *normalizer
	out     bytes.Buffer
	logs    *testenv.Buffer
	players map[string]*goldenPlayer
	sockets []*goldenSocket
	secHdrs http.Header // the security headers of the flow's first answer
}

// goldenPlayer is a player of the script: its label in the transcript,
// its id and its bearer token.
type goldenPlayer struct {
	label, id, token string
}

// newGolden builds the server of dsol serve (wire) with the defaults of its
// flags, no background search of winnable deals and no retention sweep, on
// a fresh database of kind ("sqlite", or "postgres", which skips the test
// unless DSOL_TEST_POSTGRES_URL is set), seeded random sources and a
// manual clock, and serves it on a local port until the test ends.
//
// On PostgreSQL the node shares its games through leases kept on the table
// clock, renewed every third of their length in real time: a manual clock
// moved on by more than a lease's length (a race's grace, a day) would
// have them lapse, and the tables stop, at a moment the scheduler chooses.
// The leases there last 1000 hours instead of 3 seconds, the one setting
// that differs from dsol serve's defaults.
func newGolden(t *testing.T, kind string) *golden {
	args := []string{"--winnable-target", "0"}
	if kind == "postgres" {
		args = append(args, "--lease", "1000h", "--node", "golden")
	}
	cfg, err := parseServe(args, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.retention != 0 || cfg.winnableTarget != 0 {
		t.Fatalf("retention %v, winnable target %d: both must be off", cfg.retention, cfg.winnableTarget)
	}
	var st store.Store
	switch kind {
	case "sqlite":
		st, err = sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "dsol.db"))
	case "postgres":
		st, err = postgres.Open(context.Background(), testenv.PostgresSchemaURL(t))
	}
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	logs := &testenv.Buffer{}
	log := newLogger("text", slog.LevelInfo, logs)
	m := metrics.New()
	clock := testenv.NewClockAt(goldenStart)
	pool, stopWinnable := startWinnable(ctx, st, cfg, log, m)
	com := store.NewCommitter(st, cfg.commitWindow, cfg.commitMax, m.ObserveCommit)
	w := wire(st, com, cfg, log, m, wiringDeps{
		random:       seededReader(1),
		playerRandom: seededReader(2),
		clock:        clock.Now,
		afterFunc:    clock.AfterFunc,
		winnable:     pool,
	})
	srv := httptest.NewServer(w.handler)
	g := &golden{t: t, url: srv.URL, clock: clock, st: st, hc: &http.Client{Timeout: goldenWait},
		norm: newNormalizer(), logs: logs, players: map[string]*goldenPlayer{}}
	g.norm.fixed(strings.TrimPrefix(srv.URL, "http://"), "<host>") // the port changes from run to run
	t.Cleanup(func() {
		for _, s := range g.sockets {
			s.c.CloseNow()
		}
		sctx, scancel := context.WithTimeout(context.Background(), goldenWait)
		defer scancel()
		w.closeSockets(sctx)
		srv.Close()
		if err := w.games.Close(sctx); err != nil {
			t.Errorf("tables: %v", err)
		}
		w.owner.Close()
		com.Close()
		stopWinnable()
		cancel()
		st.Close()
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	return g
}

// seededReader is a deterministic random source: ChaCha8 with a fixed seed.
func seededReader(seed byte) io.Reader {
	var s [32]byte
	s[0] = seed
	return rand.NewChaCha8(s)
}

// advance moves the clock on by d, in the transcript too.
func (g *golden) advance(d time.Duration) {
	g.t.Helper()
	g.clock.Advance(d)
	g.record(map[string]any{"clock": "+" + d.String() + " = " + g.clock.Now().Format(time.RFC3339Nano)})
}

// advanceToTimer waits until the server has set a timer to run d from now
// (a table sets its race's timers on its own goroutine, once it has
// answered), then moves the clock on by d: that timer runs, with any other
// due by then.
func (g *golden) advanceToTimer(what string, d time.Duration) {
	g.t.Helper()
	at := g.clock.Now().Add(d)
	deadline := time.Now().Add(goldenWait)
	for !g.clock.Pending(at) {
		if time.Now().After(deadline) {
			g.t.Fatalf("%s: no timer was set for %s", what, at.Format(time.RFC3339Nano))
		}
		time.Sleep(time.Millisecond)
	}
	g.advance(d)
}

// ---- the transcript ----

// step records what the script does next.
func (g *golden) step(format string, args ...any) {
	g.record(map[string]any{"step": fmt.Sprintf(format, args...)})
}

// record adds one record to the transcript; raw JSON values
// (json.RawMessage) are written as they are, after the normalizer's
// placeholders.
func (g *golden) record(fields map[string]any, order ...string) {
	g.t.Helper()
	if len(order) == 0 {
		for k := range fields {
			order = append(order, k)
		}
		slices.Sort(order)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range order {
		v, ok := fields[k]
		if !ok {
			continue
		}
		if i > 0 && b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(plainJSON(g.t, k))
		b.WriteByte(':')
		switch v := v.(type) {
		case json.RawMessage:
			b.Write(g.norm.apply(v))
		case string:
			b.Write(plainJSON(g.t, g.norm.applyString(v)))
		default:
			b.Write(g.norm.apply(plainJSON(g.t, v)))
		}
	}
	b.WriteString("}\n")
	g.out.Write(b.Bytes())
}

// plainJSON encodes a value of the script's own (a path, headers) as JSON
// without escaping <, > and &, so that placeholders read as they are.
func plainJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		tb.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// finish compares the transcript with the file at path, or, when
// DSOL_GOLDEN_UPDATE is set and record is true, writes it there; it first
// checks that every open socket has nothing more than the script read (a
// ping's pong comes next).
func (g *golden) finish(path string, record bool) {
	g.t.Helper()
	for _, s := range g.sockets {
		if !s.closed {
			s.sync()
		}
	}
	got := g.out.Bytes()
	if record && os.Getenv(goldenUpdate) != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			g.t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			g.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		g.t.Fatalf("%v (record the transcripts with %s=1)", err, goldenUpdate)
	}
	if msg := goldenDiff(want, got); msg != "" {
		g.t.Errorf("%s differs from what the server answers now (%s=1 records it again, if the change is meant):\n%s", path, goldenUpdate, msg)
	}
}

// goldenDiff describes the first line where got differs from want, with
// the step it belongs to, the lines before it and where in the line the
// two part; "" when they are the same.
func goldenDiff(want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	wl := strings.Split(string(want), "\n")
	gl := strings.Split(string(got), "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	var b strings.Builder
	step := ""
	for j := i - 1; j >= 0; j-- {
		if strings.HasPrefix(wl[j], `{"step":`) {
			step = wl[j]
			break
		}
	}
	fmt.Fprintf(&b, "first difference at line %d (want %d lines, got %d)\n", i+1, len(wl), len(gl))
	if step != "" {
		fmt.Fprintf(&b, "in %s\n", step)
	}
	for j := max(0, i-3); j < i; j++ {
		fmt.Fprintf(&b, "  %d: %s\n", j+1, clip(wl[j], 300))
	}
	w, gt := "", ""
	if i < len(wl) {
		w = wl[i]
	}
	if i < len(gl) {
		gt = gl[i]
	}
	c := 0
	for c < len(w) && c < len(gt) && w[c] == gt[c] {
		c++
	}
	from := max(0, c-120)
	fmt.Fprintf(&b, "at column %d:\n", c+1)
	fmt.Fprintf(&b, "- want: …%s\n", clip(w[from:], 400))
	fmt.Fprintf(&b, "+ got:  …%s\n", clip(gt[from:], 400))
	return b.String()
}

// clip shortens s to n bytes.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ---- the normalizer ----

// normalizer replaces the values the server draws from its random source
// with placeholders numbered in the order they first appear. It learns
// them from the keys that carry them in bodies and messages (register),
// and replaces them everywhere: in bodies, messages, paths and headers.
type normalizer struct {
	mu     sync.Mutex
	holder map[string]string // value → placeholder
	values []string          // longest first
	count  map[string]int    // placeholders made, by kind
}

func newNormalizer() *normalizer {
	return &normalizer{holder: map[string]string{}, count: map[string]int{}}
}

var (
	b64of12   = regexp.MustCompile(`^[A-Za-z0-9_-]{16}$`) // game and player ids
	b64of16   = regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`) // race invites
	b64of32   = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`) // bearer tokens
	hexOf16   = regexp.MustCompile(`^[0-9a-f]{32}$`)      // race salts
	hexOf32   = regexp.MustCompile(`^[0-9a-f]{64}$`)      // commitments
	linkShape = regexp.MustCompile(`^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$`)
)

// kindOf tells the placeholder kind of a string value under key, or "" for
// a value kept as it is.
func kindOf(key, v string) string {
	switch key {
	case "id", "game", "race", "rematchOf":
		if b64of12.MatchString(v) {
			return "id"
		}
	case "token":
		if b64of32.MatchString(v) {
			return "token"
		}
	case "invite":
		if b64of16.MatchString(v) {
			return "invite"
		}
	case "salt":
		if hexOf16.MatchString(v) {
			return "salt"
		}
	case "commitment":
		if hexOf32.MatchString(v) {
			return "commitment"
		}
	case "code":
		if linkShape.MatchString(v) {
			return "link"
		}
	case "qr":
		return "qr"
	}
	return ""
}

// register learns the random values of a JSON document, in document order.
func (n *normalizer) register(raw []byte) {
	walkJSON(raw, func(key string, v any) {
		s, ok := v.(string)
		if !ok {
			return
		}
		if kind := kindOf(key, s); kind != "" {
			n.add(kind, s)
		}
	})
}

// add gives v the next placeholder of kind, unless it has one. A value
// that JSON escapes (a QR code's SVG) is held in its escaped form too.
func (n *normalizer) add(kind, v string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.holder[v]; ok {
		return
	}
	n.count[kind]++
	p := fmt.Sprintf("<%s:%d>", kind, n.count[kind])
	n.holder[v] = p
	n.values = append(n.values, v)
	if j, _ := json.Marshal(v); string(j[1:len(j)-1]) != v {
		n.holder[string(j[1:len(j)-1])] = p
		n.values = append(n.values, string(j[1:len(j)-1]))
	}
	sort.SliceStable(n.values, func(i, j int) bool { return len(n.values[i]) > len(n.values[j]) })
}

// fixed has v replaced by the placeholder p.
func (n *normalizer) fixed(v, p string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.holder[v] = p
	n.values = append(n.values, v)
	sort.SliceStable(n.values, func(i, j int) bool { return len(n.values[i]) > len(n.values[j]) })
}

// apply replaces every value learnt in b.
func (n *normalizer) apply(b []byte) []byte {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, v := range n.values {
		if bytes.Contains(b, []byte(v)) {
			b = bytes.ReplaceAll(b, []byte(v), []byte(n.holder[v]))
		}
	}
	return b
}

func (n *normalizer) applyString(s string) string { return string(n.apply([]byte(s))) }

// walkJSON calls f with every scalar of a JSON document, in document order,
// and the key it sits under (the key of the array it is in, for an array's
// elements); a document that is not JSON is left alone.
func walkJSON(raw []byte, f func(key string, v any)) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	type level struct {
		obj       bool
		key       string
		expectKey bool
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				key := ""
				if top != nil {
					key = top.key
					if top.obj {
						top.expectKey = true
					}
				}
				stack = append(stack, &level{obj: d == '{', key: key, expectKey: d == '{'})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if top != nil && top.obj && top.expectKey {
			top.key, _ = tok.(string)
			top.expectKey = false
			continue
		}
		key := ""
		if top != nil {
			key = top.key
			if top.obj {
				top.expectKey = true
			}
		}
		f(key, tok)
	}
}

// ---- REST ----

// goldenAnswer is a REST answer.
type goldenAnswer struct {
	status int
	body   []byte
}

// decode reads the answer's JSON into v.
func (a goldenAnswer) decode(tb testing.TB, v any) {
	tb.Helper()
	if err := json.Unmarshal(a.body, v); err != nil {
		tb.Fatalf("%v: %s", err, a.body)
	}
}

// recordedHeaders are the headers of an answer the transcript keeps (Date
// and the like change); the security headers every answer carries are
// kept in full in a flow's first record and, later, where they differ.
var (
	recordedHeaders = []string{"Allow", "Cache-Control", "Content-Disposition", "Content-Length", "Content-Type",
		"Location", "Retry-After", "Set-Cookie", "Vary", "Www-Authenticate"}
	securityHeaders = []string{"Content-Security-Policy", "Permissions-Policy", "Referrer-Policy",
		"Strict-Transport-Security", "X-Content-Type-Options", "X-Frame-Options"}
)

// call sends a request as who (a player's label, or "" for nobody) and
// records it with its answer. body is nil (none), a string (sent as it is)
// or a value sent as JSON. extra headers may follow as name, value pairs.
func (g *golden) call(who, method, path string, body any, extra ...string) goldenAnswer {
	g.t.Helper()
	return g.send(who, method, path, body, false, extra...)
}

// send is call; with digest, the answer's body is recorded as its SHA-256.
func (g *golden) send(who, method, path string, body any, digest bool, extra ...string) goldenAnswer {
	g.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			g.t.Fatal(err)
		}
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, g.url+path, rd)
	if err != nil {
		g.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if who != "" {
		req.Header.Set("Authorization", "Bearer "+g.player(who).token)
	}
	for i := 0; i+1 < len(extra); i += 2 {
		req.Header.Set(extra[i], extra[i+1])
	}
	res, err := g.hc.Do(req)
	if err != nil {
		g.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	resp, err := io.ReadAll(res.Body)
	if err != nil {
		g.t.Fatalf("%s %s: %v", method, path, err)
	}
	g.norm.register(resp)
	for _, c := range res.Cookies() {
		if b64of32.MatchString(c.Value) {
			g.norm.add("token", c.Value)
		}
	}
	fields := map[string]any{"req": method + " " + path, "status": res.StatusCode, "headers": g.headers(res.Header)}
	if who != "" {
		fields["who"] = who
	}
	if len(extra) > 0 {
		fields["reqHeaders"] = extra
	}
	if body != nil {
		switch {
		case !utf8.Valid(raw):
			fields["bodyQuoted"] = strconv.QuoteToASCII(string(raw))
		case json.Valid(raw):
			fields["body"] = json.RawMessage(raw)
		default:
			fields["bodyText"] = clip(string(raw), 200)
		}
	}
	if digest {
		fields["respSHA256"] = fmt.Sprintf("%x", sha256.Sum256(resp))
	} else {
		g.recordBody(fields, "resp", resp, true)
	}
	g.record(fields, "who", "req", "reqHeaders", "body", "bodyText", "bodyQuoted", "status", "headers",
		"resp", "respText", "respQuoted", "respSHA256", "lf")
	return goldenAnswer{status: res.StatusCode, body: resp}
}

// callDigest is call for a large document that is a file of its own (the
// API document): the transcript keeps its SHA-256, not its text.
func (g *golden) callDigest(who, method, path string) {
	g.t.Helper()
	g.send(who, method, path, nil, true)
}

// recordBody puts a body in a record: as JSON when it is JSON (the
// newline that ends a REST answer taken off, and "lf": false when it is
// missing), else as text, or quoted when it is not UTF-8.
func (g *golden) recordBody(fields map[string]any, key string, b []byte, lf bool) {
	if len(b) == 0 {
		return
	}
	trimmed := b
	if lf {
		if bytes.HasSuffix(b, []byte("\n")) {
			trimmed = b[:len(b)-1]
		} else {
			fields["lf"] = false
		}
	}
	switch {
	case !utf8.Valid(b):
		fields[key+"Quoted"] = strconv.QuoteToASCII(string(b))
	case json.Valid(trimmed) && !bytes.ContainsAny(trimmed[:1], " \t\r\n"):
		fields[key] = json.RawMessage(trimmed)
	default:
		fields[key+"Text"] = string(b)
	}
}

// headers returns the recorded headers of an answer.
func (g *golden) headers(h http.Header) map[string]string {
	out := map[string]string{}
	for _, k := range recordedHeaders {
		if vs := h.Values(k); len(vs) > 0 {
			out[k] = strings.Join(vs, " | ")
		}
	}
	sec := http.Header{}
	for _, k := range securityHeaders {
		if vs := h.Values(k); len(vs) > 0 {
			sec[k] = vs
		}
	}
	first := g.secHdrs == nil
	if first {
		g.secHdrs = sec
	}
	for _, k := range securityHeaders {
		if first || !slices.Equal(sec.Values(k), g.secHdrs.Values(k)) {
			if vs := sec.Values(k); len(vs) > 0 {
				out[k] = strings.Join(vs, " | ")
			} else if !first {
				out[k] = "(none)"
			}
		}
	}
	return out
}

// mustCall is call that fails the test unless the answer has status.
func (g *golden) mustCall(status int, who, method, path string, body any, extra ...string) goldenAnswer {
	g.t.Helper()
	a := g.call(who, method, path, body, extra...)
	if a.status != status {
		g.t.Fatalf("%s %s: status %d, want %d: %s", method, path, a.status, status, a.body)
	}
	return a
}

// player returns the script's player of a label.
func (g *golden) player(label string) *goldenPlayer {
	g.t.Helper()
	p, ok := g.players[label]
	if !ok {
		g.t.Fatalf("no player %q in the script", label)
	}
	return p
}

// newPlayer creates a player named name (POST /api/v1/players) under a
// label of the script.
func (g *golden) newPlayer(label, name string) *goldenPlayer {
	g.t.Helper()
	a := g.mustCall(201, "", "POST", "/api/v1/players", map[string]string{"name": name})
	var p struct{ ID, Token string }
	a.decode(g.t, &p)
	gp := &goldenPlayer{label: label, id: p.ID, token: p.Token}
	g.players[label] = gp
	return gp
}

// ---- sockets ----

// goldenSocket is a socket of the script: its label in the transcript
// and the messages read but not yet looked at (a frame of protocol 2 may
// hold several).
type goldenSocket struct {
	g         *golden
	label     string
	c         *websocket.Conn
	queue     []json.RawMessage
	closed    bool
	lastEvent int64 // the highest seq of an event read
}

// goldenMsg is what the script looks at in a server message.
type goldenMsg struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Seq       *int64 `json:"seq"`
	Duplicate bool   `json:"duplicate"`
	raw       json.RawMessage
}

// dial opens a socket as who on path and records it.
func (g *golden) dial(who, label, path string) *goldenSocket {
	g.t.Helper()
	c, status, body, err := g.handshake(who, path)
	if err != nil {
		g.t.Fatalf("dial %s: %v (status %d: %s)", path, err, status, body)
	}
	s := &goldenSocket{g: g, label: label, c: c}
	c.SetReadLimit(1 << 22)
	g.sockets = append(g.sockets, s)
	g.record(map[string]any{"ws": label, "who": who, "open": path, "status": status}, "ws", "who", "open", "status")
	return s
}

// dialRefused tries a socket that the server refuses before the upgrade,
// and records the refusal as a REST answer.
func (g *golden) dialRefused(who, path string, extra ...string) {
	g.t.Helper()
	c, status, body, err := g.handshake(who, path, extra...)
	if err == nil {
		c.CloseNow()
		g.t.Fatalf("dial %s: upgraded, want a refusal", path)
	}
	g.norm.register(body)
	fields := map[string]any{"ws": "refused", "open": path, "status": status}
	if who != "" {
		fields["who"] = who
	}
	if len(extra) > 0 {
		fields["reqHeaders"] = extra
	}
	g.recordBody(fields, "resp", body, true)
	g.record(fields, "ws", "who", "open", "reqHeaders", "status", "resp", "respText", "respQuoted", "lf")
}

// handshake dials path with who's token (and extra headers): the socket,
// or the status and body of the refusal.
func (g *golden) handshake(who, path string, extra ...string) (*websocket.Conn, int, []byte, error) {
	h := http.Header{}
	if who != "" {
		h.Set("Authorization", "Bearer "+g.player(who).token)
	}
	for i := 0; i+1 < len(extra); i += 2 {
		h.Set(extra[i], extra[i+1])
	}
	ctx, cancel := context.WithTimeout(context.Background(), goldenWait)
	defer cancel()
	u := "ws" + strings.TrimPrefix(g.url, "http") + path
	c, res, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h, HTTPClient: g.hc})
	if err != nil {
		if res == nil {
			return nil, 0, nil, err
		}
		var body []byte
		if res.Body != nil {
			body, _ = io.ReadAll(res.Body)
			res.Body.Close()
		}
		return nil, res.StatusCode, body, err
	}
	return c, res.StatusCode, nil, nil
}

// send writes a text frame and records it.
func (s *goldenSocket) send(frame string) {
	s.g.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), goldenWait)
	defer cancel()
	if err := s.c.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
		s.g.t.Fatalf("%s: write: %v", s.label, err)
	}
	fields := map[string]any{"ws": s.label}
	if json.Valid([]byte(frame)) {
		fields["send"] = json.RawMessage(frame)
	} else {
		fields["sendText"] = frame
	}
	s.g.record(fields, "ws", "send", "sendText")
}

// act sends an action frame with a client id.
func (s *goldenSocket) act(id, action string) {
	s.g.t.Helper()
	s.send(`{"type":"action","id":"` + id + `","action":` + action + `}`)
}

// Reading a socket. A socket's messages come from two queues of the
// server: the game's feed (state, events, presence, check, over, rematch;
// lobby lists; match news), in the table's order, and the answers to the
// client's own frames (ack, reject, pong), in the order of those frames.
// Each keeps its order, but how the two interleave depends on when the
// socket's writer runs: a notice the table sends after it answered an
// action (a race's over, once the resign is acknowledged) may come before
// the ack or after it. The script therefore reads in windows, each up to
// the messages it expects (expect), and a window is recorded with its feed
// messages first, then its answers, each in the order they came; the one
// order the protocol promises across the two, an action's ack after its
// event, is checked as the messages come.

// matcher is what a window of expect waits for.
type matcher struct {
	what  string
	match func(goldenMsg) bool
}

// Matchers of expect.
func isType(t string) matcher {
	return matcher{t, func(m goldenMsg) bool { return m.Type == t }}
}
func isAnswer(id string) matcher {
	return matcher{"answer to " + id, func(m goldenMsg) bool { return (m.Type == "ack" || m.Type == "reject") && m.ID == id }}
}
func isEvent(seq int64) matcher {
	return matcher{fmt.Sprintf("event %d", seq), func(m goldenMsg) bool { return m.Type == "event" && m.Seq != nil && *m.Seq == seq }}
}

// isAnswerType tells the answers to a client's frames from the feed.
func isAnswerType(t string) bool { return t == "ack" || t == "reject" || t == "pong" }

// read returns the next server message, read from the socket when none
// waits, or the close once the server closed the socket (the caller
// records it).
func (s *goldenSocket) read() (goldenMsg, *websocket.CloseError) {
	s.g.t.Helper()
	for len(s.queue) == 0 {
		if s.closed {
			s.g.t.Fatalf("%s: closed, a message was expected", s.label)
		}
		ctx, cancel := context.WithTimeout(context.Background(), goldenWait)
		typ, b, err := s.c.Read(ctx)
		cancel()
		var ce websocket.CloseError
		if errors.As(err, &ce) {
			s.closed = true
			return goldenMsg{}, &ce
		}
		if err != nil {
			s.g.t.Fatalf("%s: read: %v\ntranscript so far:\n%s", s.label, err, lastLines(s.g.out.String(), 20))
		}
		if typ != websocket.MessageText {
			s.g.t.Fatalf("%s: a binary frame", s.label)
		}
		s.queue = splitFrame(s.g.t, b)
	}
	raw := s.queue[0]
	s.queue = s.queue[1:]
	var m goldenMsg
	if err := json.Unmarshal(raw, &m); err != nil {
		s.g.t.Fatalf("%s: %v: %s", s.label, err, raw)
	}
	m.raw = raw
	switch {
	case m.Type == "event" && m.Seq != nil:
		s.lastEvent = max(s.lastEvent, *m.Seq)
	case m.Type == "ack" && !m.Duplicate && m.Seq != nil && *m.Seq > s.lastEvent:
		s.g.t.Fatalf("%s: the ack of seq %d came before its event: %s", s.label, *m.Seq, raw)
	}
	return m, nil
}

// expect reads a window of messages, up to one matching each matcher (in
// any order), records it and returns the messages that matched, in the
// order of the matchers.
func (s *goldenSocket) expect(ms ...matcher) []goldenMsg {
	s.g.t.Helper()
	got := make([]goldenMsg, len(ms))
	done := make([]bool, len(ms))
	var window []goldenMsg
	for left := len(ms); left > 0; {
		if len(window) > 10000 {
			s.g.t.Fatalf("%s: no %s in 10000 messages", s.label, ms[slices.Index(done, false)].what)
		}
		m, ce := s.read()
		if ce != nil {
			s.recordWindow(window)
			s.recordClose(ce)
			s.g.t.Fatalf("%s: closed (%d %q), waiting for %s", s.label, ce.Code, ce.Reason, ms[slices.Index(done, false)].what)
		}
		window = append(window, m)
		for i, mt := range ms {
			if !done[i] && mt.match(m) {
				got[i], done[i] = m, true
				left--
				break
			}
		}
	}
	s.recordWindow(window)
	return got
}

// recordWindow records a window: the feed messages, then the answers.
func (s *goldenSocket) recordWindow(window []goldenMsg) {
	s.g.t.Helper()
	for _, m := range feedThenAnswers(window) {
		s.g.norm.register(m.raw)
		s.g.record(map[string]any{"ws": s.label, "recv": m.raw}, "ws", "recv")
	}
}

// feedThenAnswers returns the messages of a window in the order they are
// recorded: the feed messages, then the answers, each in the order they
// came.
func feedThenAnswers(window []goldenMsg) []goldenMsg {
	out := make([]goldenMsg, 0, len(window))
	for _, answers := range []bool{false, true} {
		for _, m := range window {
			if isAnswerType(m.Type) == answers {
				out = append(out, m)
			}
		}
	}
	return out
}

// recordClose records the server's close of the socket.
func (s *goldenSocket) recordClose(ce *websocket.CloseError) {
	s.g.record(map[string]any{"ws": s.label, "close": int(ce.Code), "reason": ce.Reason}, "ws", "close", "reason")
}

// splitFrame returns the messages of a frame: one, or the elements of a
// batch (a JSON array).
func splitFrame(tb testing.TB, b []byte) []json.RawMessage {
	tb.Helper()
	if len(b) > 0 && b[0] == '[' {
		var ms []json.RawMessage
		if err := json.Unmarshal(b, &ms); err != nil {
			tb.Fatalf("%v: %s", err, b)
		}
		return ms
	}
	return []json.RawMessage{slices.Clone(b)}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	for i, l := range ls {
		ls[i] = clip(l, 300)
	}
	return strings.Join(ls, "\n")
}

// answer reads a window up to the answer (ack or reject) to the action of
// client id, and returns it.
func (s *goldenSocket) answer(id string) goldenMsg {
	s.g.t.Helper()
	return s.expect(isAnswer(id))[0]
}

// event reads a window up to the event of seq.
func (s *goldenSocket) event(seq int64) goldenMsg {
	s.g.t.Helper()
	return s.expect(isEvent(seq))[0]
}

// typ reads a window up to a message of type t.
func (s *goldenSocket) typ(t string) goldenMsg {
	s.g.t.Helper()
	return s.expect(isType(t))[0]
}

// sync sends a ping and reads a window up to its pong.
func (s *goldenSocket) sync() {
	s.g.t.Helper()
	s.send(`{"type":"ping"}`)
	s.typ("pong")
}

// closedByServer reads a window up to the server's close of the socket.
func (s *goldenSocket) closedByServer() {
	s.g.t.Helper()
	var window []goldenMsg
	for {
		m, ce := s.read()
		if ce != nil {
			s.recordWindow(window)
			s.recordClose(ce)
			return
		}
		window = append(window, m)
	}
}

// hangUp closes the socket from the client's side (a normal close).
func (s *goldenSocket) hangUp() {
	s.g.t.Helper()
	s.closed = true
	s.c.Close(websocket.StatusNormalClosure, "")
	s.g.record(map[string]any{"ws": s.label, "hangUp": true}, "ws", "hangUp")
}
