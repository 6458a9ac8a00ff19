package ws_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"dsol/internal/cards"
	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/race"
	"dsol/internal/store"
	"dsol/internal/ws"
)

// TestFairRaces is the hidden-information property of races, over random
// server-dealt races played by two seated players over the WebSocket and
// REST, watched by a spectator socket and the lobby (socket and REST):
//   - nothing sent before the race is over — views, events, acks, rejects,
//     presence, lobby lists, listings, errors — names the race's code, the
//     deal's secret or the salt, or has a "code" or "salt" key outside an
//     error object;
//   - every view equals the engine's projection of the stored log at its seq
//     for its viewer, which shows face-up cards and counts only: no view tells
//     which card lies at any face-down position or in a stock;
//   - the server dealt a secret DR2 deal; once over, the view reveals the code
//     and the salt, the commitment shown from the start verifies, and the
//     revealed code replayed through the log gives the final view.
//
// DSOL_PROPERTY_RACES sets the number of races per store (default 3).
func TestFairRaces(t *testing.T) {
	n := 3
	if s := os.Getenv("DSOL_PROPERTY_RACES"); s != "" {
		n, _ = strconv.Atoi(s)
		n = max(1, n/1000)
	}
	forEachStore(t, func(t *testing.T, st store.Store) {
		for i := range n {
			seed := uint64(i)*7919 + 1
			t.Run(fmt.Sprint("race", i), func(t *testing.T) { playFairRace(t, st, seed) })
		}
	})
}

// frames collects what a socket receives, in order, from a goroutine.
type frames struct {
	mu  sync.Mutex
	got []msg
	new chan struct{}
}

func collectFrames(c *conn) *frames {
	f := &frames{new: make(chan struct{}, 1)}
	go func() {
		for {
			m, err := c.read()
			if err != nil {
				return
			}
			f.mu.Lock()
			f.got = append(f.got, m)
			f.mu.Unlock()
			select {
			case f.new <- struct{}{}:
			default:
			}
		}
	}()
	return f
}

// waitFor waits until a frame satisfies ok and returns it.
func (f *frames) waitFor(tb testing.TB, ok func(msg) bool) msg {
	tb.Helper()
	from := 0
	for range 1000 {
		f.mu.Lock()
		for ; from < len(f.got); from++ {
			if ok(f.got[from]) {
				m := f.got[from]
				f.mu.Unlock()
				return m
			}
		}
		f.mu.Unlock()
		<-f.new
	}
	tb.Fatal("no such frame")
	return msg{}
}

func (f *frames) all() []msg {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]msg(nil), f.got...)
}

// sent is one thing the server sent, and to whom.
type sent struct {
	what string
	raw  []byte
}

