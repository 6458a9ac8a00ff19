package httpapi

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"

	"dsol/internal/game"
)

// pingEvery is how long the outcome of a store ping is reused: a flood of
// probes reaches the database at most once per interval.
const pingEvery = time.Second

// pingTimeout bounds one ping.
const pingTimeout = 2 * time.Second

// writeFailureHolds is how long a failed write of the action log keeps the
// node unready when no later write has told otherwise. Writes come only from
// players, and an unready node gets none: without this limit a node would
// stay unready for good after the database came back. Under traffic every
// failed write renews it, and the first successful one ends it.
const writeFailureHolds = 5 * time.Second

// pinger is what readiness pings: the store, through the game service
// (live.Registry.Ping).
type pinger interface {
	Ping(ctx context.Context) error
}

// writeLog tells when the last write of the action log failed
// (live.Registry.LastWriteError).
type writeLog interface {
	LastWriteError() (time.Time, error)
}

// readiness is what /readyz knows: the group-commit writer's last outcome
// and the store's ping, shared by concurrent probes and reused for
// pingEvery.
type readiness struct {
	store     pinger
	committer writeLog // nil: only the ping counts
	clock     func() time.Time

	turn chan struct{} // holds the right to ping (a lock a waiter can leave)
	at   time.Time     // when the last ping started
	err  error         // and its outcome

	mu       sync.Mutex
	failedAt time.Time // the committer's time of the last write failure seen
	seenAt   time.Time // and when, on rd.clock, it was first seen
}

func newReadiness(st pinger, c writeLog, clock func() time.Time) *readiness {
	return &readiness{store: st, committer: c, clock: clock, turn: make(chan struct{}, 1)}
}

// check returns nil when the store answers and the action log can be
// written, else an unavailable error saying why.
func (rd *readiness) check(ctx context.Context) error {
	if rd.committer != nil {
		if at, err := rd.committer.LastWriteError(); err != nil && rd.failureHolds(at) {
			// The store's own text stays in the logs: it may name the
			// database, its host and its user.
			return &game.Error{Code: game.Unavailable, Msg: "the store cannot write: the last write of the action log failed", Err: err}
		}
	}
	if err := rd.ping(ctx); err != nil {
		return &game.Error{Code: game.Unavailable, Msg: "the store is not reachable", Err: err}
	}
	return nil
}

// failureHolds reports whether a write failure at at (the committer's
// time) was first seen less than writeFailureHolds ago on the probe's clock.
func (rd *readiness) failureHolds(at time.Time) bool {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	now := rd.clock()
	if !at.Equal(rd.failedAt) {
		rd.failedAt, rd.seenAt = at, now
	}
	return now.Sub(rd.seenAt) < writeFailureHolds
}

// ping returns the outcome of the last ping when it started less than
// pingEvery ago, else pings. One ping runs at a time and the probes that
// wait for it take its outcome; it runs under its own deadline, so a probe
// that gives up does not make it fail for the others.
func (rd *readiness) ping(ctx context.Context) error {
	select {
	case rd.turn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-rd.turn }()
	if now := rd.clock(); rd.at.IsZero() || now.Sub(rd.at) >= pingEvery {
		rd.at = now
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pingTimeout)
		rd.err = rd.store.Ping(pctx)
		cancel()
	}
	return rd.err
}

// node is GET /node, for operators (no auth; not routed through the
// shipped proxy, like /metrics): this node's name in the game leases, the
// address it advertises, and the ids of the games whose tables it runs.
func (s *server) node(w http.ResponseWriter, r *http.Request) {
	name, addr := s.games.Node()
	games := s.games.Games()
	slices.Sort(games)
	writeJSON(w, http.StatusOK, struct {
		Node  string   `json:"node"`
		Addr  string   `json:"addr"`
		Games []string `json:"games"`
	}{name, addr, games})
}

// readyz answers 200 while the store is reachable and the last write of the
// action log did not fail, else 503 with the reason.
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	if err := s.ready.check(r.Context()); err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
