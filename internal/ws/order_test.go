package ws_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/store"
)

// floodFrame is one client frame of a flood.
type floodFrame struct {
	kind string // "action", "ping" or "garbage"
	id   string // an action's id
}

func (f floodFrame) text() string {
	switch f.kind {
	case "action":
		return `{"type":"action","id":"` + f.id + `","action":{"type":"draw"}}`
	case "ping":
		return `{"type":"ping"}`
	}
	return `{"type":`
}

// due is the answer a frame is due.
type due struct {
	kind string // "answer" (an ack or a reject of id), "pong", "rate_limited", "bad_request"
	id   string
}

// dueAnswers is what a socket owes a flood at burst frames and strikes
// refusals, the rate clock standing still: every frame is answered in its
// place, until the refusal beyond the strikes closes the socket (1008),
// after which nothing is answered.
func dueAnswers(frames []floodFrame, burst, strikes int) (out []due, closed bool) {
	for _, f := range frames {
		refused := ""
		switch {
		case burst == 0:
			refused = "rate_limited"
		case f.kind == "garbage":
			burst--
			refused = "bad_request"
		default:
			burst--
		}
		if refused != "" {
			if strikes == 0 {
				return out, true
			}
			strikes--
			id := f.id
			if refused == "bad_request" {
				id = ""
			}
			out = append(out, due{refused, id})
			continue
		}
		if f.kind == "ping" {
			out = append(out, due{kind: "pong"})
		} else {
			out = append(out, due{"answer", f.id})
		}
	}
	return out, false
}

// sendFlood writes the frames in bursts (the sizes in bursts, the rest at
// the end) with a pause between bursts, without reading; it stops at the
// first write that fails (the server closed).
func sendFlood(tb testing.TB, c *conn, frames []floodFrame, bursts []int, pause time.Duration) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	for i, f := range frames {
		if len(bursts) > 0 && bursts[0] == 0 {
			bursts = bursts[1:]
			time.Sleep(pause)
		}
		if len(bursts) > 0 {
			bursts[0]--
		}
		if err := c.Conn.Write(ctx, websocket.MessageText, []byte(f.text())); err != nil {
			tb.Logf("write %d: %v", i, err)
			return
		}
	}
}

