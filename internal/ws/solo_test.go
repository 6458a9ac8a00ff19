package ws_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/store"
	"dsol/internal/store/storetest"
	"dsol/internal/ws"
)

// collect reads until it has the ack of every id and the events up to seq
// to, checking that events come in seq order without gaps after from.
func collect(t *testing.T, c *conn, from, to int64, ids ...string) (acks map[string]int64, events []msg) {
	t.Helper()
	acks = map[string]int64{}
	next := from + 1
	for len(acks) < len(ids) || next <= to {
		m := c.mustRead()
		switch m.Type {
		case "ack":
			acks[m.ID] = m.Seq
		case "event":
			if m.Seq != next {
				t.Fatalf("event seq %d, want %d: %s", m.Seq, next, m.raw)
			}
			if m.gameSeq(t) != m.Seq {
				t.Fatalf("event %d carries the view at %d", m.Seq, m.gameSeq(t))
			}
			next++
			events = append(events, m)
		default:
			t.Fatalf("unexpected %s", m.raw)
		}
	}
	return acks, events
}

func TestSoloSession(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustEnv(t, st, nil)
		p := e.mustPlayer(t)
		g := p.mustSolo(t)

		a := p.mustDial(t, g, "")
		s := a.mustReadType("state")
		if s.Seq != 0 || s.gameSeq(t) != 0 {
			t.Fatalf("state %s", s.raw)
		}
		if !strings.Contains(string(s.Game), `"kind":"solo"`) || !strings.Contains(string(s.Game), `"id":"`+g+`"`) {
			t.Fatalf("state game %s", s.Game)
		}
		b := p.mustDial(t, g, "") // the same player on a second device
		b.mustReadType("state")

		a.Act("a1", `{"type":"draw"}`)
		acks, evs := collect(t, a, 0, 1, "a1")
		if acks["a1"] != 1 || evs[0].Seat != 1 || string(evs[0].Action) != `{"type":"draw"}` || evs[0].Status != "playing" {
			t.Fatalf("ack %v event %s", acks, evs[0].raw)
		}
		// A burst: acks for all, events in order, and the same events on b.
		var ids []string
		for i := 2; i <= 10; i++ {
			id := fmt.Sprintf("a%d", i)
			ids = append(ids, id)
			a.Act(id, `{"type":"draw"}`)
		}
		acks, _ = collect(t, a, 1, 10, ids...)
		for i, id := range ids {
			if acks[id] != int64(i+2) {
				t.Fatalf("ack of %s is seq %d, want %d", id, acks[id], i+2)
			}
		}
		_, bevs := collect(t, b, 0, 10)
		if string(bevs[0].Game) == "" || bevs[9].Seq != 10 {
			t.Fatalf("b saw %d events", len(bevs))
		}
		// An illegal move is refused to its sender only.
		a.Act("bad", `{"type":"move","from":"w","to":"c1","count":5}`)
		m := a.mustReadType("reject")
		if m.ID != "bad" || m.Error.Code == "" || m.Error.Message == "" {
			t.Fatalf("reject %s", m.raw)
		}
		if extra := b.sync(); len(extra) != 0 {
			t.Fatalf("b got %s", extra[0].raw)
		}
		// The REST view agrees.
		var v struct{ Seq int64 }
		p.MustJSON(t, "GET", "/api/v1/games/"+g, "", 200, &v)
		if v.Seq != 10 {
			t.Fatalf("REST seq %d", v.Seq)
		}
	})
}

