package live

import (
	"sync/atomic"
	"time"
)

// A table's goroutine parks when the table has been idle for ParkAfter:
// it ends, and the table stays in memory with its engine, client ids and
// subscribers, at the cost of its fields alone; it lets go of its command
// queue (a sender only uses it while counted by enter) and of its window,
// whose events a reconnecting client or a resent id then finds in the
// store, as those older than the window. The next command or
// call starts a goroutine again (enter). Nothing waits on a parked table's
// goroutine: its subscribers are fed by the goroutine that handles an
// action, its race clocks and checks come back through call.

// DefaultParkAfter is how long a table stays idle before its goroutine
// parks, by default.
const DefaultParkAfter = 30 * time.Second

// parkBell rings every ParkAfter/2: a table that hears it and has been idle
// for ParkAfter parks. One bell for every table of a registry, in place of
// a timer each.
type parkBell struct {
	c atomic.Pointer[chan struct{}]
}

func newParkBell() *parkBell {
	b := new(parkBell)
	c := make(chan struct{})
	b.c.Store(&c)
	return b
}

// wait returns the channel the next ring closes.
func (b *parkBell) wait() <-chan struct{} { return *b.c.Load() }

// ring wakes the tables that wait for it.
func (b *parkBell) ring() {
	c := make(chan struct{})
	close(*b.c.Swap(&c))
}

// ringer rings the bell every ParkAfter/2 (a millisecond at least) until
// Close.
func (r *Registry) ringer() {
	defer r.wg.Done()
	tick := time.NewTicker(max(r.cfg.ParkAfter/2, time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			r.cfg.bell.ring()
		case <-r.stopSwp:
			return
		}
	}
}

// enter counts a sender (a Submit or a call under way) and starts the
// table's goroutine when it is parked; leave uncounts it. A goroutine
// parks only when no sender is counted and no command waits, under the
// same lock, so a command handed over always finds one running.
func (t *Table) enter() {
	t.mu.Lock()
	t.senders++
	if !t.running && !t.ended {
		t.running = true
		if t.do == nil {
			t.do = make(chan *doReq, t.cfg.MaxBatch)
		}
		go t.run()
	}
	t.mu.Unlock()
}

func (t *Table) leave() {
	t.mu.Lock()
	t.senders--
	t.mu.Unlock()
}

// idleSenders reports whether no sender is under way.
func (t *Table) idleSenders() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.senders == 0
}

// park ends the goroutine, on it, when the table has been idle for
// ParkAfter and nothing waits for it; false leaves it running. Its state
// is snapshotted first when it played on since the last snapshot, as when
// it stops: a node that dies later reloads it without a replay.
func (t *Table) park() bool {
	if t.cfg.ParkAfter <= 0 || t.last.After(t.cfg.Clock().Add(-t.cfg.ParkAfter)) || t.stopping || isClosed(t.quit) {
		return false
	}
	t.snapshot(true)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.senders > 0 || len(t.do) > 0 {
		return false
	}
	t.running, t.do = false, nil // the queue, empty, is made again by the next enter
	t.recent.Release()
	t.window.Store(t.recent.First())
	return true
}

// stop has the table stop (Registry.Close), parked or not.
func (t *Table) stop() {
	close(t.quit)
	t.enter()
	t.leave()
}
