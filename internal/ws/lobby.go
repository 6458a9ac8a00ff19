package ws

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/lobby"
	"dsol/internal/metrics"
	"dsol/internal/table"
)

// LobbyDeps are the dependencies of a LobbyHandler.
type LobbyDeps struct {
	Hub *lobby.Hub
	// Player is as in Deps: the authenticated player of a request.
	Player  func(r *http.Request) (playerID string, err error)
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
// every change. The client may send {"type": "ping"} (answered with
// {"type": "pong"}) and nothing else.
type LobbyHandler struct {
	front[*lobbySession]
	hub *lobby.Hub
}

// NewLobbyHandler returns the lobby socket handler over a hub. Mount it on
// GET /api/v1/lobby/ws, outside any request timeout; Shutdown closes the hub
// too.
func NewLobbyHandler(d LobbyDeps) *LobbyHandler {
	return &LobbyHandler{front: newFront[*lobbySession]("lobby sockets", d.Player, d.Logger, d.Metrics, d.Clock, d.Config),
		hub: d.Hub}
}

// Hub returns the hub the handler follows, for the handlers that change the
// lobby to call Changed.
func (h *LobbyHandler) Hub() *lobby.Hub { return h.hub }

// Open returns the number of open lobby sockets.
func (h *LobbyHandler) Open() int { return h.socks.count() }

// Shutdown refuses new sockets, closes every open one with 1012, waits for
// them (or for ctx, after which it drops the rest) and closes the hub.
func (h *LobbyHandler) Shutdown(ctx context.Context) error {
	err := h.socks.shutdown(ctx)
	h.hub.Close()
	return err
}

// ServeHTTP is GET /api/v1/lobby/ws. Refusals come before the upgrade, with
// the JSON error of the REST API: 401 no player, 403 a foreign Origin, 429
// too many lobby sockets of this player, 503 shutting down.
func (h *LobbyHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	pid, err := h.player(r)
	if err != nil {
		h.error(w, r, err)
		return
	}
	if err := checkOrigin(r, h.cfg.OriginPatterns); err != nil {
		h.error(w, r, table.Errorf(table.Forbidden, "%v", err))
		return
	}
	if err := h.socks.admit(pid); err != nil {
		h.error(w, r, err)
		return
	}
	defer h.socks.release(pid)
	sub, err := h.hub.Subscribe()
	if err != nil {
		h.error(w, r, table.Errorf(table.Unavailable, "the server is restarting; reconnect"))
		return
	}
	defer sub.Close()
	c, err := h.accept(w, r)
	if err != nil { // Accept has answered
		return
	}
	// From here on r.Context() is not used: the connection is hijacked.
	s := newLobbySession(h, c)
	if !h.socks.track(s) {
		c.Close(websocket.StatusCode(CloseRestart), "server restart")
		return
	}
	h.metrics.AddLobbyConnections(1)
	defer func() {
		h.socks.untrack(s)
		h.metrics.AddLobbyConnections(-1)
	}()
	s.run(sub)
}

// lobbySession is one open lobby socket: the read loop (the handler's
// goroutine) answers pings, the writer sends the hub's lists and the
// answers, the heartbeat pings.
type lobbySession struct {
	*connection
	h *LobbyHandler
}

func newLobbySession(h *LobbyHandler, c *websocket.Conn) *lobbySession {
	s := &lobbySession{connection: newConnection(c, &h.cfg, h.metrics, h.clock), h: h}
	s.dropEnded = true
	return s
}

func (s *lobbySession) run(sub *lobby.Sub) {
	s.connection.run(func() { s.writer(sub) }, s.readLoop)
}

// readLoop answers pings; anything else is a refused frame, and a client
// that keeps sending them is closed with 1008. A text frame that is not
// UTF-8 closes the socket with 1007.
func (s *lobbySession) readLoop() {
	for {
		typ, data, err := s.ws.Read(context.Background()) // closing the socket ends it: no context timer per read
		if err != nil {
			return
		}
		if s.ending {
			continue
		}
		var m struct {
			Type string `json:"type"`
		}
		ferr := checkFrame(typ, data)
		switch {
		case ferr == errNotUTF8:
			s.h.metrics.ObserveWSIn("invalid")
			s.ending = true
			s.send(outMsg{typ: "close", closeCode: CloseInvalidData, body: []byte(ferr.Msg)})
		case !s.allow():
			s.refuse(table.Errorf(table.RateLimited, "too many messages; slow down"))
		case ferr != nil || json.Unmarshal(data, &m) != nil || m.Type != "ping":
			s.refuse(table.Errorf(table.BadRequest, "the lobby socket only takes {\"type\": \"ping\"}"))
		default:
			s.h.metrics.ObserveWSIn("ping")
			s.send(outMsg{typ: "pong", body: []byte(`{"type":"pong"}`)})
		}
	}
}

// refuse rejects a frame, or closes the socket when such frames keep coming.
func (s *lobbySession) refuse(err *table.Error) {
	s.h.metrics.ObserveWSIn("invalid")
	if !s.strike() {
		s.ending = true
		s.send(outMsg{typ: "close", closeCode: ClosePolicy, body: []byte("too many bad messages")})
		return
	}
	b, _ := json.Marshal(rejectMsg{Type: "reject", ID: "", Error: errorJSON{Code: string(err.Code), Message: err.Msg}})
	s.send(outMsg{typ: "reject", code: string(err.Code), body: b})
}

// send queues an answer; a full queue means a client that does not read.
func (s *lobbySession) send(m outMsg) {
	if !s.out.put(m) {
		s.ending = true
		s.slow()
	}
}

// writer writes the hub's lists (only the latest one waits) and the
// answers, each within the write timeout, until the session ends; the hub's
// closing closes the socket with 1012.
func (s *lobbySession) writer(sub *lobby.Sub) {
	beat := s.heartbeat()
	defer beat.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-beat.C:
			s.beat()
		case <-s.h.hub.Done():
			s.closeAsync(CloseRestart, "server restart")
			return
		case b := <-sub.C:
			if !s.write(outMsg{typ: "lobby", body: b}) {
				return
			}
		case <-s.out.ready:
			for _, m := range s.out.take() {
				if m.typ == "close" {
					s.closeAsync(m.closeCode, string(m.body))
					return
				}
				if !s.write(m) {
					return
				}
			}
		}
	}
}
