package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"dsol/internal/arena"
	"dsol/internal/httpapi"
	"dsol/internal/live"
	"dsol/internal/lobby"
	"dsol/internal/metrics"
	"dsol/internal/names"
	"dsol/internal/ownership"
	"dsol/internal/players"
	"dsol/internal/service"
	"dsol/internal/store"
	"dsol/internal/winnable"
	"dsol/internal/ws"
	"dsol/web"
)

// wiringDeps are what the wiring of the server takes from the process
// rather than from its configuration: dsol serve passes crypto/rand and the
// system clock, a test seeded sources and a manual clock.
type wiringDeps struct {
	// random is the game service's source of game ids, invites, salts and
	// the server's deals; playerRandom the players service's, of player
	// ids, tokens and transfer codes.
	random, playerRandom io.Reader
	// clock is the time of the game and players services, the rate limits
	// and the sockets.
	clock func() time.Time
	// afterFunc runs the races' timers (the turn clock, the bot's moves, a
	// rematch offer's lapse) on clock; nil: time.AfterFunc.
	afterFunc func(d time.Duration, f func()) (stop func() bool)
	// winnable is the pool winnable solo deals are dealt from.
	winnable *winnable.Pool
}

// wired is the server wire builds: the handler of every route, the game
// service and the owner of its leases, the players service, and the socket
// handlers, which the HTTP server's shutdown does not cover.
type wired struct {
	handler http.Handler
	games   *service.Service
	owner   *ownership.Owner
	players *players.Service
	sockets *ws.Handler
	lobby   *ws.LobbyHandler
	match   *ws.MatchHandler
	arena   *ws.ArenaHandler
}

// closeSockets closes the hijacked WebSocket connections (games, lobby,
// match and arenas) with 1012, so that clients reconnect elsewhere.
func (w *wired) closeSockets(ctx context.Context) {
	w.sockets.Shutdown(ctx)
	w.lobby.Shutdown(ctx)
	w.match.Shutdown(ctx)
	w.arena.Shutdown(ctx)
}

// wire builds the server of dsol serve over an open store and its
// committer: the owner of the node's leases, the game service, the players
// service, the lobby, the sockets and the REST API, with the settings of
// cfg and the sources of deps. It is the one place where dsol's parts are
// put together.
func wire(st store.Store, com *store.Committer, cfg serveConfig, log *slog.Logger, m *metrics.Metrics, deps wiringDeps) *wired {
	oc := ownership.Config{TTL: cfg.lease, Clock: deps.clock, Logger: log, Elsewhere: m.ObserveElsewhere}
	if ls, ok := st.(store.Leases); ok { // PostgreSQL: nodes share the games
		oc.Leases, oc.Node, oc.Addr = ls, cfg.node, cfg.advertise
		if oc.Node == "" {
			oc.Node = nodeName()
		}
		log.Info("sharing games with other nodes", "node", oc.Node, "advertise", oc.Addr, "lease", cfg.lease)
	}
	w := &wired{owner: ownership.New(oc)}
	hub := lobby.NewHub(lobby.Config{Store: st, Logger: log})
	w.games = service.New(service.Config{
		Store:        st,
		Committer:    com,
		Owner:        w.owner,
		Logger:       log,
		Clock:        deps.clock,
		Random:       deps.random,
		Winnable:     deps.winnable,
		LobbyChanged: hub.Changed,
		Action:       m.ObserveAction,
		Waiting:      m.SetMatchWaiting,
		Wait:         m.ObserveMatchWait,
		Live: live.Config{
			IdleAfter: cfg.idle,
			Grace:     cfg.grace,
			AfterFunc: deps.afterFunc,
			Hooks:     live.Hooks{Action: m.ObserveAction, Live: m.AddLiveTables, Races: m.AddLiveRaces, Moved: m.ObserveMoved},
		},
		Arena:        arena.Config{Paired: m.ObserveArenaWait, Pushed: m.ObserveArenaPush, Counts: m.SetArenas},
		ArenasPerDay: cfg.arenasPerDay,
	})
	w.players = players.New(players.Config{Store: st, Clock: deps.clock, Random: deps.playerRandom, Names: names.New(cfg.reservedNames...)})
	socketDeps := ws.Deps{
		Games:   w.games,
		Player:  httpapi.PlayerID,
		Token:   httpapi.TokenHash,    // signing out closes the token's sockets
		Check:   w.players.CheckToken, // and on other nodes within the sign-in cache's lifetime
		Logger:  log,
		Metrics: m,
		Clock:   deps.clock,
		Config: ws.Config{
			OriginPatterns: originHosts(cfg.origins),
			MessageRate:    cfg.wsRate,
			MessageBurst:   cfg.wsBurst,
		},
	}
	w.sockets = ws.NewHandler(socketDeps)
	w.lobby = ws.NewLobbyHandler(ws.LobbyDeps{
		Hub:     hub,
		Player:  socketDeps.Player,
		Token:   socketDeps.Token,
		Check:   socketDeps.Check,
		Logger:  log,
		Metrics: m,
		Clock:   deps.clock,
		Config:  socketDeps.Config,
	})
	w.match = ws.NewMatchHandler(socketDeps) // the queue is the game service's
	w.arena = ws.NewArenaHandler(socketDeps) // and so are the arenas
	accounts := cfg.accountsPerHour
	if accounts == 0 {
		accounts = -1 // no bound
	}
	w.handler = httpapi.NewServer(httpapi.Deps{
		Logger:  log,
		Players: w.players,
		Games:   w.games,
		Lobby:   hub,
		Metrics: m,
		Sockets: httpapi.Sockets{Games: w.sockets, Lobby: w.lobby, Match: w.match, Arena: w.arena},
		Clock:   deps.clock,
		Config: httpapi.Config{
			TrustedProxies:  cfg.proxies,
			AllowedOrigins:  cfg.origins,
			RequestTimeout:  cfg.requestTimeout,
			WriteRate:       cfg.writeRate,
			WriteBurst:      cfg.writeBurst,
			AccountsPerHour: accounts,
			Static:          web.FS(),
			MatchBotAfter:   cfg.matchBotAfter,
		},
	})
	return w
}

// originHosts turns allowed origins (scheme://host[:port]) into the host
// patterns the WebSocket handshake compares the Origin header with.
func originHosts(origins []string) []string {
	hosts := make([]string, 0, len(origins))
	for _, o := range origins {
		if i := strings.Index(o, "://"); i >= 0 {
			o = o[i+3:]
		}
		hosts = append(hosts, strings.TrimSuffix(o, "/"))
	}
	return hosts
}

// nodeName is a node's default name in the game leases: the host name and
// a random suffix, so that a restarted process never takes itself for its
// previous run.
func nodeName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "node"
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%x", host, b)
}
