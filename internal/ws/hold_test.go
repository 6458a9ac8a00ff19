package ws_test

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"dsol/internal/store"
	"dsol/internal/ws"
)

// gateStore holds every AppendActions, while gated, until the test lets it
// through: entered tells that one waits, release lets one through.
type gateStore struct {
	store.Store
	gated   atomic.Bool
	entered chan struct{}
	release chan struct{}
}

func newGateStore(st store.Store) *gateStore {
	return &gateStore{Store: st, entered: make(chan struct{}, 8), release: make(chan struct{}, 8)}
}

func (g *gateStore) AppendActions(ctx context.Context, actions []store.Action) error {
	if g.gated.Load() {
		g.entered <- struct{}{}
		<-g.release
	}
	return g.Store.AppendActions(ctx, actions)
}

// open lets every write through, those waiting too.
func (g *gateStore) open() {
	g.gated.Store(false)
	for {
		select {
		case g.release <- struct{}{}:
		default:
			return
		}
	}
}

// mustEnter waits until a write waits at the gate.
func (g *gateStore) mustEnter(tb testing.TB) {
	tb.Helper()
	select {
	case <-g.entered:
	case <-time.After(wait):
		tb.Fatal("no write reached the store")
	}
}

// received reads a counter of dsol_ws_messages_received_total.
func (e *env) received(tb testing.TB, typ string) int {
	tb.Helper()
	rec := httptest.NewRecorder()
	e.metrics.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	prefix := `dsol_ws_messages_received_total{type="` + typ + `"} `
	for _, l := range strings.Split(rec.Body.String(), "\n") {
		if v, ok := strings.CutPrefix(l, prefix); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				tb.Fatalf("%s: %v", l, err)
			}
			return n
		}
	}
	return 0
}

// mustAwaitPing waits until the server has read n pings in all: the
// frames a client sent before its nth ping are then handed to the table.
func (e *env) mustAwaitPing(tb testing.TB, n int) {
	tb.Helper()
	deadline := time.Now().Add(wait)
	for e.received(tb, "ping") < n {
		if time.Now().After(deadline) {
			tb.Fatalf("the server read %d pings, not %d", e.received(tb, "ping"), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestEventsWaitForTheAnswer: on a protocol 2 socket whose client has an
// action in flight, an event of the other seat waits for that action's
// answer and arrives in the same frame as the answer; it waits no longer
// than Config.HoldEvents; and a client with nothing in flight gets an event
// at once.
func TestEventsWaitForTheAnswer(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		// race starts a race of ada and bob, each on a protocol 2 socket,
		// with the gate closed, and has ada's draw wait in the store while
		// bob's draw (and a ping after it) is handed to the table: bob then
		// has an action in flight when ada's event comes.
		race := func(t *testing.T, hold time.Duration) (gs *gateStore, a, b *conn) {
			gs = newGateStore(st)
			e := mustEnv(t, gs, func(c *ws.Config) { c.HoldEvents = hold })
			ada, bob := e.mustPlayer(t), e.mustPlayer(t)
			rc := ada.mustRace(t, `{"draw":1}`)
			bob.mustJoin(t, rc)
			a, b = ada.mustDial(t, rc.ID, "?v=2"), bob.mustDial(t, rc.ID, "?v=2")
			a.mustReadType("state")
			b.mustReadType("state")
			a.sync()
			b.sync()
			pings := e.received(t, "ping")
			gs.gated.Store(true)
			t.Cleanup(gs.open) // before the server stops, even after a failure
			a.Act("a1", `{"type":"draw"}`)
			gs.mustEnter(t)
			b.Act("b1", `{"type":"draw"}`)
			b.Send(`{"type":"ping"}`)
			e.mustAwaitPing(t, pings+1)
			return gs, a, b
		}

		t.Run("shares the answer's frame", func(t *testing.T) {
			gs, a, b := race(t, 2*wait) // longer than a read waits
			gs.gated.Store(false)
			gs.release <- struct{}{} // ada's draw; bob's follows without a gate
			before := b.frames
			var got []string
			for len(got) < 3 {
				m := b.next()
				got = append(got, m.Type+" "+strconv.FormatInt(m.Seq, 10)+" "+m.ID)
			}
			if want := []string{"event 1 ", "event 2 ", "ack 2 b1"}; strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("bob read %q, want %q", got, want)
			}
			if n := b.frames - before; n != 1 {
				t.Fatalf("bob read ada's event, his own and his ack in %d frames, want one", n)
			}
			b.mustReadType("pong")

			// Nothing in flight: ada's next event comes at once, not after
			// HoldEvents, which is longer than the read waits.
			a.Act("a2", `{"type":"draw"}`)
			if m := b.next(); m.Type != "event" || m.Seq != 3 {
				t.Fatalf("bob read %s, want ada's second event", m.raw)
			}
		})

		t.Run("waits no longer than HoldEvents", func(t *testing.T) {
			gs, _, b := race(t, 20*time.Millisecond)
			gs.release <- struct{}{} // ada's draw; bob's waits at the gate
			gs.mustEnter(t)
			if m := b.next(); m.Type != "event" || m.Seq != 1 {
				t.Fatalf("bob read %s while his draw waits, want ada's event", m.raw)
			}
			if len(b.queue) != 0 {
				t.Fatalf("ada's event came with %d more messages, want alone", len(b.queue))
			}
			gs.gated.Store(false)
			gs.release <- struct{}{}
			if ans, _ := b.answer("b1", 2); ans.Type != "ack" {
				t.Fatalf("bob's draw: %s", ans.raw)
			}
		})
	})
}