func playFairRace(t *testing.T, st store.Store, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 42))
	e := mustEnv(t, st, func(c *ws.Config) { c.MessageBurst = 1 << 20 })
	ada, bob, eve := e.mustPlayer(t), e.mustPlayer(t), e.mustPlayer(t)
	lobbySock := collectFrames(eve.mustDialLobby(t))
	lobbySock.waitFor(t, func(m msg) bool { return m.Type == "lobby" })

	var during []sent // everything sent while the race was waiting or playing
	keep := func(what string, raw []byte) { during = append(during, sent{what, raw}) }

	opts := fmt.Sprintf(`{"draw":%d,"redeal":%q,"decks":%q,"turns":%q,"public":true}`,
		1+2*rng.IntN(2), []string{"unlimited", "single"}[rng.IntN(2)],
		[]string{"independent", "mirrored"}[rng.IntN(2)], []string{"simultaneous", "alternating"}[rng.IntN(2)])
	status, raw := ada.Do(t, "POST", "/api/v1/races", opts)
	if status != 201 {
		t.Fatalf("create: %d %s", status, raw)
	}
	keep("create", raw)
	var created struct {
		ID, Commitment string
	}
	json.Unmarshal(raw, &created)
	id := created.ID
	g, err := st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	code, err := cards.ParseCode(g.Code)
	if err != nil || !code.Secret || code.Kind != cards.Race || len(g.Salt) < 16 {
		t.Fatalf("the server dealt %s with a %d-byte salt (%v)", g.Code, len(g.Salt), err)
	}
	if created.Commitment != cards.Commitment(g.Code, g.Salt) {
		t.Fatalf("commitment %s does not bind the stored code and salt", created.Commitment)
	}
	for _, p := range [][3]string{{"lobby", "GET", "/api/v1/lobby"}, {"listing", "GET", "/api/v1/games"}, {"waiting view", "GET", "/api/v1/games/" + id}} {
		_, raw := ada.Do(t, p[1], p[2], "")
		keep(p[0], raw)
	}
	lobbySock.waitFor(t, func(m msg) bool { return strings.Contains(string(m.raw), id) })

	_, raw = bob.Do(t, "POST", "/api/v1/races/"+id+"/join", "")
	keep("join", raw)
	conns := map[int]*conn{1: ada.mustDial(t, id, ""), 2: bob.mustDial(t, id, ""), 0: eve.mustDial(t, id, "")}
	socks := map[int]*frames{}
	for v, c := range conns {
		socks[v] = collectFrames(c)
	}
	seats := map[int]*player{1: ada, 2: bob}

	// Errors: a spectator acting, bad bodies, a bad frame, a third join.
	for _, req := range []struct {
		who                *player
		method, path, body string
	}{
		{eve, "POST", "/api/v1/games/" + id + "/actions", `{"action":{"type":"draw","id":"x1"}}`},
		{ada, "POST", "/api/v1/games/" + id + "/actions", `{"action":{"type":"move","from":"c9","to":"f"}}`},
		{ada, "POST", "/api/v1/games/" + id + "/actions", `{"action":`},
		{eve, "POST", "/api/v1/races/" + id + "/join", ``},
		{eve, "POST", "/api/v1/races/" + id + "/rematch", ``},
		{ada, "POST", "/api/v1/races/" + id + "/rematch", ``},
		{eve, "GET", "/api/v1/games/" + id, ``},
	} {
		_, raw := req.who.Do(t, req.method, req.path, req.body)
		keep("error "+req.path, raw)
	}

	acts := []string{`{"type":"draw"}`, `{"type":"recycle"}`, `{"type":"pass"}`, `{"type":"tap","from":"w"}`,
		`{"type":"dtap","from":"w"}`, `{"type":"move","from":"w","to":"f"}`, `{"type":"claim"}`}
	for i := 1; i <= 7; i++ {
		acts = append(acts, fmt.Sprintf(`{"type":"tap","from":"c%d"}`, i), fmt.Sprintf(`{"type":"dtap","from":"c%d"}`, i),
			fmt.Sprintf(`{"type":"move","from":"c%d","to":"c%d"}`, i, 1+rng.IntN(7)))
	}
	over := false
	for step := 0; step < 160 && !over; step++ {
		seat := 1 + rng.IntN(2)
		a := acts[rng.IntN(len(acts))]
		if rng.IntN(3) == 0 {
			a = acts[0] // a draw is most often legal: the races get somewhere
		}
		if step == 159 {
			a = `{"type":"resign"}`
		}
		cid := fmt.Sprintf("a%d", step)
		if rng.IntN(4) == 0 { // REST
			var env map[string]json.RawMessage
			json.Unmarshal([]byte(a), &env)
			env["id"] = json.RawMessage(strconv.Quote(cid))
			body, _ := json.Marshal(env)
			_, raw := seats[seat].Do(t, "POST", "/api/v1/games/"+id+"/actions", `{"action":`+string(body)+`}`)
			over = strings.Contains(string(raw), `"status":"over"`)
			if !over {
				keep("REST action", raw)
			}
			continue
		}
		conns[seat].Act(cid, a)
		socks[seat].waitFor(t, func(m msg) bool { return (m.Type == "ack" || m.Type == "reject") && m.ID == cid })
		_, raw := eve.Do(t, "GET", "/api/v1/games/"+id, "")
		if strings.Contains(string(raw), `"status":"over"`) {
			over = true
		} else {
			keep("spectator view", raw)
		}
	}
	if !over {
		_, raw := ada.Do(t, "POST", "/api/v1/games/"+id+"/actions", `{"action":{"type":"resign","id":"last"}}`)
		if !strings.Contains(string(raw), `"status":"over"`) {
			t.Fatalf("resign: %s", raw)
		}
	}
	for _, f := range socks {
		f.waitFor(t, func(m msg) bool { return m.Type == "over" })
	}

	g, _ = st.Game(context.Background(), id)
	shadow := func(seq int64) *race.Race {
		t.Helper()
		o, err := game.ParseRaceOptions(g.Options)
		if err != nil {
			t.Fatal(err)
		}
		eo, err := engine.RaceOptions(o)
		if err != nil {
			t.Fatal(err)
		}
		r, err := race.New(code, eo)
		if err != nil {
			t.Fatal(err)
		}
		log, err := st.Actions(context.Background(), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range log {
			if a.Seq > seq {
				break
			}
			act, err := klondike.DecodeAction(a.Action)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Apply(a.Seat, act); err != nil {
				t.Fatalf("replay of seq %d: %v", a.Seq, err)
			}
		}
		return r
	}

	// Every socket frame: hidden before over, equal to the projection.
	checked := 0
	for viewer, f := range socks {
		done := false
		for _, m := range f.all() {
			if m.Type == "over" || m.Status == "over" || strings.Contains(string(m.Game), `"status":"over"`) {
				done = true
			}
			if !done {
				mustNotTell(t, fmt.Sprintf("socket %d %s", viewer, m.Type), m.raw, g)
			}
			if len(m.Game) == 0 {
				continue
			}
			var v struct {
				Seq         int64
				Status      string
				Code, Salt  string
				Commitment  string
				Foundations [][]race.FoundationCard
				Seats       []race.SeatView
			}
			if err := json.Unmarshal(m.Game, &v); err != nil {
				t.Fatal(err)
			}
			r := shadow(v.Seq)
			want := r.View(viewer)
			gotJSON, _ := json.Marshal([]any{v.Foundations, v.Seats})
			wantJSON, _ := json.Marshal([]any{want.Foundations, want.Seats})
			if string(gotJSON) != string(wantJSON) {
				t.Fatalf("viewer %d seq %d: the view\n%s\nis not the projection of the log\n%s", viewer, v.Seq, gotJSON, wantJSON)
			}
			checked++
			if v.Commitment != created.Commitment {
				t.Fatalf("the commitment changed: %s, then %s", created.Commitment, v.Commitment)
			}
			if v.Status == "over" {
				salt, err := hex.DecodeString(v.Salt)
				if v.Code != g.Code || err != nil || cards.Commitment(v.Code, salt) != created.Commitment {
					t.Fatalf("revealed code %q and salt %q do not verify the commitment %s", v.Code, v.Salt, created.Commitment)
				}
			}
		}
		if !done {
			t.Fatalf("socket %d never saw the race over", viewer)
		}
	}
	for _, m := range lobbySock.all() {
		mustNotTell(t, "lobby socket", m.raw, g)
	}
	for _, s := range during {
		mustNotTell(t, s.what, s.raw, g)
	}
	// The revealed code rebuilds the deal that was played.
	var final struct {
		Seq  int64
		Code string
	}
	_, raw = eve.Do(t, "GET", "/api/v1/games/"+id, "")
	json.Unmarshal(raw, &final)
	revealed, err := cards.ParseCode(final.Code)
	if err != nil || revealed != code {
		t.Fatalf("revealed %q (%v)", final.Code, err)
	}
	if status, raw := eve.Do(t, "GET", "/api/v1/codes/"+final.Code, ""); status != 200 {
		t.Fatalf("the revealed code does not describe: %d %s", status, raw)
	}
	if checked < 10 || len(during) < 10 {
		t.Fatalf("checked %d views and %d answers: too few", checked, len(during))
	}
}

// mustNotTell fails when raw, sent while the race g was in play, names its
// code, its deal part (secret or letters) or its salt, or has a "code" or
// "salt" key outside an error object.
func mustNotTell(tb testing.TB, what string, raw []byte, g store.Game) {
	tb.Helper()
	text := strings.ToLower(string(raw))
	parts := strings.Split(g.Code, "-")
	for name, s := range map[string]string{"code": g.Code, "deal": parts[len(parts)-1], "salt": hex.EncodeToString(g.Salt)} {
		if strings.Contains(text, strings.ToLower(s)) {
			tb.Fatalf("%s during play names the race's %s: %s", what, name, raw)
		}
	}
	var doc any
	if json.Unmarshal(raw, &doc) != nil {
		tb.Fatalf("%s is not JSON: %s", what, raw)
	}
	var walk func(parent string, v any)
	walk = func(parent string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if (k == "code" && parent != "error") || k == "salt" {
					tb.Fatalf("%s during play has a %q key: %s", what, k, raw)
				}
				walk(k, x)
			}
		case []any:
			for _, x := range v {
				walk(parent, x)
			}
		}
	}
	walk("", doc)
}