// checkFlood reads what the server answers a flood and checks it against
// the game's log: the answers come in the frames' order, each as due; every
// action stored is acknowledged, in seq order and without gaps, after its
// event; the events come in seq order without gaps; and the socket closes
// with 1008 only when the flood ran out of strikes, after every answer.
func checkFlood(t *testing.T, st store.Store, c *conn, game string, frames []floodFrame) (stored int) {
	t.Helper()
	want, closed := dueAnswers(frames, 40, 20)
	var answers []msg
	var acked []msg
	var lastEvent int64
	code := websocket.StatusCode(-1)
	for closed || len(answers) < len(want) || lastEvent < int64(len(acked)) {
		m, err := c.read()
		if err != nil {
			code = websocket.CloseStatus(err)
			if code == -1 {
				t.Fatalf("socket ended without a close frame: %v", err)
			}
			break
		}
		switch m.Type {
		case "event":
			if m.Seq != lastEvent+1 {
				t.Fatalf("event %d after %d", m.Seq, lastEvent)
			}
			lastEvent = m.Seq
		case "ack":
			if m.Seq != int64(len(acked))+1 {
				t.Fatalf("ack %s: seq %d, want %d (acks in seq order, no gaps)", m.ID, m.Seq, len(acked)+1)
			}
			if m.Seq > lastEvent {
				t.Fatalf("ack of seq %d before its event (last event %d)", m.Seq, lastEvent)
			}
			acked = append(acked, m)
			answers = append(answers, m)
		case "reject", "pong":
			answers = append(answers, m)
		case "presence":
		default:
			t.Fatalf("unexpected %s", m.raw)
		}
	}
	if closed && code != websocket.StatusPolicyViolation {
		t.Fatalf("closed with %d, want 1008 (policy violation)", code)
	}
	if !closed && code != -1 {
		t.Fatalf("closed with %d; the flood stayed within the strikes", code)
	}
	if len(answers) != len(want) {
		t.Fatalf("%d answers, want %d", len(answers), len(want))
	}
	for i, w := range want {
		m := answers[i]
		ok := false
		switch w.kind {
		case "answer":
			ok = (m.Type == "ack" || m.Type == "reject" && m.Error.Code != "rate_limited") && m.ID == w.id
		case "pong":
			ok = m.Type == "pong"
		default:
			ok = m.Type == "reject" && m.Error.Code == w.kind && m.ID == w.id
		}
		if !ok {
			t.Fatalf("answer %d is %s, want %s %q", i, m.raw, w.kind, w.id)
		}
	}
	// The log holds exactly the actions acknowledged.
	acts, err := st.Actions(context.Background(), game, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != len(acked) {
		t.Fatalf("%d actions stored, %d acknowledged", len(acts), len(acked))
	}
	for i, a := range acts {
		if a.Seq != acked[i].Seq || a.ClientID != acked[i].ID {
			t.Fatalf("stored seq %d (%s), acknowledged seq %d (%s)", a.Seq, a.ClientID, acked[i].Seq, acked[i].ID)
		}
	}
	return len(acts)
}

// floodGame makes a game for a flood: a solo game, or a race whose seat 1
// floods while seat 2 has joined.
func floodGame(t *testing.T, e *env, p *player, race bool) string {
	t.Helper()
	if !race {
		return p.mustSolo(t)
	}
	r := p.mustRace(t, `{"code":"DR1-D1UI-QWERTYU"}`)
	e.mustPlayer(t).mustJoin(t, r)
	return r.ID
}

// TestFloodAnswersInOrder: at the default limits, 62 actions sent at once
// get their answers in their order: the acks of the actions the table
// stored (with their events), then the rate_limited rejects of the 20
// frames over the burst, then the close (1008) for the one beyond the
// strikes; the last is never read.
func TestFloodAnswersInOrder(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustEnv(t, st, nil)
		for _, race := range []bool{false, true} {
			for _, v := range []string{"", "?v=2"} {
				t.Run(fmt.Sprintf("race=%v%s", race, v), func(t *testing.T) {
					p := e.mustPlayer(t)
					g := floodGame(t, e, p, race)
					c := p.mustDial(t, g, v)
					if s := c.next(); s.Type != "state" {
						t.Fatalf("first frame %s", s.raw)
					}
					frames := make([]floodFrame, 62)
					for i := range frames {
						frames[i] = floodFrame{kind: "action", id: fmt.Sprintf("f%d", i)}
					}
					sendFlood(t, c, frames, nil, 0)
					if n := checkFlood(t, st, c, g, frames); n == 0 {
						t.Fatal("nothing stored: the flood tests nothing")
					}
				})
			}
		}
	})
}

// TestFloodAnswersInOrderRandom: random floods of actions, pings and
// garbage in random bursts: the same order, whether the socket survives
// or is closed for flooding.
func TestFloodAnswersInOrderRandom(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustEnv(t, st, nil) // the default limits
		for round := range 12 {
			race, v := rng.IntN(2) == 1, []string{"", "?v=2"}[rng.IntN(2)]
			n := 1 + rng.IntN(70)
			frames := make([]floodFrame, n)
			for i := range frames {
				switch r := rng.IntN(10); {
				case r < 7:
					frames[i] = floodFrame{kind: "action", id: fmt.Sprintf("r%d", i)}
				case r < 9:
					frames[i] = floodFrame{kind: "ping"}
				default:
					frames[i] = floodFrame{kind: "garbage"}
				}
			}
			var bursts []int
			for left := n; left > 0; {
				b := 1 + rng.IntN(left)
				bursts = append(bursts, b)
				left -= b
			}
			pause := time.Duration(rng.IntN(3)) * time.Millisecond
			t.Run(fmt.Sprintf("%d race=%v%s n=%d bursts=%v", round, race, v, n, bursts), func(t *testing.T) {
				p := e.mustPlayer(t)
				g := floodGame(t, e, p, race)
				c := p.mustDial(t, g, v)
				if s := c.next(); s.Type != "state" {
					t.Fatalf("first frame %s", s.raw)
				}
				sendFlood(t, c, frames, bursts, pause)
				if _, closed := dueAnswers(frames, 40, 20); !closed {
					defer c.Conn.CloseNow()
				}
				checkFlood(t, st, c, g, frames)
			})
		}
	})
}
