// Package ws serves the WebSocket sessions of games (docs/protocol.md,
// The game socket): GET /api/v1/games/{id}/ws for solo games and races.
//
// A session subscribes to the game's table and relays its events in seq
// order, each with the view of the session's own viewer (a seat, or 0 for a
// race spectator); it sends the actions the client writes to the table and
// acknowledges them only once the table has committed them.
//
// Each connection has one read loop and a writer that runs while there is
// something to write (the table subscription's events, then a bounded queue
// of answers), woken by the table, the queue and the heartbeat's timer; an
// idle socket has one goroutine. Frames are bounded (8 KiB by default),
// rate-limited per connection, and a client that keeps
// breaking the rules, or that does not read fast enough, is disconnected with
// a close code that says why. docs/protocol.md is the reference of the
// messages, close codes and limits; its last section, "Inside the server:
// package ws", is this package's side of them.
package ws

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/go-chi/chi/v5"

	"dsol/internal/game"
	"dsol/internal/metrics"
	"dsol/internal/protocol"
	"dsol/internal/service"
)

// Config holds the limits of the sessions. Zero values take the defaults.
type Config struct {
	// OriginPatterns are the origins, besides the request's own host, whose
	// pages may open a socket: host patterns ("app.example.com",
	// "*.example.com") or "scheme://host" patterns, matched as by
	// websocket.AcceptOptions.OriginPatterns. Default: same origin only.
	OriginPatterns []string
	// MaxMessageBytes is the read limit of a frame (default 8192); a larger
	// frame closes the socket with 1009.
	MaxMessageBytes int64
	// MaxSocketsPerPlayer bounds one player's open sockets (default 8); the
	// next upgrade is refused with 429 rate_limited.
	MaxSocketsPerPlayer int
	// SendQueue is the number of answers (acks, rejects, pongs) waiting to be
	// written before the client is dropped as too slow (default 64). The
	// actions in flight, whose answers the table has not given yet, do not
	// count: the table's queue bounds them. Events wait in the table
	// subscription, bounded by live.Config.SubscriberBuffer.
	SendQueue int
	// WriteTimeout bounds every write (default 10s).
	WriteTimeout time.Duration
	// PingInterval is the heartbeat period (default 25s); PongTimeout how long
	// a ping waits for its pong before the socket is closed (default 10s).
	PingInterval time.Duration
	PongTimeout  time.Duration
	// MessageRate and MessageBurst are the token bucket of client frames per
	// connection (default 20/s, burst 40); a frame over it gets a
	// rate_limited reject.
	MessageRate  float64
	MessageBurst int
	// MaxStrikes is the bucket of refused frames (rate-limited or malformed)
	// a connection may send before it is closed with 1008 (default 20,
	// refilled by one a second).
	MaxStrikes int
	// ActionTimeout bounds one action, from the table to the commit (default
	// 10s).
	ActionTimeout time.Duration
	// MaxResume is the most missed events a reconnect replays; beyond it the
	// session sends the state instead (default 500).
	MaxResume int
	// HoldEvents is the longest a protocol 2 socket keeps what the table
	// sends (events, notices) back for the answer its client is due, so that
	// they share its frame and its write (default 10ms; negative: never).
	// Only while the client has an action in flight: a client that is not
	// acting gets everything at once.
	HoldEvents time.Duration
}

func (c *Config) defaults() {
	if c.MaxMessageBytes <= 0 {
		c.MaxMessageBytes = 8192
	}
	if c.MaxSocketsPerPlayer <= 0 {
		c.MaxSocketsPerPlayer = 8
	}
	if c.SendQueue <= 0 {
		c.SendQueue = 64
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 10 * time.Second
	}
	if c.PingInterval <= 0 {
		c.PingInterval = 25 * time.Second
	}
	if c.PongTimeout <= 0 {
		c.PongTimeout = 10 * time.Second
	}
	if c.MessageRate <= 0 {
		c.MessageRate = 20
	}
	if c.MessageBurst <= 0 {
		c.MessageBurst = 40
	}
	if c.MaxStrikes <= 0 {
		c.MaxStrikes = 20
	}
	if c.ActionTimeout <= 0 {
		c.ActionTimeout = 10 * time.Second
	}
	if c.MaxResume <= 0 {
		c.MaxResume = 500
	}
	if c.HoldEvents == 0 {
		c.HoldEvents = 10 * time.Millisecond
	}
}

