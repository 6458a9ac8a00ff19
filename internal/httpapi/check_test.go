package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/service"
	"dsol/internal/solo"
	"dsol/internal/store"
)

// The codes of the check's tests: a draw-1 Normal deal the solver wins at
// once, and a draw-3 Vegas deal that is lost once its single pass through
// the stock is drawn without a move (20 draws), which the solver proves
// within the budget.
const (
	checkWon   = "DS1-D1N-AAAAAAB"
	checkLost  = "DS1-D3V-AAAAAAB"
	lostDraws  = 20
	checkPatch = 10 * time.Second
)

// stillOf returns a view's stillWinnable as JSON (true, false or null),
// failing when the key is missing.
func stillOf(tb testing.TB, raw []byte) string {
	tb.Helper()
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		tb.Fatalf("%s: %v", raw, err)
	}
	v, ok := keys["stillWinnable"]
	if !ok {
		tb.Fatalf("a solo view without stillWinnable: %s", raw)
	}
	return string(v)
}

// mustCheck turns the check on for a game and returns the view's answer.
func (c *client) mustCheck(tb testing.TB, id string) string {
	tb.Helper()
	return stillOf(tb, c.MustJSON(tb, "POST", "/api/v1/games/"+id+"/check", map[string]bool{"on": true}, 200, nil))
}

// still returns the game's stillWinnable as GET /api/v1/games/{id} has it.
func (c *client) still(tb testing.TB, id string) string {
	tb.Helper()
	return stillOf(tb, c.MustJSON(tb, "GET", "/api/v1/games/"+id, nil, 200, nil))
}

