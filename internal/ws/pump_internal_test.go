package ws

import (
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
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
	for seen.Load() != posted.Load() || p.running() { // the goroutine lingers, then ends
		if time.Now().After(deadline) {
			t.Fatalf("after the last wake: seen %d, posted %d, goroutine running %v", seen.Load(), posted.Load(), p.running())
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
	synctest.Test(t, func(t *testing.T) {
		var passes atomic.Int64
		p := newPump(func() bool { passes.Add(1); return false }, time.Millisecond)
		p.wake()
		<-p.done
		p.wake()
		p.wake()
		time.Sleep(time.Hour)
		synctest.Wait()
		if n := passes.Load(); n != 1 || !p.isOver() || p.running() {
			t.Fatalf("%d passes, over %v, goroutine running %v; want 1 pass, over, no goroutine", n, p.isOver(), p.running())
		}
	})
}

// TestPumpLinger: after a pass the goroutine waits for the next wake (a
// wake then runs the pass on it), and ends exactly
// when the linger has passed with none; a wake after that starts a new one.
// The test runs on synctest's clock, so it checks the linger to the
// nanosecond without waiting for it.
func TestPumpLinger(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const linger = 50 * time.Millisecond
		var passes atomic.Int64
		var over atomic.Bool
		p := newPump(func() bool { passes.Add(1); return !over.Load() }, linger)
		t.Cleanup(func() { // end the pump's goroutine, whatever state a failure left it in
			over.Store(true)
			p.wake()
			<-p.done
		})
		check := func(what string, n int64, running bool) {
			t.Helper()
			synctest.Wait() // every goroutine of the test is blocked: the pump has done what it will
			if passes.Load() != n || p.running() != running {
				t.Fatalf("%s: %d passes, goroutine running %v; want %d, %v", what, passes.Load(), p.running(), n, running)
			}
		}
		check("before a wake", 0, false)
		p.wake()
		check("after a wake", 1, true)
		for i := int64(2); i <= 4; i++ {
			time.Sleep(linger - time.Nanosecond)
			check("a nanosecond before the linger ends", i-1, true)
			p.wake()
			check("woken while it waits", i, true)
		}
		time.Sleep(linger - time.Nanosecond)
		check("a nanosecond before the linger ends", 4, true)
		time.Sleep(time.Nanosecond)
		check("when the linger ends", 4, false)
		p.wake()
		check("a wake after the linger", 5, true)
		time.Sleep(linger)
		check("the new goroutine's linger", 5, false)
	})
}

// TestPumpWakeIn: wakeIn runs a pass once its time has passed, and not
// before; a later call replaces an earlier one, stopTimer cancels it, and
// once the pump is over it does nothing.
func TestPumpWakeIn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const linger = time.Millisecond
		var passes atomic.Int64
		var over atomic.Bool
		p := newPump(func() bool { passes.Add(1); return !over.Load() }, linger)
		check := func(what string, n int64) {
			t.Helper()
			synctest.Wait()
			if got := passes.Load(); got != n {
				t.Fatalf("%s: %d passes, want %d", what, got, n)
			}
		}
		p.wakeIn(time.Second)
		time.Sleep(time.Second - time.Nanosecond)
		check("a nanosecond before", 0)
		time.Sleep(time.Nanosecond)
		check("on time", 1)
		p.wakeIn(time.Second)
		time.Sleep(time.Second / 2)
		p.wakeIn(time.Second) // replaces the first
		time.Sleep(time.Second - time.Nanosecond)
		check("before the second's time", 1)
		time.Sleep(time.Nanosecond)
		check("on the second's time", 2)
		p.wakeIn(time.Second)
		time.Sleep(time.Second / 2)
		p.stopTimer()
		time.Sleep(time.Hour)
		check("stopped", 2)
		over.Store(true)
		p.wake()
		<-p.done
		check("the last pass", 3)
		p.wakeIn(time.Second)
		time.Sleep(time.Hour)
		check("over", 3)
	})
}

// running reports whether the pump's goroutine runs.
func (p *pump) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.live
}

// isOver reports whether a pass returned false.
func (p *pump) isOver() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.over
}
