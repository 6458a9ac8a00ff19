package main

// The cluster as it is deployed: three `dsol serve` processes on one
// PostgreSQL schema behind Debian's nginx running the shipped
// deploy/nginx/dsol.conf (only its upstream addresses and listen port
// replaced), played through nginx by the racer clients of cluster_test.go.
// One node is killed with SIGKILL mid-play; then, in a second cluster, every
// node is replaced one at a time by the current binary while races go on.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"dsol/internal/cards"
	"dsol/internal/klondike"
	"dsol/internal/race"
	"dsol/internal/store"
	"dsol/internal/store/postgres"
	"dsol/internal/testenv"
)

// clusterFlags are the serve flags of every node of these tests. The lease
// is the default, written out because the takeover bound depends on it; the
// trusted proxy is nginx.
var clusterFlags = []string{"--lease", "3s", "--trusted-proxies", "127.0.0.1", "--shutdown-timeout", "10s"}

// maxTakeover bounds the time from a node's death to the first action the
// cluster acknowledges again in each of its races.
const maxTakeover = 5 * time.Second

// TestClusterNginx runs real dsol processes behind real nginx: the failover
// of a node killed under load, the failover of an arena's owner, and a
// rolling upgrade from the previous commit's binary, side by side. It needs nginx (testenv.Nginx) and
// PostgreSQL.
func TestClusterNginx(t *testing.T) {
	testenv.Nginx(t)
	testenv.PostgresURL(t)
	if testing.Short() {
		t.Skip("builds two binaries and plays some 80 races: not with -short")
	}
	dir := t.TempDir()
	bin, prev := filepath.Join(dir, "dsol"), filepath.Join(dir, "dsol-prev")
	t0 := time.Now()
	if err := buildDsol(repoRoot, bin); err != nil {
		t.Fatal(err)
	}
	t.Logf("built this tree in %v", time.Since(t0).Round(time.Millisecond))
	// The previous commit's binary, built now so that the build does not
	// compete with the failover for the CPU.
	rev := upgradeFrom()
	t0 = time.Now()
	desc, prevErr := buildCommit(repoRoot, rev, prev)
	if prevErr == nil {
		t.Logf("built %s (%s) in %v", rev, desc, time.Since(t0).Round(time.Millisecond))
	}
	t.Run("failover", func(t *testing.T) {
		t.Parallel()
		testNginxFailover(t, bin)
	})
	t.Run("arena", func(t *testing.T) {
		t.Parallel()
		testNginxArena(t, bin)
	})
	t.Run("upgrade", func(t *testing.T) {
		t.Parallel()
		switch {
		case errors.Is(prevErr, errNoSource):
			cannotUpgrade(t, "the source of %s is not available: %v", rev, prevErr)
		case prevErr != nil:
			cannotUpgrade(t, "%s (%s) does not build: %v", rev, desc, prevErr)
		}
		testNginxUpgrade(t, prev, desc, bin)
	})
}

// ---- races through nginx ----

// clusterRace is one race of these tests and its clients: two racers, or one
// racer in seat 1 against the server's bot.
type clusterRace struct {
	id, code string
	bot      bool
	players  []*racer
	watches  []*frameWatch
}

// frameWatch follows one racer's frames (from the racer's goroutine): the
// rejects it got by code, and the first ack and event it got on a socket
// opened after a node was killed.
type frameWatch struct {
	gen     atomic.Int64 // the racer's reconnects as of its last frame
	killGen atomic.Int64 // gen when the node was killed
	mu      sync.Mutex
	rejects map[string]int
	notes   []string // the unexpected rejects, in words
	illegal []illegalMove
	// on sockets opened after the kill: the first frame and ack, and the
	// first events (seq and arrival)
	firstFrame, firstAck time.Time
	events               []seqAt
}

// seqAt is an event's seq and when it arrived.
type seqAt struct {
	seq int64
	at  time.Time
}

// clusterPlay is a set of races played through one front address.
type clusterPlay struct {
	front  string
	db     *postgres.Store
	acks   atomic.Int64
	killAt atomic.Int64 // unix nanos of the kill; 0 before
	retry  atomic.Int64 // REST requests answered 502 or 503 and sent again

	mu    sync.Mutex
	races []*clusterRace
}