func TestResume(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustEnv(t, st, nil)
		p := e.mustPlayer(t)
		g := p.mustSolo(t)

		a := p.mustDial(t, g, "")
		a.mustReadType("state")
		for i := 1; i <= 3; i++ {
			a.Act(fmt.Sprintf("r%d", i), `{"type":"draw"}`)
		}
		collect(t, a, 0, 3, "r1", "r2", "r3")
		a.Conn.Close(websocket.StatusNormalClosure, "")

		// Meanwhile, two actions over REST.
		for i := 4; i <= 5; i++ {
			p.MustJSON(t, "POST", "/api/v1/games/"+g+"/actions",
				fmt.Sprintf(`{"action":{"type":"draw","id":"r%d"}}`, i), 200, nil)
		}

		b := p.mustDial(t, g, "?since=3")
		missed := b.sync()
		if len(missed) != 2 || missed[0].Seq != 4 || missed[1].Seq != 5 || missed[0].Type != "event" || missed[1].Type != "event" {
			t.Fatalf("missed %v", missed)
		}
		if len(missed[0].Game) != 0 || missed[1].gameSeq(t) != 5 {
			t.Fatalf("only the last missed event carries the view (at its seq): %s / %s", missed[0].raw, missed[1].raw)
		}

		// A resent id applies once: the ack names the original seq.
		b.Act("r2", `{"type":"draw"}`)
		ack := b.mustReadType("ack")
		if ack.ID != "r2" || ack.Seq != 2 || !ack.Duplicate {
			t.Fatalf("resent ack %s", ack.raw)
		}
		b.Act("r6", `{"type":"draw"}`)
		if _, evs := collect(t, b, 5, 6, "r6"); evs[0].Seq != 6 {
			t.Fatalf("after the resend %s", evs[0].raw)
		}

		// Up to date: nothing to replay. No since, or a since from the
		// future: the state.
		c := p.mustDial(t, g, "?since=6")
		if got := c.sync(); len(got) != 0 {
			t.Fatalf("up to date, got %s", got[0].raw)
		}
		for _, q := range []string{"", "?since=99"} {
			d := p.mustDial(t, g, q)
			if s := d.mustReadType("state"); s.Seq != 6 || s.gameSeq(t) != 6 {
				t.Fatalf("%q: %s", q, s.raw)
			}
		}
	})
}

func TestRefusedBeforeUpgrade(t *testing.T) {
	st := apitest.SQLite(t)
	e := mustEnv(t, st, func(c *ws.Config) { c.OriginPatterns = []string{"https://app.example.com"} })
	p := e.mustPlayer(t)
	q := e.mustPlayer(t)
	g := p.mustSolo(t)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	cases := []struct {
		name   string
		who    *player
		path   string
		header http.Header
		status int
		code   string
	}{
		{"no token", p, "/api/v1/games/" + g + "/ws", http.Header{"Authorization": {"Bearer nope"}}, 401, "unauthorized"},
		{"not found", p, "/api/v1/games/nope/ws", nil, 404, "not_found"},
		{"solo of another player", q, "/api/v1/games/" + g + "/ws", nil, 403, "forbidden"},
		{"foreign origin", p, "/api/v1/games/" + g + "/ws", http.Header{"Origin": {"https://evil.example.com"}}, 403, "forbidden"},
		{"bad since", p, "/api/v1/games/" + g + "/ws?since=-1", nil, 400, "bad_request"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, res, err := tc.who.Handshake(ctx, tc.path, tc.header)
			if err == nil {
				c.CloseNow()
				t.Fatal("upgraded")
			}
			if res == nil || res.StatusCode != tc.status {
				t.Fatalf("err %v, answer %v, want %d", err, res, tc.status)
			}
			if got := errorCode(t, res); got != tc.code {
				t.Fatalf("code %q, want %q", got, tc.code)
			}
		})
	}
	// An allowed origin, and the race path alias, upgrade.
	c := &conn{Socket: p.Dial(t, "/api/v1/races/"+g+"/ws", http.Header{"Origin": {"https://app.example.com"}}), tb: t}
	c.mustReadType("state")
	c.Conn.CloseNow()
}

