package live

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"dsol/internal/klondike"
	"dsol/internal/protocol"
)

// parked reports whether the table's goroutine is parked.
func parked(t *Table) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return !t.running
}

// viewsHeld is how many viewers' delta bases the table keeps.
func viewsHeld(tb testing.TB, t *Table) int {
	tb.Helper()
	n := -1
	if err := t.call(context.Background(), func() { n = len(t.views) }); err != nil {
		tb.Fatal(err)
	}
	return n
}

// A table idle for ParkAfter parks at the next ring of the bell (every
// ParkAfter/2), with or without subscribers; an action, a call or a new
// subscriber wakes it, and its subscribers get their events as before; the
// sweeper evicts a parked table, and Close stops one. It runs on synctest's
// clock.
func TestTablesPark(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const after = 30 * time.Second
		e := mustEnv(t)
		e.cfg.Clock, e.cfg.ParkAfter, e.cfg.IdleAfter = time.Now, after, 10*time.Minute
		e.restart(t)
		id := mustGame(t, e, "g1", code)
		play(t, e.reg, id, 4, 1)
		before := mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw), ClientID: "b1"})
		tb, err := e.reg.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		sub := mustSubscribe(t, e.reg, id)
		sub.ReleaseStart()

		time.Sleep(after - time.Second)
		synctest.Wait()
		if parked(tb) {
			t.Fatal("parked before ParkAfter")
		}
		time.Sleep(after/2 + time.Second) // the ring after ParkAfter
		synctest.Wait()
		if !parked(tb) {
			t.Fatal("not parked after ParkAfter and a ring")
		}

		res := mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw), ClientID: "w1"})
		if res.Seq != 6 {
			t.Fatalf("woken table answered seq %d, want 6", res.Seq)
		}
		us, open := sub.Take(nil)
		if !open || len(us) != 1 || us[0].Frame == nil || us[0].Frame.Event.Seq != 6 || us[0].Frame.Prev == nil {
			t.Fatalf("the subscriber of a parked table got %d updates (open %v), want the delta of seq 6", len(us), open)
		}
		if parked(tb) {
			t.Fatal("parked right after an action")
		}
		if dup := mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw), ClientID: "w1"}); !dup.Duplicate || dup.Seq != 6 {
			t.Fatalf("resent id after a park: %+v", dup)
		}
		// The window went with the park: the event of an id from before it
		// comes from the store, the same.
		if dup := mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw), ClientID: "b1"}); !dup.Duplicate || dup.Seq != 5 ||
			string(dup.Event.Action) != string(before.Event.Action) || !dup.Event.At.Equal(before.Event.At) {
			t.Fatalf("id resent from before the park: %+v, want the event of %+v", dup.Event, before.Event)
		}

		time.Sleep(2 * after)
		synctest.Wait()
		if !parked(tb) {
			t.Fatal("not parked again")
		}
		sub2, err := tb.Subscribe(context.Background(), 1, 3)
		if err != nil {
			t.Fatal(err)
		}
		if st := sub2.Start(); st == nil || st.Seq != 6 || len(st.Missed) != 3 {
			t.Fatalf("a subscriber of a parked table starts with %+v, want seq 6 and 3 missed events", st)
		}
		sub2.Close()
		sub.Close()
		if n := viewsHeld(t, tb); n != 0 {
			t.Fatalf("a table nobody watches keeps %d views", n)
		}

		time.Sleep(after + after/2)
		synctest.Wait()
		if !parked(tb) {
			t.Fatal("not parked once the subscribers left")
		}
		time.Sleep(10 * time.Minute)
		synctest.Wait()
		if n := e.reg.Live(); n != 0 {
			t.Fatalf("%d live tables after IdleAfter: the sweeper left a parked table", n)
		}
		if seq, _ := mustSnapshot(t, e.reg, id); seq != 6 {
			t.Fatalf("rebuilt at seq %d, want 6", seq)
		}
		// Left parked: the cleanup's Close stops it (goleak checks).
		if tb, err = e.reg.Get(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * after)
		synctest.Wait()
		if !parked(tb) {
			t.Fatal("the rebuilt table did not park")
		}
	})
}

// The viewer's delta base goes with its last subscription, not before.
func TestViewForgottenWithLastSubscriber(t *testing.T) {
	e := mustEnv(t)
	id := mustGame(t, e, "g1", code)
	tb, err := e.reg.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	a, b := mustSubscribe(t, e.reg, id), mustSubscribe(t, e.reg, id)
	mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	if n := viewsHeld(t, tb); n != 1 {
		t.Fatalf("%d views held for one viewer", n)
	}
	b.Take(nil)
	a.Close()
	if n := viewsHeld(t, tb); n != 1 {
		t.Fatal("the base went while a subscriber of its viewer stays")
	}
	mustDo(t, e.reg, id, protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)})
	if us, _ := b.Take(nil); len(us) != 1 || us[0].Frame.Prev == nil || us[0].Frame.Event.Seq != 2 {
		t.Fatalf("the staying subscriber got %+v, want a delta", us)
	}
	b.Close()
	if n := viewsHeld(t, tb); n != 0 {
		t.Fatalf("%d views held with no subscriber", n)
	}
}

// Tables that park at every chance (ParkAfter a nanosecond, the bell rung
// without a pause) lose no command and no call: every action is answered
// once, in one order, and the log holds them all.
func TestParkUnderLoad(t *testing.T) {
	e := mustEnv(t)
	e.cfg.Clock, e.cfg.ParkAfter = time.Now, time.Nanosecond
	e.restart(t)
	ids := make([]string, 4)
	for i := range ids {
		ids[i] = mustGame(t, e, fmt.Sprintf("g%d", i), code)
	}
	stop := make(chan struct{})
	var ringing sync.WaitGroup
	ringing.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				e.reg.cfg.bell.ring()
				time.Sleep(10 * time.Microsecond)
			}
		}
	})
	const each = 120
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { // the player
			for i := range each {
				cmd := protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw), ClientID: fmt.Sprint(i)}
				if _, err := e.reg.Do(context.Background(), id, cmd); err != nil {
					cmd.Action = klondike.Simple(klondike.Recycle)
					if _, err := e.reg.Do(context.Background(), id, cmd); err != nil {
						t.Errorf("%s: %v", id, err)
						return
					}
				}
			}
		})
		wg.Go(func() { // a reader, through calls
			for range each {
				if _, _, err := e.reg.Snapshot(context.Background(), id, 1); err != nil {
					t.Errorf("%s: snapshot: %v", id, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	ringing.Wait()
	for _, id := range ids {
		if seq, _ := mustSnapshot(t, e.reg, id); seq != each {
			t.Fatalf("%s at seq %d, want %d", id, seq, each)
		}
		acts, err := e.st.Actions(context.Background(), id, 0)
		if err != nil || len(acts) != each {
			t.Fatalf("%s: %d actions stored (%v), want %d", id, len(acts), err, each)
		}
	}
}
