package ws

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPumpRunsAfterEveryWake: many goroutines wake a pump at once; passes
// never overlap, and every wake is followed by a pass that began after it
// (what it was woken for is seen).
func TestPumpRunsAfterEveryWake(t *testing.T) {
	var (
		running atomic.Int32
		posted  atomic.Int64 // the last value a waker posted
		seen    atomic.Int64 // the largest value a pass saw
		passes  atomic.Int64
	)
	p := newPump(func() bool {
		if running.Add(1) != 1 {
			t.Error("two passes at once")
		}
		passes.Add(1)
		if v := posted.Load(); v > seen.Load() {
			seen.Store(v)
		}
		time.Sleep(time.Microsecond)
		running.Add(-1)
		return true
	}, time.Millisecond)
	var wg sync.WaitGroup
	var next atomic.Int64
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 500 {
				v := next.Add(1)
				for { // post the largest value so far
					old := posted.Load()
					if v <= old || posted.CompareAndSwap(old, v) {
						break
					}
				}
				p.wake()
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for seen.Load() != posted.Load() || p.state.Load() != pumpIdle { // the goroutine lingers, then ends
		if time.Now().After(deadline) {
			t.Fatalf("after the last wake: seen %d, posted %d, state %d", seen.Load(), posted.Load(), p.state.Load())
		}
		time.Sleep(time.Millisecond)
	}
	if n := passes.Load(); n == 0 || n > 4000 {
		t.Fatalf("%d passes for 4,000 wakes", n)
	}
}

// TestPumpOver: a pass that returns false ends the pump: done is closed and
// later wakes run nothing.
func TestPumpOver(t *testing.T) {
	var passes atomic.Int64
	p := newPump(func() bool { passes.Add(1); return false }, time.Millisecond)
	p.wake()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatal("done not closed")
	}
	p.wake()
	p.wake()
	time.Sleep(10 * time.Millisecond)
	if n := passes.Load(); n != 1 {
		t.Fatalf("%d passes, want 1", n)
	}
}

// TestPumpLinger: after a pass the goroutine waits for the next wake (a
// wake then runs the pass on it), and ends once the linger has passed with
// none; a wake after that starts a new one.
func TestPumpLinger(t *testing.T) {
	var passes atomic.Int64
	p := newPump(func() bool { passes.Add(1); return true }, 50*time.Millisecond)
	until := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: state %d after %d passes", what, p.state.Load(), passes.Load())
			}
			time.Sleep(time.Millisecond)
		}
	}
	for i := int64(1); i <= 3; i++ {
		p.wake()
		until("the pass after a wake", func() bool { return passes.Load() == i })
		if i < 3 {
			// Woken again while it waits (or while it runs, which makes a
			// pass of its own): the test takes whichever state it finds.
			until("parked", func() bool { s := p.state.Load(); return s == pumpParked || s == pumpIdle })
		}
	}
	until("idle after the linger", func() bool { return p.state.Load() == pumpIdle })
	p.wake()
	until("a pass on a new goroutine", func() bool { return passes.Load() == 4 })
}