// waitStill polls the game's view until its stillWinnable is want.
func (c *client) waitStill(tb testing.TB, id, want string) {
	tb.Helper()
	deadline := time.Now().Add(checkPatch)
	for got := c.still(tb, id); got != want; got = c.still(tb, id) {
		if time.Now().After(deadline) {
			tb.Fatalf("stillWinnable %s, want %s", got, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkMsg is a check message of the game socket.
type checkMsg struct {
	Type          string          `json:"type"`
	Seq           *int64          `json:"seq"`
	StillWinnable json.RawMessage `json:"stillWinnable"`
}

// nextCheck reads a protocol-2 socket (frames of one message or an array)
// until a check message for seq, skipping the others (and checks of
// earlier seqs), and returns its answer.
func nextCheck(tb testing.TB, ws *apitest.Socket, seq int64) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(tb.Context(), checkPatch)
	defer cancel()
	for {
		_, b, err := ws.Conn.Read(ctx)
		if err != nil {
			tb.Fatalf("waiting for the check of seq %d: %v", seq, err)
		}
		var msgs []json.RawMessage
		if bytes.HasPrefix(b, []byte("[")) {
			if err := json.Unmarshal(b, &msgs); err != nil {
				tb.Fatal(err)
			}
		} else {
			msgs = []json.RawMessage{b}
		}
		for _, m := range msgs {
			var c checkMsg
			if err := json.Unmarshal(m, &c); err != nil {
				tb.Fatalf("%s: %v", m, err)
			}
			if c.Type != "check" {
				continue
			}
			if c.Seq == nil || c.StillWinnable == nil {
				tb.Fatalf("a check message without seq or stillWinnable: %s", m)
			}
			if *c.Seq > seq {
				tb.Fatalf("a check of seq %d while waiting for seq %d: %s", *c.Seq, seq, m)
			}
			if *c.Seq == seq {
				return string(c.StillWinnable)
			}
		}
	}
}

// TestCheckAnswers: with the check on, a game gets true on a position the
// solver wins and false on a lost one, in its REST view and as a check
// message of its socket; a game without the check stays null.
func TestCheckAnswers(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	alice := ts.mustPlayer(t)

	won := alice.mustGame(t, checkWon)
	if got := alice.still(t, won.ID); got != "null" {
		t.Fatalf("before the check: stillWinnable %s, want null", got)
	}
	ws := alice.Dial(t, "/api/v1/games/"+won.ID+"/ws?v=2", nil)
	if got := alice.mustCheck(t, won.ID); got != "null" && got != "true" {
		t.Fatalf("turning the check on answers %s", got)
	}
	if got := nextCheck(t, ws, 0); got != "true" {
		t.Fatalf("the check of a won deal: %s, want true", got)
	}
	if got := alice.still(t, won.ID); got != "true" {
		t.Fatalf("the view after the check: %s, want true", got)
	}
	alice.mustAct(t, won.ID, klondike.Simple(klondike.Draw))
	if got := nextCheck(t, ws, 1); got != "true" {
		t.Fatalf("after a draw: %s, want true", got)
	}
	alice.waitStill(t, won.ID, "true")

	lost := alice.mustGame(t, checkLost)
	lws := alice.Dial(t, "/api/v1/games/"+lost.ID+"/ws?v=2", nil)
	alice.mustCheck(t, lost.ID)
	for range lostDraws {
		alice.mustAct(t, lost.ID, klondike.Simple(klondike.Draw))
	}
	if got := nextCheck(t, lws, lostDraws); got != "false" {
		t.Fatalf("the check after the whole single pass: %s, want false", got)
	}
	alice.waitStill(t, lost.ID, "false")
	// a socket that connects after the answer gets it after its view
	if got := nextCheck(t, alice.Dial(t, "/api/v1/games/"+lost.ID+"/ws?v=2&since="+fmt.Sprint(lostDraws), nil), lostDraws); got != "false" {
		t.Fatalf("a socket opened after the check: %s, want false", got)
	}
	if got := nextCheck(t, alice.Dial(t, "/api/v1/games/"+lost.ID+"/ws", nil), lostDraws); got != "false" {
		t.Fatalf("a protocol-1 socket opened after the check: %s, want false", got)
	}

	off := alice.mustGame(t, checkLost)
	for range lostDraws {
		alice.mustAct(t, off.ID, klondike.Simple(klondike.Draw))
	}
	time.Sleep(100 * time.Millisecond)
	if got := alice.still(t, off.ID); got != "null" {
		t.Fatalf("a game without the check: %s, want null", got)
	}
	if g, err := ts.store.Game(t.Context(), off.ID); err != nil || g.Checked {
		t.Fatalf("a game without the check is stored checked: %+v, %v", g, err)
	}
}

// TestCheckRefusals: every bad request of POST /api/v1/games/{id}/check is a
// clear JSON error.
func TestCheckRefusals(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t), func(c *Config) { c.HintBurst = 100 })
	alice, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	g := alice.mustGame(t, checkWon)
	path := "/api/v1/games/" + g.ID + "/check"
	for _, body := range []any{nil, "x", map[string]any{}, map[string]any{"on": false}, map[string]any{"on": "yes"},
		map[string]any{"on": true, "off": 1}} {
		alice.MustError(t, "POST", path, body, 400, game.BadRequest)
	}
	bob.MustError(t, "POST", path, map[string]bool{"on": true}, 403, game.Forbidden)
	alice.MustError(t, "POST", "/api/v1/games/nope/check", map[string]bool{"on": true}, 404, game.NotFound)
	ts.anon().MustError(t, "POST", path, map[string]bool{"on": true}, 401, game.Unauthorized)
	var race struct{ ID string }
	alice.MustJSON(t, "POST", "/api/v1/races", map[string]any{"draw": 1}, 201, &race)
	alice.MustError(t, "POST", "/api/v1/games/"+race.ID+"/check", map[string]bool{"on": true}, 403, game.Forbidden)
	if stored, err := ts.store.Game(t.Context(), g.ID); err != nil || stored.Checked {
		t.Fatalf("refused checks stored the flag: %+v, %v", stored, err)
	}
}

// TestCheckSharesHintSlots: while every hint slot is taken, a check waits
// (the view stays null, and a hint is refused); once a slot is free the
// answer comes.
func TestCheckSharesHintSlots(t *testing.T) {
	slots := service.NewSlots(2)
	ts := mustServer(t, apitest.SQLite(t), func(c *service.Config) { c.Slots = slots })
	alice := ts.mustPlayer(t)
	g := alice.mustGame(t, checkWon)
	ws := alice.Dial(t, "/api/v1/games/"+g.ID+"/ws?v=2", nil)
	slots.TryTake()
	slots.TryTake()
	alice.mustCheck(t, g.ID)
	alice.mustAct(t, g.ID, klondike.Simple(klondike.Draw))
	time.Sleep(200 * time.Millisecond)
	if got := alice.still(t, g.ID); got != "null" {
		t.Fatalf("with every slot taken: stillWinnable %s, want null", got)
	}
	alice.MustError(t, "GET", "/api/v1/games/"+g.ID+"/hint", nil, 429, game.RateLimited)
	slots.Free()
	if got := nextCheck(t, ws, 1); got != "true" {
		t.Fatalf("once a slot is free: %s, want true", got)
	}
	slots.Free()
	if n := slots.Busy(); n != 0 {
		t.Fatalf("%d slots still taken after the check", n)
	}
}

// TestCheckSurvivesRestart: the flag is stored, so after a restart the game
// still has the check on and is checked again.
func TestCheckSurvivesRestart(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		c := mustServer(t, st).mustPlayer(t)
		g := c.mustGame(t, checkWon)
		c.mustCheck(t, g.ID)
		c.waitStill(t, g.ID, "true")
		c.restart(t, st, open)
		c.waitStill(t, g.ID, "true")
		c.mustAct(t, g.ID, klondike.Simple(klondike.Draw))
		c.waitStill(t, g.ID, "true")
		if stored, err := c.ts.store.Game(t.Context(), g.ID); err != nil || !stored.Checked {
			t.Fatalf("after the restart: %+v, %v", stored, err)
		}
	})
}

// TestCheckedWinIsAssisted: a game won with the check on counts as an
// assisted win, not a clean one.
func TestCheckedWinIsAssisted(t *testing.T) {
	code, _ := greedyWon(t)
	ts := mustServer(t, apitest.SQLite(t))
	c := ts.mustPlayer(t)
	g := c.mustGame(t, code)
	c.mustCheck(t, g.ID)
	mirror := mustSolo(t, code)
	var p greedy
	for mirror.Status() != solo.Won {
		a, ok := p.next(mirror)
		if !ok {
			t.Fatal("gave up")
		}
		mirror.Apply(a)
		p.played(a)
		c.mustAct(t, g.ID, a)
	}
	deadline := time.Now().Add(checkPatch)
	d1 := c.mustStats(t, "GET", "/api/v1/me/stats").Solo[0]
	for d1.Won == 0 && time.Now().Before(deadline) { // the status is stored just after the answer
		time.Sleep(5 * time.Millisecond)
		d1 = c.mustStats(t, "GET", "/api/v1/me/stats").Solo[0]
	}
	if d1.Won != 1 || d1.Assisted != 1 || d1.Clean != 0 {
		t.Fatalf("a win with the check on: %+v, want won 1, assisted 1, clean 0", d1)
	}
	if got := c.still(t, g.ID); got != "null" {
		t.Fatalf("a won game: stillWinnable %s, want null", got)
	}
}
