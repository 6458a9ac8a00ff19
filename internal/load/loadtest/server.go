// Package loadtest starts a whole dsol server in a test's process for the
// tests of dsol load and its modes.
package loadtest

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/httpapi"
	"dsol/internal/live"
	"dsol/internal/metrics"
	"dsol/internal/players"
	"dsol/internal/service"
	"dsol/internal/store"
	"dsol/internal/testenv"
	"dsol/internal/ws"
)

// Server is a whole dsol server in the test's process, wired as dsol serve
// wires it (the REST API, the game and arena sockets, /metrics) on a fresh SQLite
// store, on a loopback port. The test's process is the server's: its pid
// is os.Getpid().
type Server struct {
	Base  string       // http://127.0.0.1:port
	Store store.Store  // still open after Stop, until the test ends
	Logs  fmt.Stringer // what the server has logged so far
	Stop  func()       // shuts it down as dsol serve does: sockets, HTTP, tables, commits
}

// MustServe starts a server with the rate limits of dsol serve's defaults,
// or, when rate is not 0, with rate writes a second per player and socket
// messages a second per connection (and bursts of as many), as dsol serve
// --write-rate R --write-burst R --ws-rate R --ws-burst R would. The test's
// end stops it.
func MustServe(tb testing.TB, rate int) *Server {
	tb.Helper()
	return MustServeOn(tb, apitest.SQLite(tb), rate)
}

// MustServeOn starts a server as MustServe does, on st: the Store of a
// server stopped before, to start one afresh on the same database.
func MustServeOn(tb testing.TB, st store.Store, rate int) *Server {
	tb.Helper()
	logs := &testenv.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	m := metrics.New()
	com := store.NewCommitter(st, time.Millisecond, 256, m.ObserveCommit)
	games := service.New(service.Config{Store: st, Committer: com, Logger: log, Clock: time.Now, Random: rand.Reader,
		Action: m.ObserveAction, Live: live.Config{Hooks: live.Hooks{Action: m.ObserveAction, Live: m.AddLiveTables, Races: m.AddLiveRaces}}})
	wc := ws.Config{MessageRate: float64(rate), MessageBurst: rate} // 0: the defaults
	deps := ws.Deps{Games: games, Player: httpapi.PlayerID, Logger: log, Metrics: m, Clock: time.Now, Config: wc}
	sockets := ws.NewHandler(deps)
	arenas := ws.NewArenaHandler(deps)
	h := httpapi.NewServer(httpapi.Deps{Sockets: httpapi.Sockets{Games: sockets, Arena: arenas}, Logger: log,
		Players: players.New(players.Config{Store: st, Clock: time.Now, Random: rand.Reader}),
		Games:   games, Metrics: m, Clock: time.Now,
		Config: httpapi.Config{WriteRate: float64(rate), WriteBurst: rate}})
	ts := httptest.NewServer(h)
	var once sync.Once
	s := &Server{Base: ts.URL, Store: st, Logs: logs, Stop: func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), apitest.Wait)
			defer cancel()
			sockets.Shutdown(ctx)
			arenas.Shutdown(ctx)
			ts.CloseClientConnections()
			ts.Close()
			games.Close(ctx)
			com.Close()
		})
	}}
	tb.Cleanup(s.Stop)
	return s
}
