package ws

import "sync/atomic"

// pump runs a writer on demand: wake starts a goroutine that runs pass
// until nothing new came in meanwhile, and the goroutine ends when it is
// done. An idle socket thus has no writer goroutine, only its read loop.
// Wakes never block and never run pass twice at once; a wake during a pass
// makes the pass run once more. Once pass returns false the pump is over:
// done is closed and later wakes do nothing.
type pump struct {
	state atomic.Int32
	pass  func() bool
	done  chan struct{}
}

const (
	pumpIdle    = iota // no goroutine
	pumpRunning        // a pass runs
	pumpAgain          // a pass runs, and another must follow it
	pumpOver           // pass returned false
)

func newPump(pass func() bool) *pump { return &pump{pass: pass, done: make(chan struct{})} }

// wake has the pass run soon: now on a new goroutine, or again after the
// one under way.
func (p *pump) wake() {
	for {
		switch p.state.Load() {
		case pumpIdle:
			if p.state.CompareAndSwap(pumpIdle, pumpRunning) {
				go p.run()
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
	for {
		if !p.pass() {
			p.state.Store(pumpOver)
			close(p.done)
			return
		}
		if p.state.CompareAndSwap(pumpRunning, pumpIdle) {
			return
		}
		p.state.Store(pumpRunning) // woken during the pass: once more
	}
}