func TestBadFrames(t *testing.T) {
	st := apitest.SQLite(t)
	e := mustEnv(t, st, func(c *ws.Config) { c.MaxStrikes = 5 })
	p := e.mustPlayer(t)
	g := p.mustSolo(t)
	other := p.mustSolo(t)

	t.Run("rejects", func(t *testing.T) {
		c := p.mustDial(t, g, "")
		c.mustReadType("state")
		for _, tc := range []struct{ name, frame, id string }{
			{"not JSON", `{"type":`, ""},
			{"unknown type", `{"type":"hello","id":"x1"}`, "x1"},
			{"no type", `[]`, ""},
			{"bad action", `{"type":"action","id":"x2","action":{"type":"fly"}}`, "x2"},
		} {
			c.Send(tc.frame)
			m := c.mustReadType("reject")
			if m.Error.Code != "bad_request" || m.ID != tc.id {
				t.Fatalf("%s: %s", tc.name, m.raw)
			}
		}
		// still served
		c.Act("ok", `{"type":"draw"}`)
		collect(t, c, 0, 1, "ok")
	})
	t.Run("persistent garbage closes 1008", func(t *testing.T) {
		c := p.mustDial(t, g, "")
		c.mustReadType("state")
		for range 6 {
			c.Send(`nonsense`)
		}
		code, seen := c.mustClose()
		if code != websocket.StatusPolicyViolation || len(seen) != 5 {
			t.Fatalf("close %d after %d frames", code, len(seen))
		}
	})
	t.Run("oversized frame closes 1009", func(t *testing.T) {
		c := p.mustDial(t, g, "")
		c.mustReadType("state")
		big := `{"type":"ping","pad":"` + strings.Repeat("x", 9000) + `"}`
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		c.Conn.Write(ctx, websocket.MessageText, []byte(big)) // the server may close while we write
		if code, _ := c.mustClose(); code != websocket.StatusMessageTooBig {
			t.Fatalf("close %d", code)
		}
	})
	t.Run("just under the limit is fine", func(t *testing.T) {
		c := p.mustDial(t, g, "")
		c.mustReadType("state")
		c.Send(`{"type":"ping","pad":"` + strings.Repeat("x", 8100) + `"}`)
		c.mustReadType("pong")
	})
	// The server goes on serving other games and sockets.
	c := p.mustDial(t, other, "")
	c.mustReadType("state")
	c.Act("o1", `{"type":"draw"}`)
	collect(t, c, 0, 1, "o1")
}

func TestFlood(t *testing.T) {
	st := apitest.SQLite(t)
	// The rate clock stands still: 5 frames pass, then every frame is
	// refused; the third refusal beyond the strikes closes the socket.
	e := mustEnv(t, st, func(c *ws.Config) { c.MessageBurst, c.MessageRate, c.MaxStrikes = 5, 1, 3 })
	p := e.mustPlayer(t)
	g := p.mustSolo(t)
	c := p.mustDial(t, g, "")
	c.mustReadType("state")
	for i := range 20 {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		err := c.Conn.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf(`{"type":"action","id":"f%d","action":{"type":"draw"}}`, i)))
		cancel()
		if err != nil {
			break // closed by the server
		}
	}
	code, seen := c.mustClose()
	if code != websocket.StatusPolicyViolation {
		t.Fatalf("close %d", code)
	}
	limited := 0
	for _, m := range seen {
		if m.Type == "reject" && m.Error.Code == "rate_limited" {
			limited++
		}
	}
	if limited != 3 {
		t.Fatalf("%d rate_limited rejects before the close: %v", limited, seen)
	}
	// Other sockets are unaffected. The five actions read before the close
	// are applied, acknowledged or not.
	deadline := time.Now().Add(wait)
	for {
		var v struct {
			Seq int64 `json:"seq"`
		}
		p.MustJSON(t, "GET", "/api/v1/games/"+g, "", 200, &v)
		if v.Seq == 5 {
			break
		}
		if v.Seq > 5 || time.Now().After(deadline) {
			t.Fatalf("the game is at seq %d, not 5", v.Seq)
		}
		time.Sleep(5 * time.Millisecond)
	}
	d := p.mustDial(t, g, "?since=5")
	d.Act("after", `{"type":"draw"}`)
	if acks, _ := collect(t, d, 5, 6, "after"); acks["after"] != 6 {
		t.Fatalf("ack %v", acks)
	}
}

func TestSocketCap(t *testing.T) {
	st := apitest.SQLite(t)
	e := mustEnv(t, st, func(c *ws.Config) { c.MaxSocketsPerPlayer = 2 })
	p := e.mustPlayer(t)
	q := e.mustPlayer(t)
	g := p.mustSolo(t)
	p.mustDial(t, g, "").mustReadType("state")
	p.mustDial(t, g, "").mustReadType("state")
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	c, res, err := p.Handshake(ctx, "/api/v1/games/"+g+"/ws", nil)
	if err == nil {
		c.CloseNow()
		t.Fatal("third socket upgraded")
	}
	if res == nil || res.StatusCode != 429 || errorCode(t, res) != "rate_limited" {
		t.Fatalf("third socket: %v %v", err, res)
	}
	// The cap is per player.
	q.mustDial(t, q.mustSolo(t), "").mustReadType("state")
}

