package ws

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"dsol/internal/game"
	"dsol/internal/lobby"
	"dsol/internal/metrics"
)

// LobbyDeps are the dependencies of a LobbyHandler.
type LobbyDeps struct {
	Hub *lobby.Hub
	// Player, Token and Check are as in Deps: the authenticated player of a
	// request, the token it signed in with and the check of a token.
	Player  func(r *http.Request) (playerID string, err error)
	Token   func(r *http.Request) []byte
	Check   func(ctx context.Context, token []byte) (valid time.Duration, err error)
	Logger  *slog.Logger
	Metrics *metrics.Metrics
	Clock   func() time.Time // for the rate limits
	// Config holds the same limits as the game sockets' (OriginPatterns,
	// MaxMessageBytes, MaxSocketsPerPlayer, SendQueue, WriteTimeout, the
	// heartbeat, MessageRate/MessageBurst and MaxStrikes); the player cap
	// counts lobby sockets on their own.
	Config Config
}

// LobbyHandler serves GET /api/v1/lobby/ws: a read-only socket that gets the
// open public races as {"type": "lobby", "races": […]} on connect and at
// every change, as the player sees them (lobby.Listing.For). The client may send {"type": "ping"} (answered with
// {"type": "pong"}) and nothing else.
type LobbyHandler struct {
	feedHandler
	hub *lobby.Hub
}

// NewLobbyHandler returns the lobby socket handler over a hub. Mount it on
// GET /api/v1/lobby/ws, outside any request timeout; Shutdown closes the hub
// too.
func NewLobbyHandler(d LobbyDeps) *LobbyHandler {
	h := &LobbyHandler{hub: d.Hub}
	h.feedHandler = feedHandler{front: newFront[*feedSession]("lobby sockets", auth{d.Player, d.Token, d.Check}, d.Logger, d.Metrics, d.Clock, d.Config),
		name: "lobby", done: d.Hub.Done(), open: h.subscribe}
	h.gauge = h.metrics.AddLobbyConnections
	return h
}

func (h *LobbyHandler) subscribe(_ *http.Request, player string) (feed, error) {
	sub, err := h.hub.Subscribe(player)
	if err != nil {
		return feed{}, game.Errorf(game.Unavailable, "the server is restarting; reconnect")
	}
	return feed{typ: "lobby", C: sub.C, close: sub.Close}, nil
}

// Hub returns the hub the handler follows, for the handlers that change the
// lobby to call Changed.
func (h *LobbyHandler) Hub() *lobby.Hub { return h.hub }

// Shutdown refuses new sockets, closes every open one with 1012, waits for
// them (or for ctx, after which it drops the rest) and closes the hub.
func (h *LobbyHandler) Shutdown(ctx context.Context) error {
	err := h.socks.shutdown(ctx)
	h.hub.Close()
	return err
}
