// Package load is dsol load: virtual clients that play against a running
// dsol server (solo games, races, or idle sockets) and report what it
// sustained: actions per second, their latency, its CPU time per ack, its
// memory per idle socket or live game. It holds the command line, the solo
// and race modes, and hands the memory modes to package memory.
package load

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"dsol/internal/cli"
	"dsol/internal/load/memory"
)

// config is the command line of dsol load.
type config struct {
	mode       string // "solo", "race", "race-play", "arena", "idle" or "games"
	base       string // the server's base URL, without a trailing slash
	clients    int
	duration   time.Duration
	setup      time.Duration // bound on the setup (--setup-timeout)
	transport  string        // "ws" or "rest"
	draw       int
	maxActions int
	think      time.Duration
	json       bool

	// race modes
	races       int
	raceActions int           // arena mode: actions of a seat in a race before it resigns
	warmup      time.Duration // played before the measured window (--setup)
	protocol    int           // race and idle modes: the socket protocol (--protocol)
	pids        []int         // the server's processes, for their CPU time (none: /metrics)
	sockets     int           // idle mode: sockets to open
	games       int           // games mode: games to build
	actions     int           // games mode: actions of each
	ids         string        // games mode: the file the built games are written to
	wake        string        // games mode: the file of the games to wake instead of building
	added       bool          // games mode, with wake: the server holds live tables already
}

const usage = `usage: dsol load [flags]

Plays solo games against a running dsol server with virtual clients and
reports the actions per second and the latency from sending an action to its
ack (WebSocket) or response (REST). Each client creates a player and plays
legal actions chosen by a local copy of the engine; it starts a new game when
it wins, runs out of useful moves, or reaches --max-actions. The run stops by
itself after --duration.

With --mode race or race-play it plays races instead: --races pairs of
players, each seat on its own WebSocket in a closed loop (send an action,
wait for its ack, send the next). race sends only draws and recycles, which
are always legal in a simultaneous draw-1 race with unlimited redeals;
race-play plays real moves and starts a new race when one ends. After a
warm-up (--setup) it measures a window of --duration: acks per second, the
ack latency and the server's CPU time per acked action: from /proc/PID/stat
of the processes given with --pid (the server, and perhaps its database's
backends), else from the server's /metrics.

With --mode arena, --clients players create and join one arena (draw 1,
unlimited redeals, started at once, long enough for the run), each with its
arena socket open; whenever a player is paired it plays its race as --mode
race does (draws and recycles in a closed loop on the race's socket) and
resigns after --race-actions acknowledged actions (whichever seat gets there
first; the other sees the race over), then waits for its next pairing. Besides the
race figures (over the window, as --mode race) it reports, over the whole
run from the sockets' opening: the pairing wait (from the player's arena
socket first answering, or from the end of its race, to its "paired"
message) and the standings push latency (from the end of a race as the
player saw it, the ack of its resign or its game's "over" or game_over
answer, to the first arena push whose row of the player counts the race: its
"races" one higher).

With --mode idle it opens --sockets game sockets (eight per player, each
player on one solo game), leaves them idle for --duration and reports the
resident memory they cost the server, from /proc/PID/status of --pid.

With --mode games it builds --games draw-1 solo games of --actions actions
each (draws and recycles, --clients games at once, 32 actions in flight on
each game's socket), closes their sockets, leaves them live for --duration
and reports the resident memory they cost the server (--pid), per game.
Start the server with an --idle-evict longer than the run, limits that let
the tool through, and a --setup-timeout that lets it build them all.
--ids FILE writes the games it built to FILE, one a line: the game's id and
its player's token. With --wake FILE it builds nothing: it measures the
server (started afresh on the database of the build: no live table yet),
wakes each game of FILE with one GET of its view (--clients at once),
leaves them for --duration (150s: they park within 45s, and the server's
Go runtime collects at least every two minutes) and measures again, so
that what building them left in the server (the sockets of the build, the
heap's growth, its database's caches) is not counted. --wake refuses a
server that holds live tables already, unless --added is given: then the
server must hold some (those of an earlier --wake) and the report is what
this file's games add to them, the marginal cost of a live game without
what the process pays once for its first ones. To measure it, split the
file of a build (head -n 250 games.ids >first.ids; tail -n 250 games.ids
>second.ids), wake the first half in a server started afresh, then the
second with --added.

flags:
`