func TestShutdown(t *testing.T) {
	st := apitest.SQLite(t)
	e := mustEnv(t, st, nil)
	p := e.mustPlayer(t)
	g := p.mustSolo(t)
	a := p.mustDial(t, g, "")
	a.mustReadType("state")
	b := p.mustDial(t, p.mustSolo(t), "")
	b.mustReadType("state")
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		done <- e.sockets.Shutdown(ctx)
	}()
	for _, c := range []*conn{a, b} {
		if code, _ := c.mustClose(); code != websocket.StatusServiceRestart {
			t.Fatalf("close %d, want 1012", code)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := e.sockets.Open(); n != 0 {
		t.Fatalf("%d sockets open", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	c, res, err := p.Handshake(ctx, "/api/v1/games/"+g+"/ws", nil)
	if err == nil {
		c.CloseNow()
		t.Fatal("upgraded after shutdown")
	}
	if res == nil || res.StatusCode != 503 || errorCode(t, res) != "unavailable" {
		t.Fatalf("after shutdown: %v %v", err, res)
	}
}

// TestFollowReload: a socket whose table is rebuilt (another node wrote
// the game) follows the new table, and the events after that reach it.
func TestFollowReload(t *testing.T) {
	st := apitest.SQLite(t)
	e := mustEnv(t, st, nil)
	p := e.mustPlayer(t)
	g := p.mustSolo(t)
	a := p.mustDial(t, g, "")
	a.mustReadType("state")
	a.Act("f1", `{"type":"draw"}`)
	collect(t, a, 0, 1, "f1")

	// Another writer stores seq 2; the next subscriber finds the table stale,
	// which stops it: a's subscription ends with ErrReloaded.
	act := storetest.NewAction(g, 2, 1, "")
	act.Action = []byte(`{"type":"draw"}`)
	act.Tally = &store.Tally{Moves: 2}
	if err := st.AppendActions(context.Background(), []store.Action{act}); err != nil {
		t.Fatal(err)
	}
	b := p.mustDial(t, g, "")
	if s := b.mustReadType("state"); s.Seq != 2 {
		t.Fatalf("b's state at seq %d, want 2", s.Seq)
	}
	if m := a.mustRead(); m.Seq != 2 || (m.Type != "state" && m.Type != "event") {
		t.Fatalf("a after the reload: %s", m.raw)
	}
	// Then b plays: a sees it on its new subscription.
	b.Act("f3", `{"type":"draw"}`)
	collect(t, b, 2, 3, "f3")
	if _, evs := collect(t, a, 2, 3); evs[0].Seq != 3 {
		t.Fatalf("a got %s", evs[0].raw)
	}
}

// TestLengthLimitSocket: on the socket, an action of a solo game with
// klondike.MaxActions actions is rejected with too_long, and the socket
// stays open for the next message.
func TestLengthLimitSocket(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustEnv(t, st, nil)
		p := e.mustPlayer(t)
		id := p.mustSolo(t)
		apitest.SeedSolo(t, st, id, klondike.MaxActions)
		c := p.mustDial(t, id, "")
		if m := c.mustReadType("state"); m.Seq != klondike.MaxActions {
			t.Fatalf("state at seq %d", m.Seq)
		}
		c.Act("a1", `{"type":"draw"}`)
		if m, _ := c.answer("a1", 0); m.Type != "reject" || m.Error.Code != string(game.TooLong) {
			t.Fatalf("an action at the limit: %+v", m)
		}
		c.Act("a2", `{"type":"undo"}`)
		if m, _ := c.answer("a2", 0); m.Type != "reject" || m.Error.Code != string(game.TooLong) {
			t.Fatalf("an undo at the limit: %+v", m)
		}
	})
}