// Deps are the dependencies of a Handler.
type Deps struct {
	// Games is the game service: the games the sockets follow and act on,
	// and the quick-match queue.
	Games *service.Service
	// Player returns the id of the authenticated player of a request, or an
	// error (401 unauthorized) when there is none. The route runs behind the
	// same authentication as every other call (Bearer token or cookie).
	Player func(r *http.Request) (playerID string, err error)
	// Token returns the credential the authentication took a request's
	// player from (the hash of its token), which each socket keeps: Revoke
	// closes the sockets of one token, and Check checks it again. Nil:
	// sockets know no token (only Revoke of a whole player reaches them).
	Token func(r *http.Request) []byte
	// Check reports whether a token, as Token returns it, still signs its
	// player in, and for how long that answer holds on this node (its
	// sign-in cache, players.Service.CheckToken). Each socket's token is
	// checked on connect and again whenever the answer runs out; an
	// unauthorized error closes the token's sockets with CloseSignedOut, so
	// that a token revoked on another node closes them within the cache's
	// lifetime. Nil: no checks.
	Check   func(ctx context.Context, token []byte) (valid time.Duration, err error)
	Logger  *slog.Logger
	Metrics *metrics.Metrics
	Clock   func() time.Time // for the rate limits
	Config  Config
}

// Handler serves the WebSocket route of games and tracks its sessions so that
// Shutdown can close them.
type Handler struct {
	front[*session]
	games *service.Service
}

// NewHandler returns the WebSocket handler. Mount it on GET
// /api/v1/games/{id}/ws (and /api/v1/races/{id}/ws), outside any request
// timeout.
func NewHandler(d Deps) *Handler {
	return &Handler{front: newFront[*session]("sockets", auth{d.Player, d.Token, d.Check}, d.Logger, d.Metrics, d.Clock, d.Config),
		games: d.Games}
}

// auth is how a handler signs a request in: its player, its token and the
// check of a token (see Deps).
type auth struct {
	player func(r *http.Request) (string, error)
	token  func(r *http.Request) []byte
	check  func(ctx context.Context, token []byte) (time.Duration, error)
}

// front is what the game and lobby socket handlers share: the player of a
// request and its token, the log, the metrics, the clock, the limits and
// the open sockets.
type front[S socket] struct {
	player  func(r *http.Request) (string, error)
	token   func(r *http.Request) []byte // nil: none
	log     *slog.Logger
	metrics *metrics.Metrics
	clock   func() time.Time
	cfg     Config
	socks   *sockets[S]
}

// newFront fills in the defaults; what names the sockets in the refusal of
// one too many.
func newFront[S socket](what string, a auth, log *slog.Logger,
	m *metrics.Metrics, clock func() time.Time, cfg Config) front[S] {
	f := front[S]{player: a.player, token: a.token, log: log, metrics: m, clock: clock, cfg: cfg}
	f.cfg.defaults()
	if f.log == nil {
		f.log = slog.New(slog.DiscardHandler)
	}
	f.socks = newSockets[S](what, f.cfg.MaxSocketsPerPlayer, f.cfg.WriteTimeout, a.check, f.log)
	if f.metrics == nil {
		f.metrics = metrics.New()
	}
	if f.clock == nil {
		f.clock = time.Now
	}
	if f.player == nil {
		f.player = func(*http.Request) (string, error) {
			return "", game.Errorf(game.Unauthorized, "sign in first")
		}
	}
	return f
}

// accept upgrades the request, with the read limit of a frame.
func (f *front[S]) accept(w http.ResponseWriter, r *http.Request) (*websocket.Conn, error) {
	c, err := websocket.Accept(smallBuffers{w}, r, &websocket.AcceptOptions{
		OriginPatterns:  f.cfg.OriginPatterns,
		CompressionMode: websocket.CompressionDisabled,
	})
	if err == nil {
		c.SetReadLimit(f.cfg.MaxMessageBytes)
	}
	return c, err
}

// Open returns the number of open sessions.
func (h *Handler) Open() int { return h.socks.count() }

// tokenOf returns the token a request was authenticated with, or nil.
func (f *front[S]) tokenOf(r *http.Request) []byte {
	if f.token == nil {
		return nil
	}
	return f.token(r)
}

// Revoke closes at once, with CloseSignedOut, the player's sockets on this
// node that were opened with token, or all of them for a nil token: call it
// once the token (or every token of the player) is revoked. Nothing more is
// read from them or written to them but the close.
func (f *front[S]) Revoke(player string, token []byte) { f.socks.revoke(player, token) }

