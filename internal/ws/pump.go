package ws

import (
	"sync"
	"time"
)

// pump runs a writer on demand: wake has pass run soon on the pump's
// goroutine, which it starts when there is none. After a pass the
// goroutine waits for the next wake for up to linger and ends if none
// comes: a busy socket keeps its writer (and the stack it grew) from one
// event to the next, an idle one has no writer goroutine, only its read
// loop. Wakes never block and passes never overlap; every wake is followed
// by a pass that begins after it, and wakes that come during a pass make
// one more. wakeIn wakes it later, on a timer made on first use. Once pass
// returns false the pump is over: done is closed and later wakes do
// nothing.
type pump struct {
	pass   func() bool
	linger time.Duration
	kick   chan struct{} // capacity 1: a pass is due
	done   chan struct{}

	mu    sync.Mutex
	live  bool        // the goroutine runs
	over  bool        // pass returned false
	timer *time.Timer // wakeIn's, or nil
}

// pumpLinger is how long a writer waits for more before its goroutine
// ends: longer than the gap between two events of a busy game, far shorter
// than a socket stays idle.
const pumpLinger = 250 * time.Millisecond

func newPump(pass func() bool, linger time.Duration) *pump {
	return &pump{pass: pass, linger: linger, kick: make(chan struct{}, 1), done: make(chan struct{})}
}

// wake has the pass run soon, on the goroutine or on a new one.
func (p *pump) wake() {
	select {
	case p.kick <- struct{}{}:
	default: // a kick waits already: its pass begins after this wake
	}
	p.mu.Lock()
	start := !p.live && !p.over
	if start {
		p.live = true
	}
	p.mu.Unlock()
	if start {
		go p.run()
	}
}

// wakeIn has the pass run once d has passed, unless stopTimer comes
// first; a later call replaces an earlier one.
func (p *pump) wakeIn(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.over:
	case p.timer == nil:
		p.timer = time.AfterFunc(d, p.wake)
	default:
		p.timer.Reset(d)
	}
}

// stopTimer cancels the wake of wakeIn, if it has not come yet.
func (p *pump) stopTimer() {
	p.mu.Lock()
	if p.timer != nil {
		p.timer.Stop()
	}
	p.mu.Unlock()
}

// run is the pump's goroutine: a pass per kick, until linger passes
// without one.
func (p *pump) run() {
	t := time.NewTimer(p.linger)
	defer t.Stop()
	for {
		select {
		case <-p.kick:
			if !p.pass() {
				p.mu.Lock()
				p.live, p.over = false, true
				if p.timer != nil {
					p.timer.Stop()
				}
				p.mu.Unlock()
				close(p.done)
				return
			}
			t.Reset(p.linger)
		case <-t.C:
			p.mu.Lock()
			if len(p.kick) == 0 { // else a wake came as the time ran out, and found the goroutine live
				p.live = false
				p.mu.Unlock()
				return
			}
			p.mu.Unlock()
		}
	}
}
