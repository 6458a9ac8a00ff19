package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"dsol/internal/cli"
	"dsol/internal/httpapi"
	"dsol/internal/metrics"
	"dsol/internal/service"
	"dsol/internal/store"
	"dsol/internal/store/postgres"
	"dsol/internal/store/sqlite"
	"dsol/internal/winnable"
)

// serveConfig is the configuration of dsol serve: flags override the
// environment, which overrides the defaults.
type serveConfig struct {
	addr            string
	db              string
	commitWindow    time.Duration
	grace           time.Duration
	retention       time.Duration
	commitMax       int
	origins         []string
	proxies         []netip.Prefix
	idle            time.Duration
	shutdownTimeout time.Duration
	requestTimeout  time.Duration
	dbWait          time.Duration
	writeRate       float64
	writeBurst      int
	wsRate          float64
	wsBurst         int
	logFormat       string
	logLevel        slog.Level
	node            string        // this node's name in the game leases
	advertise       string        // where other nodes reach this one
	lease           time.Duration // how long a game lease lasts unless renewed
	matchBotAfter   time.Duration // how long a quick match waits before the client offers the computer
	winnableTarget  int           // winnable deals of each mode the background search works towards (0: off)
	winnableBudget  int64         // the search's budget for each deal, in positions
	winnableBeam    int           // the search's beam width for Vegas deals (0: depth first)
	reservedNames   []string      // names no player may take, besides the computer's and the deleted players'
	accountsPerHour int           // players created per client address (or IPv6 /64) an hour (0: no bound)
	arenasPerDay    int           // arenas one player may create in 24 hours
}