// Shutdown refuses new sockets, closes every open one with 1012 (service
// restart: clients reconnect, to another node if need be) and waits for the
// sessions to end, or for ctx, after which it drops the rest.
func (h *Handler) Shutdown(ctx context.Context) error { return h.socks.shutdown(ctx) }

// ServeHTTP is GET /api/v1/games/{id}/ws[?since=N][&v=2]. Everything that can be
// refused is refused before the upgrade, with the JSON error of the REST
// API: 401 no player, 404 no game, 403 a solo game of someone else or a
// foreign Origin, 400 a bad since, 429 too many sockets, 503 shutting down.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	pid, err := h.player(r)
	if err != nil {
		h.error(w, r, err)
		return
	}
	if err := checkOrigin(r, h.cfg.OriginPatterns); err != nil {
		h.error(w, r, game.Errorf(game.Forbidden, "%v", err))
		return
	}
	since := int64(-1)
	if q := r.URL.Query().Get("since"); q != "" {
		n, err := strconv.ParseInt(q, 10, 64)
		if err != nil || n < 0 {
			h.error(w, r, game.Errorf(game.BadRequest, "since must be a seq (0 or more)"))
			return
		}
		since = n
	}
	version := 1
	switch r.URL.Query().Get("v") {
	case "", "1":
	case "2":
		version = 2
	default:
		h.error(w, r, game.Errorf(game.BadRequest, "v must be 1 (whole views) or 2 (deltas)"))
		return
	}
	id := chi.URLParam(r, "id")
	if id == "" {
		id = r.PathValue("id")
	}
	sub, seat, kind, err := h.subscribe(r.Context(), id, pid, since)
	if err != nil {
		h.error(w, r, err)
		return
	}
	if err := h.socks.admit(pid); err != nil {
		sub.Close()
		h.error(w, r, err)
		return
	}
	c, err := h.accept(w, r)
	if err != nil { // Accept has answered
		h.socks.release(pid)
		sub.Close()
		return
	}
	// From here on r.Context() is not used: the connection is hijacked.
	s := newSession(h, c, id, kind, seat, version)
	if !h.socks.track(s, pid, h.tokenOf(r)) {
		h.socks.release(pid)
		sub.Close()
		c.Close(websocket.StatusCode(protocol.CloseRestart), "server restart")
		return
	}
	h.metrics.AddWSConnections(1)
	// The session runs on goroutines of its own and the handler returns: the
	// HTTP server is done with a hijacked connection, and the handler's
	// goroutine, whose stack grew through the middleware and the upgrade,
	// does not stay behind for the life of the socket.
	go func() {
		defer func() {
			h.socks.untrack(s)
			h.socks.release(pid)
			h.metrics.AddWSConnections(-1)
		}()
		s.run(sub)
	}()
}

// subscribe finds the game and the caller's seat and subscribes to it.
func (h *Handler) subscribe(ctx context.Context, id, pid string, since int64) (protocol.Feed, int, string, error) {
	sub, err := h.games.Follow(ctx, id, pid, since)
	if err != nil {
		return nil, 0, "", err
	}
	return sub, sub.Viewer(), sub.Kind(), nil
}

// checkOrigin applies the origin rule of websocket.Accept before the upgrade,
// so that a refusal is the API's JSON 403: no Origin (not a browser) or the
// request's own host passes, else a pattern must match.
func checkOrigin(r *http.Request, patterns []string) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return errors.New("the Origin header is not a URL with a host")
	}
	if strings.EqualFold(r.Host, u.Host) {
		return nil
	}
	for _, p := range patterns {
		target := u.Host
		if strings.Contains(p, "://") {
			target = u.Scheme + "://" + u.Host
		}
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(target)); ok {
			return nil
		}
	}
	return errors.New("this origin may not open a socket here")
}

// error answers a refused upgrade with the API's JSON error.
func (h *front[S]) error(w http.ResponseWriter, r *http.Request, err error) {
	e := protocol.AsError(err)
	switch e.Code {
	case game.Internal:
		h.log.Error("ws: internal error", "path", r.URL.Path, "err", err)
	case game.Unavailable:
		h.log.Warn("ws: unavailable", "path", r.URL.Path, "err", err)
		w.Header().Set("Retry-After", "1")
	case game.RateLimited:
		w.Header().Set("Retry-After", "1")
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": string(e.Code), "message": e.Msg}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(protocol.RefusalStatus(e.Code))
	w.Write(append(b, '\n'))
}
