package matchmaking

import (
	"context"
	"dsol/internal/testenv"
	"testing"
	"time"
)

// env is a queue on a manual clock, closed at the end of the test.
type env struct {
	q     *Queue
	clock *testenv.Clock
}

func mustEnv(t *testing.T, pair Pair) *env {
	c := testenv.NewClock()
	q := New(Config{Pair: pair, Clock: c.Now})
	t.Cleanup(q.Close)
	return &env{q: q, clock: c}
}

// TestMatchWindow: the closest rating within the window pairs at once;
// players further apart pair once their windows have widened enough; a
// player never meets themselves, and an entry nobody watches leaves.
func TestMatchWindow(t *testing.T) {
	var pairs [][2]string
	e := mustEnv(t, func(_ context.Context, a, b Entry) (string, error) {
		pairs = append(pairs, [2]string{a.Player, b.Player})
		return a.Player + "-" + b.Player, nil
	})
	ctx := context.Background()
	match := func(p string, rating float64, key string) string {
		t.Helper()
		id, err := e.q.Join(ctx, Entry{Player: p, Rating: rating, Key: key})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	watch := func(p string) <-chan []byte {
		t.Helper()
		c, _, err := e.q.Watch(p)
		if err != nil {
			t.Fatal(err)
		}
		<-c // waiting
		return c
	}
	for range 2 { // queuing again replaces her entry
		if match("ann", 1500, "d1") != "" {
			t.Fatal("ann was paired with herself")
		}
	}
	if match("bea", 1580, "d3") != "" {
		t.Fatal("paired across options")
	}
	if id := match("cid", 1580, "d1"); id != "ann-cid" {
		t.Fatalf("cid: %q, want a race with ann (80 apart, within 100)", id)
	}
	// dee (1500) and eve (1740) are 240 apart: 100 + 50 per 5 s pairs them
	// once the longer waiter has waited 15 s.
	match("dee", 1500, "d1")
	deeW := watch("dee")
	e.clock.Advance(5 * time.Second)
	if match("eve", 1740, "d1") != "" {
		t.Fatal("eve paired at 240 apart with a window of 150")
	}
	eveW := watch("eve")
	e.clock.Advance(5 * time.Second)
	e.q.Sweep(ctx)
	if len(pairs) != 1 {
		t.Fatalf("paired at a window of 200: %v", pairs)
	}
	// bea (d3) had nobody watching her for Unwatched: she left.
	if n := e.q.Waiting(); n != 2 {
		t.Fatalf("%d waiting, want dee and eve", n)
	}
	e.clock.Advance(5 * time.Second)
	e.q.Sweep(ctx)
	if len(pairs) != 2 || pairs[1] != [2]string{"dee", "eve"} {
		t.Fatalf("pairs %v, want dee with eve once dee waited 15 s", pairs)
	}
	for _, c := range []<-chan []byte{deeW, eveW} {
		if got := string(<-c); got != `{"type":"matched","race":"dee-eve"}` {
			t.Fatalf("watcher got %s", got)
		}
		if _, open := <-c; open {
			t.Fatal("the watch stays open after matched")
		}
	}
	if n := e.q.Waiting(); n != 0 {
		t.Fatalf("%d waiting at the end", n)
	}
	if err := e.q.Leave("bea"); err != ErrNotQueued {
		t.Fatalf("Leave of a player gone: %v", err)
	}
}

// TestMatchBlocked: players whose entries avoid each other never pair, at
// once or as their windows widen, and a block made while both wait
// (Blocked) keeps them apart too; a third player pairs.
func TestMatchBlocked(t *testing.T) {
	e := mustEnv(t, func(_ context.Context, a, b Entry) (string, error) {
		return a.Player + "-" + b.Player, nil
	})
	ctx := context.Background()
	match := func(p string, rating float64, key string, avoid ...string) string {
		t.Helper()
		m := map[string]bool{}
		for _, a := range avoid {
			m[a] = false // only the keys count
		}
		id, err := e.q.Join(ctx, Entry{Player: p, Rating: rating, Key: key, Avoid: m})
		if err != nil {
			t.Fatal(err)
		}
		if id == "" {
			c, stop, err := e.q.Watch(p)
			if err != nil {
				t.Fatal(err)
			}
			<-c // waiting
			t.Cleanup(stop)
		}
		return id
	}
	match("ann", 1500, "d1")
	e.clock.Advance(time.Second) // ann has waited longer than bea: she is cid's match below
	if id := match("bea", 1500, "d1", "ann"); id != "" {
		t.Fatalf("bea, who avoids ann, was paired: %q", id)
	}
	// gus and hal are 300 apart: the sweep would pair them after 20 s.
	match("gus", 1900, "d3")
	match("hal", 2200, "d3")
	e.q.Blocked("hal", "gus")
	for range 6 {
		e.clock.Advance(5 * time.Second)
		e.q.Sweep(ctx)
	}
	if n := e.q.Waiting(); n != 4 {
		t.Fatalf("%d waiting after the sweeps, want all 4 (ann and bea, gus and hal avoid each other)", n)
	}
	if id := match("cid", 1500, "d1"); id != "ann-cid" {
		t.Fatalf("cid: %q, want a race with ann (the longest waiting)", id)
	}
	if id := match("ivy", 2200, "d3"); id != "hal-ivy" {
		t.Fatalf("ivy: %q, want a race with hal", id)
	}
}

// TestBusy: a waiting player whom the pairing refuses as busy (a race in
// play since they queued) leaves the queue, told idle, and the other waits
// on — when a newcomer comes and when the sweep pairs.
func TestBusy(t *testing.T) {
	busy := map[string]bool{}
	var pairs [][2]string
	e := mustEnv(t, func(_ context.Context, a, b Entry) (string, error) {
		for _, p := range []string{a.Player, b.Player} {
			if busy[p] {
				return "", &BusyError{Player: p, Race: "r-" + p}
			}
		}
		pairs = append(pairs, [2]string{a.Player, b.Player})
		return a.Player + "-" + b.Player, nil
	})
	ctx := context.Background()
	watch := func(p string) <-chan []byte {
		t.Helper()
		if id, err := e.q.Join(ctx, Entry{Player: p, Rating: 1500, Key: "d1"}); err != nil || id != "" {
			t.Fatalf("%s joined: %q, %v", p, id, err)
		}
		c, _, err := e.q.Watch(p)
		if err != nil {
			t.Fatal(err)
		}
		<-c // waiting
		return c
	}
	annW := watch("ann")
	busy["ann"] = true
	if id, err := e.q.Join(ctx, Entry{Player: "bea", Rating: 1500, Key: "d1"}); err != nil || id != "" {
		t.Fatalf("bea met busy ann: %q, %v", id, err)
	}
	if got := string(<-annW); got != `{"type":"idle"}` {
		t.Fatalf("ann was told %s, want idle", got)
	}
	if n := e.q.Waiting(); n != 1 {
		t.Fatalf("%d waiting, want bea alone", n)
	}
	// The sweep: cid and dee, 300 apart, pair once their windows widen;
	// dee is busy by then.
	e.q.Leave("bea")
	cidW := watch("cid")
	e.clock.Advance(time.Second)
	if id, err := e.q.Join(ctx, Entry{Player: "dee", Rating: 1800, Key: "d1"}); err != nil || id != "" {
		t.Fatalf("dee: %q, %v", id, err)
	}
	busy["dee"] = true
	for range 6 {
		e.clock.Advance(5 * time.Second)
		e.q.Sweep(ctx)
	}
	if len(pairs) != 0 || e.q.Waiting() != 1 {
		t.Fatalf("pairs %v, %d waiting; want none, cid alone", pairs, e.q.Waiting())
	}
	select {
	case m := <-cidW:
		t.Fatalf("cid, who waits on, was told %s", m)
	default:
	}
}
