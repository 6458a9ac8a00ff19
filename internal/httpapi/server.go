// Package httpapi is the REST interface of dsol (docs/protocol.md and the served OpenAPI document): players and
// auth, solo games and their actions, game codes, the operator endpoints and
// the OpenAPI document. Every route is in routes.go; every dependency is
// passed to NewServer. The handlers are thin: they decode the request, call
// the game service (table.Registry) or the players service (package
// players), and encode the answer, with this package's table from error
// code to HTTP status (errors.go).
package httpapi

import (
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"time"

	"dsol/internal/game"
	"dsol/internal/hint"
	"dsol/internal/lobby"
	"dsol/internal/metrics"
	"dsol/internal/players"
	"dsol/internal/static"
	"dsol/internal/table"
	"dsol/internal/ws"
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
	// HintWorkers bounds the hints worked out at once on the node (each
	// takes a CPU for up to a few hundred milliseconds); default the number
	// of CPUs. A hint asked while all are busy is answered rate_limited.
	// The live checks and the strong race bot's searches take the same
	// slots (a strong bot that finds none plays its plain move).
	HintWorkers int
	// Hint is the work of one hint; default hint.Default.
	Hint hint.Options
	// CheckBudget is the positions of one live check (POST
	// /api/v1/games/{id}/check), which runs in a hint slot too; default
	// table.DefaultCheckBudget.
	CheckBudget int64
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
	// Tables is the game service: everything done with games, and the
	// store's health for /readyz (its ping and the last write of the
	// action log).
	Tables  *table.Registry
	Metrics *metrics.Metrics
	// Sockets serves GET /api/v1/games/{id}/ws; nil builds one with the
	// default limits (which nothing shuts down). Give the socket handlers
	// TokenHash and Players.CheckToken as their Token and Check: signing
	// out and deleting the player close the sockets of the tokens revoked
	// (Revoke), on this node at once and on the others within the sign-in
	// cache's lifetime.
	Sockets *ws.Handler
	// Lobby serves GET /api/v1/lobby/ws and its hub hears of the races
	// created, joined and cancelled; nil builds one with the default limits
	// over Tables' store (which runs only while sockets are open).
	Lobby *ws.LobbyHandler
	// Match serves GET /api/v1/match/ws; nil builds one with the default
	// limits over Tables.
	Match  *ws.MatchHandler
	Clock  func() time.Time
	Config Config
}

// server holds the dependencies shared by the handlers.
type server struct {
	log       *slog.Logger
	players   *players.Service
	tables    *table.Registry
	sockets   *ws.Handler
	lobbyWS   *ws.LobbyHandler
	matchWS   *ws.MatchHandler
	metrics   *metrics.Metrics
	clock     func() time.Time
	cfg       Config
	limits    *limiter
	hints     *limiter      // hint requests per player
	hintSlots chan struct{} // one token per hint being worked out
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
	if cfg.HintWorkers <= 0 {
		cfg.HintWorkers = runtime.NumCPU()
	}
	if cfg.CheckBudget <= 0 {
		cfg.CheckBudget = table.DefaultCheckBudget
	}
	if cfg.Hint.Samples <= 0 || cfg.Hint.Positions <= 0 {
		cfg.Hint = hint.Default
	}
	s := &server{
		log:         d.Logger,
		players:     d.Players,
		tables:      d.Tables,
		sockets:     d.Sockets,
		lobbyWS:     d.Lobby,
		matchWS:     d.Match,
		metrics:     d.Metrics,
		clock:       d.Clock,
		cfg:         cfg,
		limits:      newLimiter(cfg.WriteRate, cfg.WriteBurst),
		hints:       newLimiter(cfg.HintRate, cfg.HintBurst),
		hintSlots:   make(chan struct{}, cfg.HintWorkers),
		linkGuesses: newLimiter(linkPerAddr/60.0, linkPerAddr),
		linkAll:     newLimiter(linkPerNode/60.0, linkPerNode),
		ready:       newReadiness(d.Tables, d.Tables, d.Clock),
		csrf:        http.NewCrossOriginProtection(),
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
	socketDeps := ws.Deps{Tables: s.tables, Player: PlayerID, Token: TokenHash, Check: s.checkToken(),
		Logger: s.log, Metrics: s.metrics, Clock: s.clock, Config: ws.Config{OriginPatterns: s.cfg.AllowedOrigins}}
	if s.sockets == nil {
		s.sockets = ws.NewHandler(socketDeps)
	}
	if s.lobbyWS == nil {
		hub := lobby.NewHub(lobby.Config{Logger: s.log})
		if s.tables != nil {
			hub = s.tables.NewLobby(lobby.Config{Logger: s.log})
		}
		s.lobbyWS = ws.NewLobbyHandler(ws.LobbyDeps{Hub: hub,
			Player: PlayerID, Token: TokenHash, Check: socketDeps.Check, Logger: s.log, Metrics: s.metrics,
			Clock: s.clock, Config: socketDeps.Config})
	}
	if s.matchWS == nil {
		s.matchWS = ws.NewMatchHandler(socketDeps)
	}
	if s.tables != nil {
		s.tables.SetChecker(table.SolverCheck(cfg.CheckBudget, s.takeSlot, s.freeSlot))
		s.tables.SetLobby(s.lobbyWS.Hub().Changed)
		s.tables.SetThinker(table.SolverThink(s.tryTakeSlot, s.freeSlot))
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
