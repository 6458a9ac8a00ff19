// Package apitest holds what the tests of the API packages (httpapi, ws)
// share: a manual clock with timers, the stores every end-to-end test runs
// on, and a client of the REST API and its sockets. Only tests import it.
package apitest

import (
	"context"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/postgres"
	"dsol/internal/store/sqlite"
	"dsol/internal/testenv"
)

// Clock is a manual clock with timers: it stands still unless moved, and
// Advance runs the timers that fall due, in order, in the caller's goroutine.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
}

type timer struct {
	at   time.Time
	f    func()
	done bool
}

// NewClock returns a Clock standing at 2030-01-02 03:04:05 UTC.
func NewClock() *Clock {
	return &Clock{now: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
}

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
	t := &timer{at: c.now.Add(d), f: f}
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
	var due []*timer
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

// stores are the stores every end-to-end test runs on; each entry makes a
// fresh, empty database and returns a function that opens it (again).
var stores = []struct {
	name  string
	fresh func(tb testing.TB) func(tb testing.TB) store.Store
}{
	{"sqlite", func(tb testing.TB) func(testing.TB) store.Store {
		path := filepath.Join(tb.TempDir(), "dsol.db")
		return func(tb testing.TB) store.Store {
			s, err := sqlite.Open(context.Background(), path)
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { s.Close() })
			return s
		}
	}},
	{"postgres", func(tb testing.TB) func(testing.TB) store.Store {
		u := testenv.PostgresSchemaURL(tb)
		return func(tb testing.TB) store.Store {
			s, err := postgres.Open(context.Background(), u)
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { s.Close() })
			return s
		}
	}},
}

// runner is *testing.T or *testing.B.
type runner[T any] interface {
	testing.TB
	Run(name string, f func(T)) bool
}

// ForEachStore runs f as a subtest (or sub-benchmark) on SQLite and on
// PostgreSQL (when configured), each on a fresh, empty database; open opens
// that database, and calling it again reopens the same one. Each store opened
// is closed when the test that opened it ends.
func ForEachStore[T runner[T]](t T, f func(t T, open func(testing.TB) store.Store)) {
	for _, s := range stores {
		t.Run(s.name, func(t T) { f(t, s.fresh(t)) })
	}
}

// SQLite opens a fresh, empty SQLite store, closed when the test ends.
func SQLite(tb testing.TB) store.Store {
	tb.Helper()
	return stores[0].fresh(tb)(tb)
}
