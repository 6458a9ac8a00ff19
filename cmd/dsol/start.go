package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"dsol/internal/metrics"
	"dsol/internal/store"
)

// While dsol serve waits for its database it already listens: /healthz
// answers 200 (the process runs), /readyz and every other route 503
// unavailable, so that an orchestrator neither kills the process nor sends
// it players. Once the store is open and migrated the real handler takes
// over.

// The retry delays of a database that cannot be reached: firstRetry, doubled
// after each failed attempt up to maxRetry.
const (
	firstRetry = 500 * time.Millisecond
	maxRetry   = 8 * time.Second
)

// minAttempt is the least time an attempt is given, the last one too, even
// when it takes the wait that long past --db-wait.
const minAttempt = time.Second

// startingRetryAfter is the Retry-After of the answers given while starting.
const startingRetryAfter = "1"

// switchHandler serves through whichever handler was set last.
type switchHandler struct{ h atomic.Pointer[http.Handler] }

func newSwitchHandler(h http.Handler) *switchHandler {
	s := &switchHandler{}
	s.set(h)
	return s
}

// set makes h serve every request from now on.
func (s *switchHandler) set(h http.Handler) { s.h.Store(&h) }

func (s *switchHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.h.Load()).ServeHTTP(w, r)
}

// startingHandler answers while the store is not open yet: 200 on /healthz,
// the metrics on /metrics, and 503 unavailable with Retry-After on
// everything else, /readyz included.
func startingHandler(m *metrics.Metrics) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		startingJSON(w, http.StatusOK, `{"status":"ok"}`)
	})
	mux.Handle("GET /metrics", m.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", startingRetryAfter)
		startingJSON(w, http.StatusServiceUnavailable,
			`{"error":{"code":"unavailable","message":"starting: waiting for the database"}}`)
	})
	return mux
}

func startingJSON(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write([]byte(body + "\n"))
}

// openFunc opens the store of a --db value: openStore, or a stand-in in tests.
type openFunc func(ctx context.Context, db string) (store.Store, string, error)

// openStoreWaiting opens the store of db, trying again while the database
// cannot be reached (store.ErrUnavailable) after firstRetry, then twice as
// long each time up to maxRetry, for at most wait in all, every attempt
// included (each is given at least minAttempt); a wait of 0 makes one
// attempt, bounded by ctx alone. Each failed attempt is logged,
// with the password taken out of the database's URL (pgx's errors never
// quote it). Any other error (a bad password, a missing database, a failed
// migration) ends the wait at once. When ctx ends first it returns ctx's
// error.
func openStoreWaiting(ctx context.Context, log *slog.Logger, open openFunc, db string, wait time.Duration) (store.Store, string, error) {
	kind, _ := dbTarget(db)
	where := redactDB(db)
	deadline := time.Now().Add(wait)
	delay := firstRetry
	var last error // the last error that was not the attempt's deadline
	for attempt := 1; ; attempt++ {
		actx, cancel := ctx, context.CancelFunc(func() {})
		if wait > 0 {
			actx, cancel = context.WithDeadline(ctx, later(deadline, time.Now().Add(minAttempt)))
		}
		st, _, err := open(actx, db)
		cancel()
		if err == nil {
			return st, kind, nil
		}
		if ctx.Err() != nil {
			return nil, kind, ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) && last != nil {
			err = last
		}
		last = err
		left := time.Until(deadline)
		if !errors.Is(err, store.ErrUnavailable) && !errors.Is(err, context.DeadlineExceeded) {
			return nil, kind, fmt.Errorf("open the %s store at %s: %w", kind, where, err)
		}
		if left <= 0 {
			return nil, kind, fmt.Errorf("the %s database at %s could not be opened within %s (--db-wait): %w", kind, where, wait, err)
		}
		pause := min(delay, left)
		log.Warn("waiting for the database", "store", kind, "db", where, "attempt", attempt,
			"retry_in", pause, "err", err)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return nil, kind, ctx.Err()
		}
		delay = min(2*delay, maxRetry)
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// redactDB is a --db value fit for logs: a PostgreSQL URL without its
// password (in the userinfo or a password parameter); a path as it is.
func redactDB(db string) string {
	if kind, _ := dbTarget(db); kind != "postgres" {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return "(an unreadable PostgreSQL URL)"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
