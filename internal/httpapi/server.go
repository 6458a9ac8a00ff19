// Package httpapi is the REST interface of dsol (docs/protocol.md and the served OpenAPI document): players and
// auth, solo games and their actions, game codes, the operator endpoints and
// the OpenAPI document. Every route is in routes.go; every dependency is
// passed to NewServer. The handlers are thin: they decode the request, call
// the game service (live.Registry) or the players service (package
// players), and encode the answer, with this package's table from error
// code to HTTP status (errors.go).
package httpapi

import (
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"dsol/internal/game"
	"dsol/internal/lobby"
	"dsol/internal/metrics"
	"dsol/internal/players"
	"dsol/internal/service"
	"dsol/internal/static"
)

// Config holds the settings of the HTTP layer.
type Config struct {
	// TrustedProxies are the addresses whose X-Forwarded-For and
	// X-Forwarded-Proto headers are believed.
	TrustedProxies []netip.Prefix
	// AllowedOrigins are origins (scheme://host[:port]) besides the server's
	// own that may send cookie-authenticated unsafe requests.
	AllowedOrigins []string
	// RequestTimeout bounds REST requests (never WebSocket ones); default 10s.
	RequestTimeout time.Duration
	// MaxBodyBytes bounds request bodies; default 16 KiB.
	MaxBodyBytes int64
	// WriteRate and WriteBurst are the token bucket of unsafe requests per
	// player (or per client IP before there is a player); default 20/s, 40.
	WriteRate  float64
	WriteBurst int
	// AccountsPerHour bounds the players created (POST /api/v1/players)
	// from one client address, or one IPv6 /64, in an hour: a token bucket
	// of that many that fills up again in an hour. Default
	// DefaultAccountsPerHour; negative: no bound.
	AccountsPerHour int
	// HintRate and HintBurst are the token bucket of hint requests per
	// player; default 1/s, 5.
	HintRate  float64
	HintBurst int
	// Static is the web client served at "/" (package static: compressed,
	// cached under content-hashed paths), or nil for none.
	Static fs.FS
	// MatchBotAfter is how long a player waits in the quick-match queue
	// before the client offers a race against the computer; default 30s.
	MatchBotAfter time.Duration
}

// Deps are the dependencies of the server.
type Deps struct {
	Logger *slog.Logger
	// Players is the players service: accounts, tokens, names, transfer
	// codes, blocks, statistics.
	Players *players.Service
	// Games is the game service: everything done with games, and the
	// store's health for /readyz (its ping and the last write of the
	// action log).
	Games *service.Service
	// Lobby is the lobby's hub: the list of open races, told of the races
	// created, joined and cancelled.
	Lobby   *lobby.Hub
	Metrics *metrics.Metrics
	// Sockets are the WebSocket routes (nil ones answer not_found). Signing
	// out and deleting the player close the sockets of the tokens revoked
	// on this node at once (Socket.Revoke); give the socket handlers
	// TokenHash and Players.CheckToken so that the other nodes' close
	// within the sign-in cache's lifetime.
	Sockets Sockets
	Clock   func() time.Time
	Config  Config
}

// Sockets are the WebSocket routes: a game's (solo or race), the lobby's
// and the quick-match queue's.
type Sockets struct {
	Games, Lobby, Match, Arena Socket
}

// Socket is a WebSocket route whose sockets close when their token is
// revoked.
type Socket interface {
	http.Handler
	// Revoke closes the player's sockets on this node opened with token,
	// or all of them for a nil token.
	Revoke(player string, token []byte)
}

// server holds the dependencies shared by the handlers.
type server struct {
	log     *slog.Logger
	players *players.Service
	games   *service.Service
	hub     *lobby.Hub
	sockets Sockets
	metrics *metrics.Metrics
	clock   func() time.Time
	cfg     Config
	limits  *limiter
	hints   *limiter // hint requests per player
	// linkGuesses and linkAll bound the guesses of transfer codes, per
	// client address and from all of them (link.go).
	linkGuesses *limiter
	linkAll     *limiter
	// accounts bounds the players created per client address or IPv6 /64
	// (nil: no bound).
	accounts *limiter
	ready    *readiness
	csrf     *http.CrossOriginProtection
	static   http.Handler // the web client, or nil
}

// NewServer returns the HTTP handler of the whole API.
func NewServer(d Deps) http.Handler {
	return newServer(d).routes()
}

func newServer(d Deps) *server {
	cfg := d.Config
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = 10 * time.Second
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 16 << 10
	}
	if cfg.WriteRate <= 0 {
		cfg.WriteRate = 20
	}
	if cfg.WriteBurst <= 0 {
		cfg.WriteBurst = 40
	}
	if cfg.AccountsPerHour == 0 {
		cfg.AccountsPerHour = DefaultAccountsPerHour
	}
	if cfg.MatchBotAfter <= 0 {
		cfg.MatchBotAfter = 30 * time.Second
	}
	if cfg.HintRate <= 0 {
		cfg.HintRate = 1
	}
	if cfg.HintBurst <= 0 {
		cfg.HintBurst = 5
	}
	s := &server{
		log:         d.Logger,
		players:     d.Players,
		games:       d.Games,
		hub:         d.Lobby,
		sockets:     d.Sockets,
		metrics:     d.Metrics,
		clock:       d.Clock,
		cfg:         cfg,
		limits:      newLimiter(cfg.WriteRate, cfg.WriteBurst),
		hints:       newLimiter(cfg.HintRate, cfg.HintBurst),
		linkGuesses: newLimiter(linkPerAddr/60.0, linkPerAddr),
		linkAll:     newLimiter(linkPerNode/60.0, linkPerNode),
		csrf:        http.NewCrossOriginProtection(),
	}
	if d.Games != nil {
		s.ready = newReadiness(d.Games, d.Games, d.Clock)
	} else {
		s.ready = newReadiness(nil, nil, d.Clock)
	}
	if cfg.AccountsPerHour > 0 {
		s.accounts = newLimiter(float64(cfg.AccountsPerHour)/3600, cfg.AccountsPerHour)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if cfg.Static != nil {
		site, err := static.New(cfg.Static)
		if err != nil {
			// A tree that cannot be read whole is still served as it is.
			s.log.Warn("httpapi: serving the web client uncompressed and uncached", "err", err)
			s.static = http.FileServerFS(cfg.Static)
		} else {
			s.static = site
		}
	}
	if s.metrics == nil {
		s.metrics = metrics.New()
	}
	if s.hub == nil {
		s.hub = lobby.NewHub(lobby.Config{Logger: s.log})
	}
	for _, o := range cfg.AllowedOrigins {
		if err := s.csrf.AddTrustedOrigin(o); err != nil {
			s.log.Warn("httpapi: ignoring allowed origin", "origin", o, "err", err)
		}
	}
	s.csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.error(w, r, game.Errorf(game.Forbidden, "cross-origin request refused"))
	}))
	return s
}