// parse reads the command line of dsol load.
func parse(args []string, stderr io.Writer) (config, error) {
	fs := cli.NewFlags("load", usage, stderr)
	var c config
	fs.StringVar(&c.mode, "mode", "solo", "solo (solo games), race (draws and recycles in races), race-play (races played with real moves), arena (--clients players in one arena, racing as race does), idle (the server's memory per idle socket) or games (its memory per live game)")
	fs.StringVar(&c.base, "url", "http://127.0.0.1:8080", "base URL of the server")
	fs.IntVar(&c.clients, "clients", 50, "virtual clients, each with its own player and connection")
	fs.DurationVar(&c.duration, "duration", 20*time.Second, "how long the clients play, after the setup")
	fs.DurationVar(&c.setup, "setup-timeout", 30*time.Second, "bound on creating the players and first games before the clock starts")
	fs.StringVar(&c.transport, "transport", "ws", "ws (one WebSocket per client, wait for each ack) or rest (POST each action)")
	fs.IntVar(&c.draw, "draw", 1, "draw 1 or 3")
	fs.IntVar(&c.maxActions, "max-actions", 0, "start a new game after this many actions of one game (0, or more than 10,000: 10,000, half of what a game may have)")
	fs.DurationVar(&c.think, "think", 0, "pause of a client between an answer and its next action")
	fs.BoolVar(&c.json, "json", false, "print the report as JSON")
	fs.IntVar(&c.races, "races", 100, "race modes: races, each with two players on their own WebSocket")
	fs.IntVar(&c.raceActions, "race-actions", 200, "arena mode, and race mode when given: acknowledged actions of a seat in a race, after which it resigns (race mode: and the pair starts another race)")
	fs.DurationVar(&c.warmup, "setup", 0, "race and arena modes: warm-up played before the measured window")
	fs.IntVar(&c.protocol, "protocol", 2, "race and idle modes: the socket protocol, 1 (every event with the whole view) or 2 (events as deltas, messages batched)")
	fs.IntVar(&c.sockets, "sockets", 10000, "idle mode: game sockets to open and leave idle, eight per player")
	fs.IntVar(&c.games, "games", 1000, "games mode: solo games to build and leave live")
	fs.IntVar(&c.actions, "actions", 500, "games mode: actions of each game")
	fs.StringVar(&c.ids, "ids", "", "games mode: write the built games to this file, for a later --wake")
	fs.StringVar(&c.wake, "wake", "", "games mode: wake the games of this file (written by --ids) in a server started afresh, instead of building games")
	fs.BoolVar(&c.added, "added", false, "games mode, with --wake: the server holds live tables already (an earlier --wake's): measure what this file's games add")
	pids := fs.String("pid", "", "race modes: process ids, comma-separated, whose CPU time to add up as the server's: the server on this machine and, if you like, its database's backends (none: the server's /metrics)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, cli.Usagef("load: %v", err)
	}
	if fs.NArg() > 0 {
		return c, cli.Usagef("load takes no arguments, only flags (got %q)", fs.Arg(0))
	}
	u, err := url.Parse(c.base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, cli.Usagef("load: --url %q: want http://host[:port] or https://host[:port]", c.base)
	}
	c.base = strings.TrimSuffix(c.base, "/")
	switch {
	case c.clients < 1 || c.clients > 10000:
		return c, cli.Usagef("load: --clients %d: want 1 to 10000", c.clients)
	case c.duration <= 0:
		return c, cli.Usagef("load: --duration must be positive")
	case c.setup <= 0:
		return c, cli.Usagef("load: --setup-timeout must be positive")
	case c.transport != "ws" && c.transport != "rest":
		return c, cli.Usagef("load: --transport %q: use ws or rest", c.transport)
	case c.draw != 1 && c.draw != 3:
		return c, cli.Usagef("load: --draw %d: use 1 or 3", c.draw)
	case c.maxActions < 0:
		return c, cli.Usagef("load: --max-actions cannot be negative")
	case c.think < 0:
		return c, cli.Usagef("load: --think cannot be negative")
	case c.races < 1 || c.races > 5000:
		return c, cli.Usagef("load: --races %d: want 1 to 5000", c.races)
	case c.warmup < 0:
		return c, cli.Usagef("load: --setup cannot be negative")
	case c.sockets < 1 || c.sockets > 100000:
		return c, cli.Usagef("load: --sockets %d: want 1 to 100000", c.sockets)
	case c.games < 1 || c.games > 100000:
		return c, cli.Usagef("load: --games %d: want 1 to 100000", c.games)
	case c.actions < 0 || c.actions > 20000:
		return c, cli.Usagef("load: --actions %d: want 0 to 20000, what a game may have", c.actions)
	case c.raceActions < 1 || c.raceActions > 10000:
		return c, cli.Usagef("load: --race-actions %d: want 1 to 10000", c.raceActions)
	case c.protocol != 1 && c.protocol != 2:
		return c, cli.Usagef("load: --protocol %d: use 1 or 2", c.protocol)
	case c.ids != "" && c.wake != "":
		return c, cli.Usagef("load: --ids (the games a build made) and --wake (waking them, without a build) do not go together")
	case c.added && c.wake == "":
		return c, cli.Usagef("load: --added measures what the games of a --wake add: give --wake FILE")
	}
	for _, f := range cli.SplitList(*pids) {
		pid, err := strconv.Atoi(f)
		if err != nil || pid <= 0 {
			return c, cli.Usagef("load: --pid %q: want process ids such as 1234,1240", *pids)
		}
		c.pids = append(c.pids, pid)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var other []string
	switch c.mode {
	case "solo":
		other = []string{"races", "setup", "pid", "protocol", "sockets", "games", "actions", "race-actions", "ids", "wake", "added"}
	case "race":
		other = []string{"clients", "transport", "draw", "max-actions", "think", "sockets", "games", "actions", "ids", "wake", "added"}
		if !set["race-actions"] {
			c.raceActions = 0 // races run to raceActions, then the pair starts another
		}
	case "race-play":
		other = []string{"clients", "transport", "draw", "max-actions", "think", "sockets", "games", "actions", "race-actions", "ids", "wake", "added"}
	case "arena":
		other = []string{"races", "transport", "draw", "max-actions", "think", "sockets", "games", "actions", "ids", "wake", "added"}
		if c.clients < 2 {
			return c, cli.Usagef("load: --clients %d: an arena needs at least 2 players", c.clients)
		}
		if c.setup+c.warmup+c.duration+drainTimeout > maxArenaRun {
			return c, cli.Usagef("load: --setup-timeout, --setup and --duration add up to more than an arena lasts (%v with the drain)", maxArenaRun)
		}
	case "idle":
		other = []string{"clients", "transport", "draw", "max-actions", "think", "races", "setup", "games", "actions", "race-actions", "ids", "wake", "added"}
	case "games":
		other = []string{"transport", "draw", "max-actions", "think", "races", "setup", "protocol", "sockets", "race-actions"}
		if c.wake != "" { // the games are the file's
			other = append(other, "games", "actions")
		}
	default:
		return c, cli.Usagef("load: --mode %q: use solo, race, race-play, arena, idle or games", c.mode)
	}
	for _, name := range other {
		if set[name] {
			return c, cli.Usagef("load: --%s does not apply to --mode %s", name, c.mode)
		}
	}
	return c, nil
}

// drainTimeout bounds how long the actions in flight at the end of the
// duration may take to be answered; they count when they are.
const drainTimeout = 10 * time.Second

// latencyReport holds percentiles of the acknowledged actions' latencies, in
// milliseconds.
type latencyReport struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// Run is dsol load with its arguments (after the subcommand's name): the
// report goes to stdout, the usage to stderr. A wrong command line is a
// *cli.UsageError.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	var rep interface{ WriteText(io.Writer) }
	switch cfg.mode {
	case "solo":
		rep, err = runSolo(ctx, cfg)
	case "idle":
		rep, err = memory.Idle(ctx, cfg.memory())
	case "games":
		rep, err = memory.Games(ctx, cfg.memory())
	case "arena":
		rep, err = runArena(ctx, cfg)
	default:
		rep, err = runRace(ctx, cfg)
	}
	if err != nil {
		return err
	}
	if cfg.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.WriteText(stdout)
	return nil
}

