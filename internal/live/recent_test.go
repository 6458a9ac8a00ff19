package live

import (
	"context"
	"fmt"
	"testing"

	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// cycle is the next action of a draw-1 solo game that only draws and
// recycles: a draw, or a recycle when the stock is out.
func cycle(tb testing.TB, reg *Registry, id string, clientID string) protocol.Result {
	tb.Helper()
	res, err := reg.Do(context.Background(), id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw), ClientID: clientID})
	if protocol.AsError(err) != nil && protocol.AsError(err).Code == "illegal_move" {
		res, err = reg.Do(context.Background(), id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Recycle), ClientID: clientID})
	}
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// mustLog reads a game's log from the store.
func mustLog(tb testing.TB, e *env, id string) []store.Action {
	tb.Helper()
	acts, err := e.st.Actions(context.Background(), id, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return acts
}

// TestResumeBeyondWindow: a subscriber resuming from a seq gets the events
// after it exactly as the log has them, whether the table's window still
// holds them all (at its edge), or the older ones come from the store (up
// to protocol.MaxResume behind); further behind, it starts from the state
// alone. The game was partly loaded from the store and partly played on
// the table.
func TestResumeBeyondWindow(t *testing.T) {
	e := mustEnv(t)
	seedSolo(t, e, "g1", code, 550)
	for range 100 {
		cycle(t, e.reg, "g1", "")
	}
	const last = 650
	tb, err := e.reg.Get(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	log := mustLog(t, e, "g1")
	for _, c := range []struct {
		name    string
		since   int64
		resumed bool
	}{
		{"at the window's edge", last - Window, true},
		{"one before the window", last - Window - 1, true},
		{"protocol.MaxResume behind", last - protocol.MaxResume, true},
		{"further behind", last - protocol.MaxResume - 1, false},
		{"up to date", last, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			sub, err := tb.Subscribe(context.Background(), 1, c.since)
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			st := sub.Start()
			if st.Resumed != c.resumed || st.Seq != last {
				t.Fatalf("resumed %v at seq %d, want %v at %d", st.Resumed, st.Seq, c.resumed, last)
			}
			if !c.resumed {
				if len(st.Missed) != 0 {
					t.Fatalf("%d missed events without a resume", len(st.Missed))
				}
				return
			}
			if int64(len(st.Missed)) != last-c.since {
				t.Fatalf("%d missed events, want %d", len(st.Missed), last-c.since)
			}
			for i, ev := range st.Missed {
				a := log[c.since+int64(i)]
				if ev.Seq != a.Seq || ev.Seat != a.Seat || string(ev.Action) != string(a.Action) ||
					!ev.At.Equal(a.At) || ev.Status != "playing" {
					t.Fatalf("missed event %d is %+v, the log has %+v", i, ev, a)
				}
			}
		})
	}
	evs, err := tb.EventsSince(context.Background(), last-300)
	if err != nil || len(evs) != 300 || evs[0].Seq != last-299 || evs[299].Seq != last {
		t.Fatalf("events since %d: %d, %v", last-300, len(evs), err)
	}
}

// TestResentIDHorizon: a resent client id is recognised while it is among
// the last IDHorizon ids of its seat, and answered with the earlier event
// from the store once the window no longer holds it (here, after many
// actions without ids); beyond the horizon the table no longer knows it,
// and the action applies as a new one.
func TestResentIDHorizon(t *testing.T) {
	e := mustEnv(t)
	id := mustGame(t, e, "g1", code)
	first := cycle(t, e.reg, id, "x")
	for range Window + 50 {
		cycle(t, e.reg, id, "")
	}
	again := cycle(t, e.reg, id, "x")
	if !again.Duplicate || again.Seq != 1 || string(again.Event.Action) != string(first.Event.Action) ||
		!again.Event.At.Equal(first.Event.At) || again.ViewSeq != Window+51 {
		t.Fatalf("resent beyond the window: %+v, first %+v", again, first)
	}
	for i := range IDHorizon {
		cycle(t, e.reg, id, fmt.Sprintf("y%d", i))
	}
	seq := int64(Window + 51 + IDHorizon)
	if r := cycle(t, e.reg, id, "y0"); !r.Duplicate || r.Seq != seq-IDHorizon+1 {
		t.Fatalf("the oldest id within the horizon: %+v", r)
	}
	if r := cycle(t, e.reg, id, "x"); r.Duplicate || r.Seq != seq+1 {
		t.Fatalf("an id just past the horizon: %+v", r)
	}
	// A table rebuilt from the store knows the same ids: y1 … y127 and x.
	e.restart(t)
	if r := cycle(t, e.reg, id, "y1"); !r.Duplicate || r.Seq != seq-IDHorizon+2 {
		t.Fatalf("an id within the horizon, after a restart: %+v", r)
	}
	if r := cycle(t, e.reg, id, "y0"); r.Duplicate || r.Seq != seq+2 {
		t.Fatalf("an id past the horizon, after a restart: %+v", r)
	}
}

// TestWindowFromAnySeq: a window started at any seq (a table loaded from a
// snapshot) holds the records of its last Window seqs, whatever the seq
// it started from and how far it went.
func TestWindowFromAnySeq(t *testing.T) {
	for _, from := range []int64{0, 1, 38, 127, 128, 422, 1000} {
		for _, n := range []int64{0, 1, 90, Window, Window + 1, 3*Window + 5} {
			r := recent{last: from}
			for s := from + 1; s <= from+n; s++ {
				r.add(record{at: s})
			}
			if r.last != from+n || r.first() != from+n-min(n, Window)+1 {
				t.Fatalf("from %d, %d added: last %d, first %d", from, n, r.last, r.first())
			}
			for s := from - 1; s <= from+n+1; s++ {
				rec, ok := r.get(s)
				if want := s > from+n-min(n, Window) && s <= from+n && s >= 1; ok != want || (ok && rec.at != s) {
					t.Fatalf("from %d, %d added: seq %d gives %+v, %v", from, n, s, rec, ok)
				}
			}
		}
	}
}
