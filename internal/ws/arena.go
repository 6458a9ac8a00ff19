package ws

import (
	"context"
	"net/http"
	"sync"

	"github.com/go-chi/chi/v5"

	"dsol/internal/service"
)

// ArenaHandler serves GET /api/v1/arenas/{id}/ws: a read-only socket that
// follows an arena (arena.Message): {"type": "arena", "arena": view} at once
// and whenever the standings change (coalesced; the top rows plus the
// receiver's own), {"type": "paired", "race"} when the receiver is paired
// (and on connect while that race is in play), {"type": "scored"} when
// their race ended and {"type": "paused"} when their seat stayed idle. A
// joined player is paired only while they have the arena's socket open.
// When the arena stops on this node (it moved to another node, or it ended
// and nobody watched it) the socket closes (1000), when the server restarts
// with 1012: a client reconnects while the arena is not over. Pings as on the
// lobby socket.
type ArenaHandler struct {
	feedHandler
	games    *service.Service
	stop     chan struct{}
	stopOnce sync.Once
}

// NewArenaHandler returns the arena socket handler over the same
// dependencies as the game sockets' (Games runs the arenas). Mount it on
// GET /api/v1/arenas/{id}/ws, outside any request timeout.
func NewArenaHandler(d Deps) *ArenaHandler {
	h := &ArenaHandler{games: d.Games, stop: make(chan struct{})}
	h.feedHandler = feedHandler{front: newFront[*feedSession]("arena sockets", auth{d.Player, d.Token, d.Check}, d.Logger, d.Metrics, d.Clock, d.Config),
		name: "arena", done: h.stop, open: h.follow}
	return h
}

func (h *ArenaHandler) follow(r *http.Request, pid string) (feed, error) {
	id := chi.URLParam(r, "id")
	if id == "" {
		id = r.PathValue("id")
	}
	c, stop, err := h.games.FollowArena(r.Context(), id, pid)
	if err != nil {
		return feed{}, err
	}
	return feed{typ: "arena", C: c, close: stop}, nil
}

// Shutdown refuses new sockets, closes every open one with 1012 and waits
// for them (or for ctx, after which it drops the rest).
func (h *ArenaHandler) Shutdown(ctx context.Context) error {
	h.stopOnce.Do(func() { close(h.stop) })
	return h.socks.shutdown(ctx)
}