// apiCall sends a JSON request through the front and decodes the answer
// into out; a 502 or 503 (a node going away, a game moving) is sent again
// after its Retry-After, as a client should. It returns the last status.
func (p *clusterPlay) apiCall(ctx context.Context, method, path, token, body string, want int, out any) error {
	for {
		req, err := http.NewRequestWithContext(ctx, method, p.front+path, strings.NewReader(body))
		if err != nil {
			return err
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		switch {
		case res.StatusCode == want:
			if out != nil {
				if err := json.Unmarshal(raw, out); err != nil {
					return fmt.Errorf("%s %s: %v: %s", method, path, err, raw)
				}
			}
			return nil
		case res.StatusCode == http.StatusBadGateway || res.StatusCode == http.StatusServiceUnavailable:
			p.retry.Add(1)
			wait := 100 * time.Millisecond
			if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil {
				wait = time.Duration(s) * time.Second
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%s %s: %d and then %w", method, path, res.StatusCode, ctx.Err())
			case <-time.After(wait):
			}
		default:
			return fmt.Errorf("%s %s: %d, want %d: %s", method, path, res.StatusCode, want, raw)
		}
	}
}

// newRace creates a race through the front and its clients: against the
// server's fast bot, or between two new players.
func (p *clusterPlay) newRace(ctx context.Context, n int, bot bool) (*clusterRace, error) {
	var p1, p2 struct{ Token string }
	if err := p.apiCall(ctx, "POST", "/api/v1/players", "", `{"name":"Ann"}`, 201, &p1); err != nil {
		return nil, err
	}
	body := `{"draw":1,"public":false}`
	if bot {
		body = `{"draw":1,"public":false,"bot":"fast"}`
	}
	var v struct{ ID, Invite string }
	if err := p.apiCall(ctx, "POST", "/api/v1/races", p1.Token, body, 201, &v); err != nil {
		return nil, err
	}
	tokens := []string{p1.Token}
	if !bot {
		if err := p.apiCall(ctx, "POST", "/api/v1/players", "", `{"name":"Bob"}`, 201, &p2); err != nil {
			return nil, err
		}
		if err := p.apiCall(ctx, "POST", "/api/v1/races/"+v.ID+"/join", p2.Token, `{"invite":"`+v.Invite+`"}`, 200, nil); err != nil {
			return nil, err
		}
		tokens = append(tokens, p2.Token)
	}
	g, err := p.db.Game(ctx, v.ID) // the code: not in the views before the race is over
	if err != nil {
		return nil, err
	}
	cr := &clusterRace{id: v.ID, code: g.Code, bot: bot}
	wsBase := "ws" + strings.TrimPrefix(p.front, "http")
	for i, tok := range tokens {
		r, err := newRacer(fmt.Sprintf("r%d-%c", n, 'a'+i), i+1, tok, v.ID, g.Code, wsBase, &p.acks)
		if err != nil {
			return nil, err
		}
		// The view of every 10th event is compared with the client's copy
		// of the race (and every state on a reconnect): all of them cost
		// the CPU that 80 clients under the race detector on two cores
		// need; the logs are replayed in full at the end.
		r.viewEvery = 10
		w := &frameWatch{rejects: map[string]int{}}
		w.killGen.Store(-1)
		r.onFrame = func(r *racer, m wsMsg) { p.observe(w, r, m) }
		cr.players = append(cr.players, r)
		cr.watches = append(cr.watches, w)
	}
	p.mu.Lock()
	p.races = append(p.races, cr)
	p.mu.Unlock()
	return cr, nil
}

// raceRejects are the rejects two players racing each other cause: an
// action that arrives after the opponent took the foundation slot
// (too_late), out of turn, after the opponent ended the race, or that the
// opponent's moves on the shared foundations made illegal since it was
// chosen (checked against the log: see illegalMove). Any other reject —
// unavailable, conflict, rate_limited — is an error the cluster showed the
// client.
var raceRejects = map[string]bool{"too_late": true, "not_your_turn": true, "game_over": true, "illegal_move": true}

// illegalMove is an action refused as illegal: the seat, the action and
// the seq of the client's shadow race when it was chosen. The action must
// apply to the race of the log at that seq, so that only what the opponent
// did since can have made it illegal.
type illegalMove struct {
	seat   int
	action json.RawMessage
	at     int64
	note   string
}

// checkRejects fails the test for every reject outside raceRejects.
func (p *clusterPlay) checkRejects(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, cr := range p.races {
		for _, w := range cr.watches {
			w.mu.Lock()
			for _, n := range w.notes {
				t.Errorf("unexpected reject: %s", n)
			}
			w.mu.Unlock()
		}
	}
}

// observe is every racer's frame hook.
func (p *clusterPlay) observe(w *frameWatch, r *racer, m wsMsg) {
	w.gen.Store(int64(r.reconnects))
	switch m.Type {
	case "reject":
		w.mu.Lock()
		w.rejects[m.Error.Code]++
		if m.Error.Code == "illegal_move" {
			var f struct{ Action json.RawMessage }
			json.Unmarshal(r.frame, &f)
			w.illegal = append(w.illegal, illegalMove{seat: r.seat, action: f.Action, at: r.chosenAt,
				note: fmt.Sprintf("%s %s (%s)", r.name, f.Action, m.Error.Message)})
		}
		if !raceRejects[m.Error.Code] {
			w.notes = append(w.notes, fmt.Sprintf("%s %s: %s reject of %s at seq %d after %d reconnects: %s",
				time.Now().Format("15:04:05.000"), r.game, r.name, m.ID, r.last, r.reconnects, m.Error.Message))
		}
		w.mu.Unlock()
	}
	if p.killAt.Load() == 0 || int64(r.reconnects) <= w.killGen.Load() {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.firstFrame.IsZero() {
		w.firstFrame = m.at
	}
	switch {
	case m.Type == "ack" && w.firstAck.IsZero():
		w.firstAck = m.at
	case m.Type == "event" && len(w.events) < 64:
		w.events = append(w.events, seqAt{m.Seq, m.at})
	}
}

// markKill records the moment of a kill: from now on the first ack and
// event of each racer on a new socket are noted.
func (p *clusterPlay) markKill() time.Time {
	p.mu.Lock()
	for _, cr := range p.races {
		for _, w := range cr.watches {
			w.killGen.Store(w.gen.Load())
		}
	}
	p.mu.Unlock()
	now := time.Now()
	p.killAt.Store(now.UnixNano())
	return now
}

// play runs a race's clients to its end.
func (cr *clusterRace) play(ctx context.Context) error {
	errs := make(chan error, len(cr.players))
	for _, r := range cr.players {
		go func() { errs <- r.play(ctx) }()
	}
	var first error
	for range cr.players {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		var st []string
		for _, r := range cr.players {
			st = append(st, fmt.Sprintf("%s: seq %d, %d sent, %d acked, in flight %q, waiting for seq %d, over %v, %d reconnects",
				r.name, r.last, r.sent, len(r.acked), r.pending, r.needSeq, r.over, r.reconnects))
		}
		return fmt.Errorf("race %s: %w (%s)", cr.id, first, strings.Join(st, "; "))
	}
	return nil
}

// check reads the race's log from the database and checks it against what
// its clients saw: linear, every acknowledged action once at its seq, over,
// and each client at its end. It returns the log.
func (cr *clusterRace) check(t *testing.T, st *postgres.Store) []store.Action {
	t.Helper()
	acts, err := st.Actions(context.Background(), cr.id, 0)
	if err != nil {
		t.Fatal(err)
	}
	acked := map[string]int64{}
	for _, r := range cr.players {
		if r.last != int64(len(acts)) {
			t.Errorf("race %s: %s saw events up to seq %d, the log has %d", cr.id, r.name, r.last, len(acts))
		}
		for id, seq := range r.acked {
			acked[id] = seq
		}
	}
	if replay := checkLog(t, acts, cr.code, acked); replay.Status() != race.Over {
		t.Errorf("race %s is not over after %d actions", cr.id, len(acts))
	}
	for _, w := range cr.watches {
		for _, im := range w.illegal {
			if err := appliesAt(cr.code, acts, im); err != nil {
				t.Errorf("race %s: %s was refused as illegal, and it does not apply at seq %d either, where it was chosen: %v",
					cr.id, im.note, im.at, err)
			}
		}
	}
	return acts
}

// earliest is the earlier of two times, zero meaning none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// appliesAt replays a race's log up to the seq an illegal move was chosen at
// and applies the move there.
func appliesAt(code string, acts []store.Action, im illegalMove) error {
	c, err := cards.ParseCode(code)
	if err != nil {
		return err
	}
	r, err := race.New(c, race.Options{})
	if err != nil {
		return err
	}
	if im.at > int64(len(acts)) {
		return fmt.Errorf("chosen at seq %d, past the log's %d actions", im.at, len(acts))
	}
	for _, a := range acts[:im.at] {
		act, err := klondike.DecodeAction(a.Action)
		if err == nil {
			_, err = r.Apply(a.Seat, act)
		}
		if err != nil {
			return fmt.Errorf("replay seq %d: %v", a.Seq, err)
		}
	}
	act, err := klondike.DecodeAction(im.action)
	if err != nil {
		return err
	}
	_, err = r.Apply(im.seat, act)
	return err
}

// rejects adds up the rejects of every client of every race by code.
func (p *clusterPlay) rejects() map[string]int {
	out := map[string]int{}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, cr := range p.races {
		for _, w := range cr.watches {
			w.mu.Lock()
			for c, n := range w.rejects {
				out[c] += n
			}
			w.mu.Unlock()
		}
	}
	return out
}

// reconnects adds up the clients' reconnects.
func (p *clusterPlay) reconnects() int {
	n := 0
	for _, cr := range p.races {
		for _, r := range cr.players {
			n += r.reconnects
		}
	}
	return n
}

// openPlay opens the races of a cluster, with one database handle for all
// that the test reads.
func openPlay(t *testing.T, c *procCluster) *clusterPlay {
	t.Helper()
	return &clusterPlay{front: c.front, db: openDB(t, c.db)}
}

// nodeGames is GET /node of a node.
func nodeGames(ctx context.Context, n *procNode) ([]string, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", n.base+"/node", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var v struct{ Games []string }
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
		return nil, err
	}
	return v.Games, nil
}

// checkCluster checks the cluster at rest: every game on one node, each
// node's /node equal to the leases it holds, and no live lease held by a
// node that is not running.
func checkCluster(t *testing.T, db string, live []*procNode) {
	t.Helper()
	apis := make([]*server, len(live))
	names := map[string]bool{}
	for i, n := range live {
		apis[i] = n.api()
		names[n.name] = true
	}
	checkOwners(t, db, apis)
	leases, err := openDB(t, db).LiveLeases(context.Background(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range leases {
		if !names[l.Node] {
			t.Errorf("game %s: live lease of %s, which is not running", l.Game, l.Node)
		}
	}
}

// ---- failover ----

// testNginxFailover plays 20 races against the server's bot and 20 between
// two clients through nginx, and kills the node running the most of them
// with SIGKILL mid-play. Every race finishes on the other two nodes with no
// acknowledged action lost, each race of the killed node is served again
// within maxTakeover, the survivors never failed a commit, every game runs
// on one node whose /node agrees with the leases, and the alert rules stay
// silent.
func testNginxFailover(t *testing.T, bin string) {
	c := startCluster(t, bin, 3, clusterFlags...)
	p := openPlay(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()

	tSetup := time.Now()
	for i := range 40 {
		if _, err := p.newRace(ctx, i, i%2 == 0); err != nil {
			t.Fatal(err)
		}
	}
	clients := 0
	for _, cr := range p.races {
		clients += len(cr.players)
	}
	t.Logf("40 races (20 against the bot), %d clients, set up through nginx in %v", clients, time.Since(tSetup).Round(time.Millisecond))
	from, _ := scrapeAll(c.nodes)

	// Kill once the clients have played about a quarter of a race; scrape
	// the nodes just before, and again once the takeover is over.
	tPlay := time.Now()
	type killed struct {
		node     *procNode
		games    map[string]bool
		at       time.Time
		acks     int64
		pre, mid []scrape // every node's before the kill; the survivors' after the takeover
		err      error
	}
	killc := make(chan killed, 1)
	killCtx, stopKill := context.WithCancel(ctx)
	defer stopKill()
	go func() {
		for p.acks.Load() < int64(25*clients) {
			select {
			case <-killCtx.Done():
				killc <- killed{err: fmt.Errorf("the races ended or the time ran out before the kill, at %d acks", p.acks.Load())}
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
		var k killed
		best := -1
		for _, n := range c.nodes {
			gs, err := nodeGames(ctx, n)
			if err != nil {
				killc <- killed{err: fmt.Errorf("%s: GET /node: %v", n.name, err)}
				return
			}
			if len(gs) > best {
				best, k.node = len(gs), n
				k.games = map[string]bool{}
				for _, g := range gs {
					k.games[g] = true
				}
			}
		}
		k.pre, _ = scrapeAll(c.nodes)
		k.at, k.acks = p.markKill(), p.acks.Load()
		_, err := k.node.signal(syscall.SIGKILL, 10*time.Second)
		if err != nil && !isSignalExit(err, syscall.SIGKILL) {
			k.err = err
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Until(k.at.Add(maxTakeover + time.Second))):
		}
		k.mid, _ = scrapeAll(c.nodes)
		killc <- k
	}()

	var wg sync.WaitGroup
	errs := make(chan error, len(p.races))
	for _, cr := range p.races {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := cr.play(ctx); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	tEnd := time.Now()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if p.killAt.Load() == 0 {
		stopKill()
	}
	k := <-killc
	if k.err != nil {
		t.Fatal(k.err)
	}
	if t.Failed() {
		return
	}
	t.Logf("played in %v; %s killed %v after the start, running %d of the races, at %d acks",
		tEnd.Sub(tPlay).Round(time.Millisecond), k.node.name, k.at.Sub(tPlay).Round(time.Millisecond), len(k.games), k.acks)

	// Every log is linear and holds every acknowledged action once.
	var takeovers, ackDelays []time.Duration
	actions := 0
	for _, cr := range p.races {
		acts := cr.check(t, p.db)
		actions += len(acts)
		if !k.games[cr.id] {
			continue
		}
		// The takeover: the first ack of the race on a new socket, or the
		// first event of an action committed after the kill if it came
		// earlier (a race against the bot whose player had nothing to
		// send). Events the dead node committed, resent on the new socket,
		// do not count.
		committed := int64(0) // before the kill
		var commit time.Time  // the first commit after it
		for _, a := range acts {
			if !a.At.After(k.at) {
				committed = a.Seq
			} else if commit.IsZero() {
				commit = a.At
			}
		}
		var frame, ack, event time.Time
		for _, w := range cr.watches {
			w.mu.Lock()
			frame, ack = earliest(frame, w.firstFrame), earliest(ack, w.firstAck)
			for _, e := range w.events {
				if e.seq > committed {
					event = earliest(event, e.at)
					break
				}
			}
			w.mu.Unlock()
		}
		switch served := earliest(ack, event); {
		case !served.IsZero():
			d := served.Sub(k.at)
			takeovers = append(takeovers, d)
			if !ack.IsZero() {
				ackDelays = append(ackDelays, ack.Sub(k.at))
			}
			if d > maxTakeover {
				since := func(x time.Time) string {
					if x.IsZero() {
						return "-"
					}
					return x.Sub(k.at).Round(time.Millisecond).String()
				}
				t.Errorf("race %s (against the bot: %v) of %s served again %v after the kill, more than %v: first frame on a new socket %s, first new event %s, ack %s, commit %s",
					cr.id, cr.bot, k.node.name, d.Round(time.Millisecond), maxTakeover, since(frame), since(event), since(ack), since(commit))
			}
		case len(acts) > 0 && acts[len(acts)-1].At.Before(k.at):
			// over before the kill: nothing to take over
		default:
			t.Errorf("race %s of %s: no ack or event on a new socket after the kill", cr.id, k.node.name)
		}
	}
	if len(takeovers) == 0 {
		t.Fatalf("none of the %d races of %s was in play at the kill", len(k.games), k.node.name)
	}
	t.Logf("takeover of the %d races of %s in play (kill to the first ack or event of a new commit on a new socket): median %v, max %v; to the first ack: median %v, max %v",
		len(takeovers), k.node.name, median(takeovers).Round(time.Millisecond), maxDur(takeovers).Round(time.Millisecond),
		median(ackDelays).Round(time.Millisecond), maxDur(ackDelays).Round(time.Millisecond))
	t.Logf("%d actions in %d logs; %d acks; %d reconnects; rejects %v; REST retries %d",
		actions, len(p.races), p.acks.Load(), p.reconnects(), p.rejects(), p.retry.Load())
	p.checkRejects(t)

	// The survivors: no commit error ever, no game on two nodes, /node
	// equal to the leases, and the alert rules silent before the kill and
	// after the takeover. (During the takeover, refused socket upgrades
	// are 503 answers: that window is only reported.)
	var live []*procNode
	var livePre, liveMid []scrape
	names := make([]string, 0, len(c.nodes))
	for i, n := range c.nodes {
		if n != k.node {
			live = append(live, n)
			livePre, liveMid = append(livePre, k.pre[i]), append(liveMid, k.mid[i])
			names = append(names, n.name)
		}
	}
	to, up := scrapeAll(live)
	for i, n := range live {
		if !up[i] {
			t.Errorf("%s does not answer /metrics", n.name)
			continue
		}
		if v := to[i].sum("dsol_commit_errors_total", nil); v != 0 {
			t.Errorf("%s: dsol_commit_errors_total %v, want 0", n.name, v)
		}
		t.Logf("%s: fence conflicts %v, game elsewhere %v, games moved %v, live tables %v", n.name,
			to[i].sum("dsol_fence_conflicts_total", nil), to[i].sum("dsol_game_elsewhere_total", nil),
			to[i].sum("dsol_games_moved_total", nil), to[i].sum("dsol_live_tables", nil))
	}
	checkCluster(t, c.db, live)
	allNames := make([]string, len(c.nodes))
	allUp := make([]bool, len(c.nodes))
	for i, n := range c.nodes {
		allNames[i], allUp[i] = n.name, k.pre[i] != nil
	}
	checkAlerts(t, alertWindow{name: "the three nodes before the kill", nodes: allNames, from: from, to: k.pre,
		up: allUp, seconds: k.at.Sub(tPlay).Seconds()})
	checkAlerts(t, alertWindow{name: "the takeover", nodes: names, from: livePre, to: liveMid, up: up,
		seconds: maxTakeover.Seconds() + 1, report: true})
	checkAlerts(t, alertWindow{name: "the two nodes after the takeover", nodes: names, from: liveMid, to: to, up: up,
		seconds: tEnd.Sub(k.at).Seconds() - maxTakeover.Seconds() - 1})
	checkElsewhere(t, p, live[0], live[1])
}

// checkElsewhere asks node b directly for a new race that node a runs: a
// GET and a WebSocket upgrade are both answered 503 unavailable with
// Retry-After: 1, so that clients wait a second before they try again. (b
// then asks a for the race: run it last.)
func checkElsewhere(t *testing.T, p *clusterPlay, a, b *procNode) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var pl struct{ Token string }
	var v struct{ ID string }
	if err := p.apiCall(ctx, "POST", "/api/v1/players", "", `{"name":"Eve"}`, 201, &pl); err != nil {
		t.Fatal(err)
	}
	if err := p.apiCall(ctx, "POST", "/api/v1/races", pl.Token, `{"draw":1,"public":false}`, 201, &v); err != nil {
		t.Fatal(err)
	}
	get := func(n *procNode, path string, ws bool) (int, string) {
		req, _ := http.NewRequestWithContext(ctx, "GET", n.base+path, nil)
		req.Header.Set("Authorization", "Bearer "+pl.Token)
		if ws {
			req.Header.Set("Connection", "Upgrade")
			req.Header.Set("Upgrade", "websocket")
			req.Header.Set("Sec-WebSocket-Version", "13")
			req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, res.Header.Get("Retry-After")
	}
	if status, _ := get(a, "/api/v1/games/"+v.ID, false); status != 200 {
		t.Fatalf("GET the new race on %s: %d", a.name, status)
	}
	for _, ws := range []bool{false, true} {
		path, what := "/api/v1/games/"+v.ID, "GET"
		if ws {
			path, what = "/api/v1/races/"+v.ID+"/ws", "WebSocket upgrade"
		}
		if status, retry := get(b, path, ws); status != 503 || retry != "1" {
			t.Errorf("%s of a race %s runs, on %s: %d with Retry-After %q, want 503 with Retry-After \"1\"", what, a.name, b.name, status, retry)
		}
	}
}

// ---- rolling upgrade ----

// waitRouted waits until nginx sends requests to a node again: it asks for
// /healthz through nginx (which spreads requests without a game id over the
// nodes it holds for live) until the node's metrics count one, and returns
// how long that took.
func waitRouted(ctx context.Context, front string, n *procNode) (time.Duration, error) {
	t0 := time.Now()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	healthz := func(l map[string]string) bool { return l["route"] == "/healthz" }
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", front+"/healthz", nil)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
		s, err := scrapeNode(ctx, n.base)
		if err == nil && s.sum("dsol_http_requests_total", healthz) > 0 {
			return time.Since(t0), nil
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("nginx sent it nothing %v after it was ready (last: %v)", time.Since(t0).Round(time.Millisecond), err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// upgradeFrom is the commit a rolling upgrade starts from (DSOL_UPGRADE_FROM,
// default the previous commit).
func upgradeFrom() string {
	if v := os.Getenv("DSOL_UPGRADE_FROM"); v != "" {
		return v
	}
	return "HEAD^"
}

// cannotUpgrade skips the upgrade test, or fails it when every test must run.
func cannotUpgrade(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if testenv.RequireAll() {
		t.Fatalf("%s (DSOL_REQUIRE_ALL is set, so this is a failure, not a skip)", msg)
	}
	t.Skipf("%s; skipping the rolling upgrade", msg)
}

// testNginxUpgrade runs the cluster on the previous commit's binary prev
// (desc names it) and replaces its nodes one at a time by the current binary
// (SIGTERM, wait for the exit, start, wait for /readyz and for nginx to use
// the node again) while ten pairs of clients play race after race through
// nginx. The clients see nothing but reconnects: no reject besides those
// that two players racing each other cause, no acknowledged action lost,
// every race finishes; no node of either binary failed a commit.
func testNginxUpgrade(t *testing.T, prev, desc, bin string) {
	t.Logf("upgrading from %s", desc)
	c := startCluster(t, prev, 3, clusterFlags...)
	p := openPlay(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()

	// Ten lanes play race after race until the last node is replaced.
	var upgraded atomic.Bool
	var wg sync.WaitGroup
	var races atomic.Int64
	errs := make(chan error, 10)
	tPlay := time.Now()
	for lane := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				cr, err := p.newRace(ctx, lane*100+n, false)
				if err == nil {
					err = cr.play(ctx)
				}
				if err != nil {
					errs <- fmt.Errorf("lane %d: %w", lane, err)
					return
				}
				races.Add(1)
				if upgraded.Load() {
					return
				}
			}
		}()
	}
	defer func() { // on a failure below too: no lane outlives the test
		cancel()
		wg.Wait()
	}()
	for p.acks.Load() < 200 && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	var before []scrape // each old process's metrics just before it stops
	for _, n := range c.nodes {
		s, err := scrapeNode(ctx, n.base)
		if err != nil {
			t.Fatalf("%s: %v", n.name, err)
		}
		before = append(before, s)
		stop := n.term(t)
		t1 := time.Now()
		n.start(t, bin)
		ready := time.Since(t1)
		// nginx took the node out when it refused connections and lets it
		// back in fail_timeout later, once a request to it completes:
		// replacing the next node before that would leave nginx no node
		// to send new connections to ("no live upstreams"). A rolling
		// upgrade waits for it.
		back, err := waitRouted(ctx, c.front, n)
		if err != nil {
			t.Fatalf("%s on the new binary: %v", n.name, err)
		}
		var running []string
		for _, m := range c.nodes {
			gs, _ := nodeGames(ctx, m)
			running = append(running, fmt.Sprintf("%s %d", m.name, len(gs)))
		}
		t.Logf("%s: stopped in %v, new binary ready in %v, back in nginx %v later, at %d acks; games run: %s", n.name,
			stop.Round(time.Millisecond), ready.Round(time.Millisecond), back.Round(time.Millisecond), p.acks.Load(),
			strings.Join(running, ", "))
	}
	upgraded.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	actions := 0
	for _, cr := range p.races {
		actions += len(cr.check(t, p.db))
	}
	t.Logf("%d races (%d actions) played in %v across the upgrade; %d acks; %d reconnects; rejects %v; REST retries %d",
		races.Load(), actions, time.Since(tPlay).Round(time.Millisecond), p.acks.Load(), p.reconnects(), p.rejects(), p.retry.Load())
	p.checkRejects(t)
	after, up := scrapeAll(c.nodes)
	for i, n := range c.nodes {
		if v := before[i].sum("dsol_commit_errors_total", nil); v != 0 {
			t.Errorf("%s (previous binary): dsol_commit_errors_total %v", n.name, v)
		}
		if !up[i] {
			t.Errorf("%s does not answer /metrics", n.name)
		} else if v := after[i].sum("dsol_commit_errors_total", nil); v != 0 {
			t.Errorf("%s (current binary): dsol_commit_errors_total %v", n.name, v)
		}
	}
	checkCluster(t, c.db, c.nodes)
}
