package ws

import (
	"sync/atomic"
	"time"
)

// pump runs a writer on demand: wake starts a goroutine that runs pass
// until nothing new came in meanwhile. The goroutine then waits for the
// next wake for up to linger and ends if none comes: a busy socket keeps
// its writer (and the stack it grew) from one event to the next, an idle
// one has no writer goroutine, only its read loop. Wakes never block and
// never run pass twice at once; a wake during a pass makes the pass run
// once more. Once pass returns false the pump is over: done is closed and
// later wakes do nothing.
type pump struct {
	state  atomic.Int32
	pass   func() bool
	linger time.Duration
	kick   chan struct{} // capacity 1: a wake for the parked goroutine
	done   chan struct{}
}

const (
	pumpIdle    = iota // no goroutine
	pumpRunning        // a pass runs, or is about to
	pumpAgain          // a pass runs, and another must follow it
	pumpParked         // the goroutine waits for a wake, up to linger
	pumpOver           // pass returned false
)

// pumpLinger is how long a writer waits for more before its goroutine
// ends: longer than the gap between two events of a busy game, far shorter
// than a socket stays idle.
const pumpLinger = 250 * time.Millisecond

func newPump(pass func() bool, linger time.Duration) *pump {
	return &pump{pass: pass, linger: linger, kick: make(chan struct{}, 1), done: make(chan struct{})}
}

// wake has the pass run soon: now on a new goroutine or the parked one, or
// again after the one under way.
func (p *pump) wake() {
	for {
		switch p.state.Load() {
		case pumpIdle:
			if p.state.CompareAndSwap(pumpIdle, pumpRunning) {
				go p.run()
				return
			}
		case pumpParked:
			if p.state.CompareAndSwap(pumpParked, pumpRunning) {
				p.kick <- struct{}{} // never blocks: one kick per park
				return
			}
		case pumpRunning:
			if p.state.CompareAndSwap(pumpRunning, pumpAgain) {
				return
			}
		default: // again, or over
			return
		}
	}
}

func (p *pump) run() {
	var t *time.Timer
	defer func() {
		if t != nil {
			t.Stop()
		}
	}()
	for {
		if !p.pass() {
			p.state.Store(pumpOver)
			close(p.done)
			return
		}
		if !p.state.CompareAndSwap(pumpRunning, pumpParked) {
			p.state.Store(pumpRunning) // woken during the pass: once more
			continue
		}
		if t == nil {
			t = time.NewTimer(p.linger)
		} else {
			t.Reset(p.linger)
		}
		select {
		case <-p.kick: // the waker set running
			t.Stop()
		case <-t.C:
			if p.state.CompareAndSwap(pumpParked, pumpIdle) {
				return
			}
			<-p.kick // a waker set running as the time ran out: its kick comes
		}
	}
}
