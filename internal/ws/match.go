package ws

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"dsol/internal/service"
)

// MatchHandler serves GET /api/v1/match/ws: a read-only socket that follows
// the player's place in the quick-match queue (matchmaking.Message):
// {"type": "waiting", "since"} on connect, then {"type": "matched",
// "race"} when an opponent is found, and the socket closes (1000). A player
// not in the queue gets {"type": "idle"} and the close (queue again with
// POST /api/v1/match). While the socket is open the player keeps their
// place; once it closes they leave the queue after matchmaking.Unwatched
// unless it reconnects. Pings as on the lobby socket.
type MatchHandler struct {
	feedHandler
	games    *service.Service
	stop     chan struct{}
	stopOnce sync.Once
}

// NewMatchHandler returns the match socket handler over the same
// dependencies as the game sockets' (Games runs the queue). Mount it on GET
// /api/v1/match/ws, outside any request timeout.
func NewMatchHandler(d Deps) *MatchHandler {
	h := &MatchHandler{games: d.Games, stop: make(chan struct{})}
	h.feedHandler = feedHandler{front: newFront[*feedSession]("match sockets", auth{d.Player, d.Token, d.Check}, d.Logger, d.Metrics, d.Clock, d.Config),
		name: "match", done: h.stop, open: h.watch}
	return h
}

func (h *MatchHandler) watch(_ *http.Request, pid string) (feed, error) {
	c, stop, err := h.games.MatchWatch(pid)
	if errors.Is(err, service.ErrNotQueued) {
		idle := make(chan []byte, 1)
		idle <- []byte(`{"type":"idle"}`)
		close(idle)
		return feed{typ: "match", C: idle, close: func() {}}, nil
	}
	if err != nil {
		return feed{}, err
	}
	return feed{typ: "match", C: c, close: stop}, nil
}

// Shutdown refuses new sockets, closes every open one with 1012 and waits
// for them (or for ctx, after which it drops the rest).
func (h *MatchHandler) Shutdown(ctx context.Context) error {
	h.stopOnce.Do(func() { close(h.stop) })
	return h.socks.shutdown(ctx)
}
