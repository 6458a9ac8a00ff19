// Package apitest holds what the tests of the API packages (httpapi, ws)
// share: a manual clock with timers, the stores every end-to-end test runs
// on, and a client of the REST API and its sockets. Only tests import it.
package apitest

import (
	"context"
	"path/filepath"
	"testing"

	"dsol/internal/store"
	"dsol/internal/store/postgres"
	"dsol/internal/store/sqlite"
	"dsol/internal/testenv"
)

// Clock is the manual clock of the end-to-end tests (testenv.Clock).
type Clock = testenv.Clock

// NewClock returns a Clock standing at 2030-01-02 03:04:05 UTC.
func NewClock() *Clock { return testenv.NewClock() }

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
