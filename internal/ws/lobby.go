package ws

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

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
	hub     *lobby.Hub
	player  func(r *http.Request) (string, error)
	log     *slog.Logger
	metrics *metrics.Metrics
	clock   func() time.Time
	cfg     Config
	socks   *sockets[*lobbySession]
}

// NewLobbyHandler returns the lobby socket handler over a hub. Mount it on
// GET /api/v1/lobby/ws, outside any request timeout; Shutdown closes the hub
// too.
func NewLobbyHandler(d LobbyDeps) *LobbyHandler {
	h := &LobbyHandler{hub: d.Hub, player: d.Player, log: d.Logger, metrics: d.Metrics, clock: d.Clock,
		cfg: d.Config}
	h.cfg.defaults()
	h.socks = newSockets[*lobbySession]("lobby sockets", h.cfg.MaxSocketsPerPlayer)
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.metrics == nil {
		h.metrics = metrics.New()
	}
	if h.clock == nil {
		h.clock = time.Now
	}
	if h.player == nil {
		h.player = func(*http.Request) (string, error) {
			return "", table.Errorf(table.Unauthorized, "sign in first")
		}
	}
	return h
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
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		OriginPatterns:  h.cfg.OriginPatterns,
		CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil { // Accept has answered
		return
	}
	// From here on r.Context() is not used: the connection is hijacked.
	c.SetReadLimit(h.cfg.MaxMessageBytes)
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

// error answers a refused upgrade with the API's JSON error.
func (h *LobbyHandler) error(w http.ResponseWriter, r *http.Request, err error) {
	(&Handler{log: h.log}).error(w, r, err)
}

// lobbySession is one open lobby socket: the read loop (the handler's
// goroutine) answers pings, the writer sends the hub's lists and the
// answers, the heartbeat pings.
type lobbySession struct {
	h    *LobbyHandler
	conn *websocket.Conn

	ctx    context.Context // the session's life; never the request's
	cancel context.CancelFunc
	out    chan outMsg // pongs, rejects and a queued close

	limit   *rate.Limiter
	strikes *rate.Limiter

	ending    bool
	closeOnce sync.Once
	bg        sync.WaitGroup
}

func newLobbySession(h *LobbyHandler, c *websocket.Conn) *lobbySession {
	ctx, cancel := context.WithCancel(context.Background())
	return &lobbySession{h: h, conn: c, ctx: ctx, cancel: cancel,
		out:     make(chan outMsg, h.cfg.SendQueue),
		limit:   rate.NewLimiter(rate.Limit(h.cfg.MessageRate), h.cfg.MessageBurst),
		strikes: rate.NewLimiter(1, h.cfg.MaxStrikes)}
}

// close ends the socket with a close code (once).
func (s *lobbySession) close(code int, reason string) {
	s.closeOnce.Do(func() { s.conn.Close(websocket.StatusCode(code), reason) })
}

func (s *lobbySession) closeNow() { s.conn.CloseNow() }

// closeAsync closes without waiting for the handshake; run waits for it.
func (s *lobbySession) closeAsync(code int, reason string) {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.close(code, reason)
	}()
}

func (s *lobbySession) run(sub *lobby.Sub) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.writer(sub) }()
	go func() { defer wg.Done(); s.heartbeat() }()
	s.readLoop()
	s.cancel()
	wg.Wait()
	s.bg.Wait()
	s.conn.CloseNow()
}

// readLoop answers pings; anything else is a refused frame, and a client
// that keeps sending them is closed with 1008.
func (s *lobbySession) readLoop() {
	for {
		typ, data, err := s.conn.Read(s.ctx)
		if err != nil {
			return
		}
		if s.ending {
			continue
		}
		var m struct {
			Type string `json:"type"`
		}
		switch {
		case !s.limit.AllowN(s.h.clock(), 1):
			s.refuse(table.Errorf(table.RateLimited, "too many messages; slow down"))
		case typ != websocket.MessageText || json.Unmarshal(data, &m) != nil || m.Type != "ping":
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
	if !s.strikes.AllowN(s.h.clock(), 1) {
		s.ending = true
		s.send(outMsg{typ: "close", closeCode: ClosePolicy, body: []byte("too many bad messages")})
		return
	}
	b, _ := json.Marshal(rejectMsg{Type: "reject", ID: "", Error: errorJSON{Code: string(err.Code), Message: err.Msg}})
	s.send(outMsg{typ: "reject", code: string(err.Code), body: b})
}

// send queues an answer; a full queue means a client that does not read.
func (s *lobbySession) send(m outMsg) {
	select {
	case s.out <- m:
	default:
		s.ending = true
		s.h.metrics.ObserveWSSlowDrop()
		s.closeAsync(table.Unavailable.CloseCode(), "too slow")
	}
}

// writer writes the hub's lists (only the latest one waits) and the
// answers, each within the write timeout, until the session ends; the hub's
// closing closes the socket with 1012.
func (s *lobbySession) writer(sub *lobby.Sub) {
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.h.hub.Done():
			s.closeAsync(CloseRestart, "server restart")
			return
		case b := <-sub.C:
			if !s.write(outMsg{typ: "lobby", body: b}) {
				return
			}
		case m := <-s.out:
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

// heartbeat pings the client; a ping without a pong drops the connection.
func (s *lobbySession) heartbeat() {
	tick := time.NewTicker(s.h.cfg.PingInterval)
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(s.ctx, s.h.cfg.PongTimeout)
			err := s.conn.Ping(ctx)
			cancel()
			if err != nil {
				s.conn.CloseNow()
				return
			}
		}
	}
}

// write writes one frame within the write timeout; a write that times out
// means a client that does not read, and the library drops the connection.
func (s *lobbySession) write(m outMsg) bool {
	ctx, cancel := context.WithTimeout(s.ctx, s.h.cfg.WriteTimeout)
	err := s.conn.Write(ctx, websocket.MessageText, m.body)
	timedOut := ctx.Err() == context.DeadlineExceeded
	cancel()
	if err != nil {
		if timedOut && s.ctx.Err() == nil {
			s.h.metrics.ObserveWSSlowDrop()
		}
		return false
	}
	s.h.metrics.ObserveWSOut(m.typ)
	if m.typ == "reject" {
		s.h.metrics.ObserveWSReject(m.code)
	}
	return true
}
