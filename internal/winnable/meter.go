package winnable

import (
	"context"
	"time"
)

// Meter reads CPU time used so far: the whole process's, and the calling
// OS thread's (the search runs on a thread of its own).
type Meter interface {
	Process() time.Duration
	Thread() time.Duration
}

// minShare is the least share of a core worth searching with: below it the
// search yields altogether.
const minShare = 0.1

// gate paces the search so that the process, the search included, uses
// less than half the CPUs it may use and the search at most one core. Every
// window it measures how much CPU the rest of the process used over the last
// one; the search may then use, in the window that starts, what keeps the
// process under half the CPUs, up to one core. Once that is spent it sleeps
// until the window ends; when it is less than minShare it yields the whole
// window. It starts by measuring a window, asleep. A short window keeps the
// search's bursts, when the process is half busy, short too.
type gate struct {
	meter  Meter
	half   float64 // cores: half the CPUs
	window time.Duration
	state  func(string) // "searching" or "yielding", on each change
	cpu    func(time.Duration)

	start     time.Time     // of the current window
	proc, own time.Duration // the meter at its start
	lastOwn   time.Duration // the search's CPU time last reported to cpu
	share     float64       // of one core, the search's in this window
	lastState string
	measured  bool
}

func newGate(m Meter, cpus int, window time.Duration, state func(string), cpu func(time.Duration)) *gate {
	g := &gate{meter: m, half: float64(cpus) / 2, window: window, state: state, cpu: cpu}
	g.start, g.proc, g.own = time.Now(), m.Process(), m.Thread()
	g.lastOwn = g.own
	return g
}

// wait returns true when the search may go on, after sleeping as long as
// the pacing asks, or false as soon as ctx ends.
func (g *gate) wait(ctx context.Context) bool {
	for {
		if ctx.Err() != nil {
			return false
		}
		now := time.Now()
		proc, own := g.meter.Process(), g.meter.Thread()
		if own > g.lastOwn {
			g.cpu(own - g.lastOwn)
			g.lastOwn = own
		}
		if el := now.Sub(g.start); el >= g.window {
			others := float64((proc-g.proc)-(own-g.own)) / float64(el)
			g.share = min(1, g.half-others)
			g.start, g.proc, g.own, g.measured = now, proc, own, true
		}
		if g.measured && g.share >= minShare && float64(own-g.own) < g.share*float64(g.window) {
			g.report("searching")
			return true
		}
		if !g.measured || g.share < minShare {
			g.report("yielding")
		}
		if !sleepUntil(ctx, g.start.Add(g.window)) {
			return false
		}
	}
}

func (g *gate) report(s string) {
	if s != g.lastState {
		g.lastState = s
		g.state(s)
	}
}

// sleepUntil sleeps until t, or returns false when ctx ends first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-ctx.Done():
		return false
	}
}