// env returns the value of an environment variable, or def when it is unset.
func env(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

// parsePrefixes reads CIDR prefixes or single addresses.
func parsePrefixes(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is neither an address nor a CIDR prefix", s)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// addDBFlags defines the database flag shared by serve and migrate.
func addDBFlags(fs *flag.FlagSet, getenv func(string) string) *string {
	return fs.String("db", getenv("DATABASE_URL"),
		"database: postgres://… or postgresql://… for PostgreSQL, sqlite:PATH or a file path for SQLite (env DATABASE_URL; default dsol.db)")
}

func parseServe(args []string, getenv func(string) string, stderr io.Writer) (serveConfig, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c serveConfig
	var origins, proxies, level string
	var err error
	fs.StringVar(&c.addr, "addr", env(getenv, "DSOL_ADDR", ":8080"), "listen address (env DSOL_ADDR)")
	db := addDBFlags(fs, getenv)
	fs.StringVar(&origins, "allowed-origins", getenv("DSOL_ALLOWED_ORIGINS"),
		"comma-separated origins (scheme://host[:port]) besides the server's own that may send cookie-authenticated writes (env DSOL_ALLOWED_ORIGINS)")
	fs.StringVar(&proxies, "trusted-proxies", getenv("DSOL_TRUSTED_PROXIES"),
		"comma-separated addresses or CIDR prefixes of proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (env DSOL_TRUSTED_PROXIES)")
	fs.StringVar(&c.node, "node", getenv("DSOL_NODE"),
		"this node's name in the ownership of live games (PostgreSQL; default: the host name and a random suffix) (env DSOL_NODE)")
	fs.StringVar(&c.advertise, "advertise", getenv("DSOL_ADVERTISE"),
		"the address other nodes reach this one at, recorded with the games it runs (env DSOL_ADVERTISE)")
	var reserved string
	fs.StringVar(&reserved, "reserved-names", getenv("DSOL_RESERVED_NAMES"),
		"comma-separated names no player may take or keep, nor any look-alike of them, besides the computer's and the deleted players' (env DSOL_RESERVED_NAMES)")
	fs.StringVar(&c.logFormat, "log-format", env(getenv, "DSOL_LOG_FORMAT", "json"), "log format: json or text (env DSOL_LOG_FORMAT)")
	fs.StringVar(&level, "log-level", env(getenv, "DSOL_LOG_LEVEL", "info"), "log level: debug, info, warn, error (env DSOL_LOG_LEVEL)")
	durations := []struct {
		p          *time.Duration
		flag, name string
		def        string
		usage      string
	}{
		{&c.commitWindow, "commit-window", "DSOL_COMMIT_WINDOW", "1ms", "group-commit window: how long a batch waits for more actions after its first (0: a batch is what arrived while the previous commit ran)"},
		{&c.idle, "idle-evict", "DSOL_IDLE_EVICT", "10m", "evict a game from memory after this long without requests or subscribers"},
		{&c.shutdownTimeout, "shutdown-timeout", "DSOL_SHUTDOWN_TIMEOUT", "15s", "bound on a graceful shutdown"},
		{&c.requestTimeout, "request-timeout", "DSOL_REQUEST_TIMEOUT", "10s", "bound on one REST request"},
		{&c.grace, "grace", "DSOL_GRACE", "60s", "how long a race player may stay disconnected before the opponent may claim the win"},
		{&c.lease, "lease", "DSOL_LEASE", "3s", "how long a node's ownership of a live game lasts unless renewed (PostgreSQL): a killed node's games move within about this long"},
		{&c.retention, "retain-unfinished", "DSOL_RETAIN_UNFINISHED", "0s", "delete solo games in play and races nobody joined after this long without activity (0: keep them for ever)"},
		{&c.matchBotAfter, "match-bot-after", "DSOL_MATCH_BOT_AFTER", "30s", "how long a player waits in the quick-match queue before the client offers a race against the computer instead"},
		{&c.dbWait, "db-wait", "DSOL_DB_WAIT", "2m", "how long to keep trying a database that cannot be reached (connecting and migrating included) before giving up (0: one attempt)"},
	}
	for _, d := range durations {
		v, err := time.ParseDuration(env(getenv, d.name, d.def))
		if err != nil {
			return c, cli.Usagef("%s: %v", d.name, err)
		}
		fs.DurationVar(d.p, d.flag, v, d.usage+" (env "+d.name+")")
	}
	ints := []struct {
		p          *int
		flag, name string
		def        int
		usage      string
	}{
		{&c.commitMax, "commit-max", "DSOL_COMMIT_MAX", 256, "most actions of one group commit"},
		{&c.writeBurst, "write-burst", "DSOL_WRITE_BURST", 40, "burst of writes per player"},
		{&c.wsBurst, "ws-burst", "DSOL_WS_BURST", 40, "burst of WebSocket messages per connection"},
		{&c.accountsPerHour, "accounts-per-hour", "DSOL_ACCOUNTS_PER_HOUR", httpapi.DefaultAccountsPerHour, "players that may be created from one client address, or one IPv6 /64, in an hour (0: no bound)"},
		{&c.arenasPerDay, "arenas-per-day", "DSOL_ARENAS_PER_DAY", service.DefaultArenasPerDay, "arenas one player may create in 24 hours"},
		{&c.winnableTarget, "winnable-target", "DSOL_WINNABLE_TARGET", 0, "winnable deals of each mode (the shipped list's included) that the background search works towards, while the process uses under half the CPUs (0: no search)"},
		{&c.winnableBeam, "winnable-beam", "DSOL_WINNABLE_BEAM", winnable.DefaultBeam, "the width of the beam the background search solves Vegas deals with (0: depth first, as Normal deals always are)"},
	}
	for _, d := range ints {
		v, err := strconv.Atoi(env(getenv, d.name, strconv.Itoa(d.def)))
		if err != nil {
			return c, cli.Usagef("%s: %v", d.name, err)
		}
		fs.IntVar(d.p, d.flag, v, d.usage+" (env "+d.name+")")
	}
	budgetDef, err := strconv.ParseInt(env(getenv, "DSOL_WINNABLE_BUDGET", strconv.Itoa(winnable.DefaultBudget)), 10, 64)
	if err != nil {
		return c, cli.Usagef("DSOL_WINNABLE_BUDGET: %v", err)
	}
	fs.Int64Var(&c.winnableBudget, "winnable-budget", budgetDef, "the background search's budget for each deal, in solver positions (memory grows with it: about 40 bytes a position) (env DSOL_WINNABLE_BUDGET)")
	rateDef, err := strconv.ParseFloat(env(getenv, "DSOL_WRITE_RATE", "20"), 64)
	if err != nil {
		return c, cli.Usagef("DSOL_WRITE_RATE: %v", err)
	}
	fs.Float64Var(&c.writeRate, "write-rate", rateDef, "writes per second per player (env DSOL_WRITE_RATE)")
	wsRateDef, err := strconv.ParseFloat(env(getenv, "DSOL_WS_RATE", "20"), 64)
	if err != nil {
		return c, cli.Usagef("DSOL_WS_RATE: %v", err)
	}
	fs.Float64Var(&c.wsRate, "ws-rate", wsRateDef, "WebSocket messages per second per connection (env DSOL_WS_RATE)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, cli.Usagef("serve: %v", err)
	}
	if fs.NArg() > 0 {
		return c, cli.Usagef("serve takes no arguments, only flags (got %q)", fs.Arg(0))
	}
	if c.winnableTarget < 0 || c.winnableBudget < 1 || c.winnableBeam < 0 {
		return c, cli.Usagef("winnable-target and winnable-beam must not be negative (0: no search, depth first) and winnable-budget must be positive")
	}
	if c.accountsPerHour < 0 {
		return c, cli.Usagef("accounts-per-hour: %d is negative (0: no bound)", c.accountsPerHour)
	}
	c.reservedNames = cli.SplitList(reserved)
	if c.retention < 0 {
		return c, cli.Usagef("retain-unfinished: %v is negative (0 keeps every game)", c.retention)
	}
	c.db = *db
	c.origins = cli.SplitList(origins)
	if c.proxies, err = parsePrefixes(cli.SplitList(proxies)); err != nil {
		return c, cli.Usagef("%v", err)
	}
	if err := c.logLevel.UnmarshalText([]byte(level)); err != nil {
		return c, cli.Usagef("log level %q: use debug, info, warn or error", level)
	}
	if c.logFormat != "json" && c.logFormat != "text" {
		return c, cli.Usagef("log format %q: use json or text", c.logFormat)
	}
	return c, nil
}

// dbTarget tells the store of a --db / DATABASE_URL value: PostgreSQL for
// postgres:// and postgresql:// URLs, else SQLite (sqlite:PATH or a plain
// path; empty means dsol.db in the working directory).
func dbTarget(db string) (kind, target string) {
	switch {
	case strings.HasPrefix(db, "postgres://"), strings.HasPrefix(db, "postgresql://"):
		return "postgres", db
	case strings.HasPrefix(db, "sqlite:"):
		db = strings.TrimPrefix(db, "sqlite:")
		db = strings.TrimPrefix(db, "//") // sqlite://path
	}
	if db == "" {
		db = "dsol.db"
	}
	return "sqlite", db
}

// openStore opens (and migrates) the store of a --db value.
func openStore(ctx context.Context, db string) (store.Store, string, error) {
	kind, target := dbTarget(db)
	if kind == "postgres" {
		s, err := postgres.Open(ctx, target)
		return s, kind, err
	}
	s, err := sqlite.Open(ctx, target)
	return s, kind, err
}

func newLogger(format string, level slog.Level, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level, ReplaceAttr: durationText}
	if format == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// durationText writes durations as "2ms" rather than nanosecond counts, so
// JSON logs read like the flags that set them.
func durationText(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		a.Value = slog.StringValue(a.Value.Duration().String())
	}
	return a
}

// maxHeaderBytes bounds the request line and headers of a request; a larger
// one gets 431 Request Header Fields Too Large.
const maxHeaderBytes = 64 << 10

type readyKey struct{}

// withReady returns a context whose serve run calls f with the bound address
// once it listens (tests use it with --addr 127.0.0.1:0).
func withReady(ctx context.Context, f func(addr string)) context.Context {
	return context.WithValue(ctx, readyKey{}, f)
}

// runServe is dsol serve: the game server until ctx ends, then a graceful
// shutdown (stop accepting, finish requests, let live tables flush) within
// the shutdown timeout.
func runServe(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	cfg, err := parseServe(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	log := newLogger(cfg.logFormat, cfg.logLevel, stderr)
	m := metrics.New()
	b := readBuild()
	m.SetBuildInfo(b.version, b.commit, b.goVersion)

	// Listen first, answering 503 (but /healthz) until the store is open.
	front := newSwitchHandler(startingHandler(m))
	srv := &http.Server{
		Handler:           front,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    maxHeaderBytes,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.addr, err)
	}
	addr := ln.Addr().String()
	log.Info("listening", "addr", addr, "version", b.version, "commit", b.commit, "commit_window", cfg.commitWindow, "idle_evict", cfg.idle)
	if f, ok := ctx.Value(readyKey{}).(func(string)); ok {
		f(addr)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	st, kind, err := openStoreWaiting(ctx, log, openStore, cfg.db, cfg.dbWait)
	if err != nil {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.shutdownTimeout)
		defer cancel()
		srv.Shutdown(sctx)
		if ctx.Err() != nil {
			log.Info("stopped", "while", "waiting for the database")
			return nil
		}
		return err
	}
	defer st.Close()
	log.Info("store open and migrated", "store", kind)

	defer startRetention(ctx, st, cfg.retention, log, m)()
	pool, stopWinnable := startWinnable(ctx, st, cfg, log, m)
	defer stopWinnable()
	com := store.NewCommitter(st, cfg.commitWindow, cfg.commitMax, m.ObserveCommit)
	w := wire(st, com, cfg, log, m, wiringDeps{random: rand.Reader, playerRandom: rand.Reader, clock: time.Now, winnable: pool})
	defer startNameCheck(ctx, w.players, log)()
	front.set(w.handler)

	select {
	case err = <-served:
		log.Error("server stopped", "err", err)
	case <-ctx.Done():
		log.Info("shutting down", "timeout", cfg.shutdownTimeout)
	}

	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.shutdownTimeout)
	defer cancel()
	// Hijacked WebSocket connections (games and lobby) are not covered by
	// srv.Shutdown: close them first with 1012 so that clients reconnect
	// elsewhere.
	w.closeSockets(sctx)
	if serr := srv.Shutdown(sctx); serr != nil {
		log.Warn("http shutdown", "err", serr)
		srv.Close()
	}
	if rerr := w.games.Close(sctx); rerr != nil {
		log.Warn("tables did not all stop in time", "err", rerr)
	}
	w.owner.Close() // every game handed over at once
	com.Close()
	log.Info("stopped")
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