// memory is what the memory modes take of the command line.
func (c *config) memory() memory.Config {
	return memory.Config{Base: c.base, PIDs: c.pids, Setup: c.setup, Duration: c.duration, Protocol: c.protocol,
		Sockets: c.sockets, Clients: c.clients, Games: c.games, Actions: c.actions, IDs: c.ids, Wake: c.wake, Added: c.added}
}

// percentiles summarises latencies in milliseconds (nearest rank).
func percentiles(lat []time.Duration) latencyReport {
	ms := make([]float64, len(lat))
	for i, d := range lat {
		ms[i] = float64(d.Microseconds()) / 1000
	}
	return summary(ms)
}

// summary gives the percentiles (nearest rank), the largest and the mean of
// a sample.
func summary(xs []float64) latencyReport {
	if len(xs) == 0 {
		return latencyReport{}
	}
	slices.Sort(xs)
	rank := func(p float64) float64 {
		i := int(p*float64(len(xs))+0.999999) - 1
		return xs[min(max(i, 0), len(xs)-1)]
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return latencyReport{P50: rank(0.50), P90: rank(0.90), P99: rank(0.99), Max: xs[len(xs)-1], Mean: sum / float64(len(xs))}
}

// player is a virtual client of a run, or a pair of them: it sets up within
// a context, reporting whether it is ready to play, then plays until stop
// ends, its last action answered within ctx.
type player interface {
	setup(ctx context.Context) bool
	play(stop, ctx context.Context)
}

// team is the players of a run once set up (see setUp).
type team struct {
	done      sync.WaitGroup
	start     chan struct{}
	stop, ctx context.Context // what the players play with: set before start closes
}

// setUp has every player set up at once within ctx and returns when all
// are done, with how many are ready: those wait for play.
func setUp[P player](ctx context.Context, players []P) (*team, int) {
	t := &team{start: make(chan struct{})}
	var setups sync.WaitGroup
	ok := make([]bool, len(players))
	for i, p := range players {
		setups.Add(1)
		t.done.Add(1)
		go func() {
			defer t.done.Done()
			ok[i] = p.setup(ctx)
			setups.Done()
			if !ok[i] {
				return
			}
			<-t.start
			p.play(t.stop, t.ctx)
		}()
	}
	setups.Wait()
	ready := 0
	for _, o := range ok {
		if o {
			ready++
		}
	}
	return t, ready
}

// play starts the ready players: they play until stop ends, their last
// actions answered within ctx.
func (t *team) play(stop, ctx context.Context) {
	t.stop, t.ctx = stop, ctx
	close(t.start)
}

// wait returns once every player has stopped.
func (t *team) wait() { t.done.Wait() }
