package testenv

import (
	"sort"
	"sync"
	"time"
)

// Clock is a manual clock with timers for tests: it stands still unless
// moved, and Advance runs the timers that fall due, in order, in the
// caller's goroutine.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*clockTimer
}

type clockTimer struct {
	at   time.Time
	f    func()
	done bool
}

// NewClock returns a Clock standing at 2030-01-02 03:04:05 UTC.
func NewClock() *Clock { return NewClockAt(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)) }

// NewClockAt returns a Clock standing at t.
func NewClockAt(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc runs f once the clock has been advanced by d; the function it
// returns stops the timer and reports whether it was still pending.
func (c *Clock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &clockTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.done
		t.done = true
		return was
	}
}

// Advance moves the clock on by d and runs the timers due by then.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*clockTimer
	keep := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case t.done:
		case !t.at.After(c.now):
			t.done = true
			due = append(due, t)
		default:
			keep = append(keep, t)
		}
	}
	c.timers = keep
	c.mu.Unlock()
	sort.SliceStable(due, func(i, j int) bool { return due[i].at.Before(due[j].at) })
	for _, t := range due {
		t.f()
	}
}

// Pending reports whether a timer is set to run at at.
func (c *Clock) Pending(at time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.timers {
		if !t.done && t.at.Equal(at) {
			return true
		}
	}
	return false
}
