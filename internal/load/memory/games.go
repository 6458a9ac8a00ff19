package memory

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/load/client"
)

// gamesPerPlayer is how many games of the games mode one player holds.
const gamesPerPlayer = 50

// gamesInFlight is how many actions the games mode keeps in flight on a
// game's socket while it builds the game.
const gamesInFlight = 32

// GamesReport is what --mode games measured: the server's memory with the
// players made and no game live, then with --games solo games of
// --actions actions each live in memory (built, their sockets closed, left
// for --duration), and per game. With --wake, the games were not built but
// woken: the first measure is the server's before the first game of the
// file came back, the second after they all did and were left for
// --duration. With --added as well, the server held live tables at the
// first measure (an earlier --wake's), and the report is what the file's
// games added to them: the marginal cost of a live game, without what a
// process pays once for its first games.
type GamesReport struct {
	URL          string       `json:"url"`
	Mode         string       `json:"mode"`
	Woken        bool         `json:"woken"` // --wake: the games of an earlier build, woken
	Added        bool         `json:"added"` // --added: woken in a server that held live tables already
	Games        int          `json:"games"`
	Actions      int          `json:"actions"` // of each game (woken: their mean)
	Players      int          `json:"players"`
	RSSBeforeKiB int64        `json:"rssBeforeKiB"`
	RSSAfterKiB  int64        `json:"rssAfterKiB"`
	KiBPerGame   float64      `json:"kibPerGame"`
	Go           GamesRuntime `json:"go"`
	// LiveTablesBefore and LiveTables are dsol_live_tables at the two
	// measures.
	LiveTablesBefore float64        `json:"liveTablesBefore"`
	LiveTables       float64        `json:"liveTables"`
	Built            int64          `json:"actionsBuilt"` // acknowledged, all games (woken: the seqs of their views)
	BuildSeconds     float64        `json:"buildSeconds"` // woken: the time to wake them all
	ActsPerSec       float64        `json:"actionsPerSecond"`
	Errors           map[string]int `json:"errors"`
}

// GamesRuntime is the Go runtime's share: heap and stacks in use before
// and after, and per game.
type GamesRuntime struct {
	Runtime
	HeapKiBPerGame  float64 `json:"heapKiBPerGame"`
	StackKiBPerGame float64 `json:"stackKiBPerGame"`
}

// WriteText writes the report for people.
func (r *GamesReport) WriteText(w io.Writer) {
	switch {
	case r.Added:
		fmt.Fprintf(w, "dsol load: games, %d solo games of %d actions woken (%d players), added to %.0f live tables, %s\n",
			r.Games, r.Actions, r.Players, r.LiveTablesBefore, r.URL)
	case r.Woken:
		fmt.Fprintf(w, "dsol load: games, %d solo games of %d actions woken (%d players), %s\n", r.Games, r.Actions, r.Players, r.URL)
	default:
		fmt.Fprintf(w, "dsol load: games, %d solo games of %d actions (%d players), %s\n", r.Games, r.Actions, r.Players, r.URL)
	}
	if r.Woken {
		fmt.Fprintf(w, "wake        %.1fs, %.0f games/s\n", r.BuildSeconds, float64(r.Games)/r.BuildSeconds)
	} else {
		fmt.Fprintf(w, "build       %.1fs, %.0f actions/s\n", r.BuildSeconds, r.ActsPerSec)
	}
	without := "without live games"
	if r.Added {
		without = "before them"
	}
	fmt.Fprintf(w, "server rss  %d KiB %s (%.0f live tables), %d KiB with them (%.0f)\n",
		r.RSSBeforeKiB, without, r.LiveTablesBefore, r.RSSAfterKiB, r.LiveTables)
	fmt.Fprintf(w, "per game    %.1f KiB\n", r.KiBPerGame)
	fmt.Fprintf(w, "go runtime  heap in use %.0f -> %.0f KiB, stacks %.0f -> %.0f KiB\n",
		r.Go.HeapBeforeKiB, r.Go.HeapAfterKiB, r.Go.StackBeforeKiB, r.Go.StackAfterKiB)
	fmt.Fprintf(w, "per game    heap %.1f KiB, stacks %.1f KiB\n", r.Go.HeapKiBPerGame, r.Go.StackKiBPerGame)
	fmt.Fprintf(w, "errors      %s\n", client.ErrorList(r.Errors))
}

// Games builds cfg.Games solo games of cfg.Actions actions each (draws,
// and a recycle when the stock is out) on cfg.Clients sockets at once, with
// up to gamesInFlight actions in flight on each, and measures what the
// live games cost the server (cfg.PIDs: one process on this machine). The
// server must keep them in memory: start it with --idle-evict longer than
// the run, and limits that let the tool through. With cfg.IDs it writes
// the games it built to that file (see WriteGames); with cfg.Wake it builds
// nothing and wakes the games of that file instead (see wake).
func Games(ctx context.Context, cfg Config) (*GamesReport, error) {
	pid, err := cfg.pid("games")
	if err != nil {
		return nil, err
	}
	if cfg.Wake != "" {
		return wake(ctx, cfg, pid)
	}
	var ids *os.File
	if cfg.IDs != "" { // opened before a build that may take hours
		if ids, err = os.OpenFile(cfg.IDs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600); err != nil {
			return nil, fmt.Errorf("load: --ids: %w", err)
		}
		defer ids.Close()
	}
	rep := &GamesReport{URL: cfg.Base, Mode: "games", Games: cfg.Games, Actions: cfg.Actions, Errors: map[string]int{}}
	hc := newHTTPClient()
	defer hc.CloseIdleConnections()
	setupCtx, cancel := context.WithTimeout(ctx, cfg.Setup)
	defer cancel()
	errs := &tally{counts: rep.Errors}

	// The players, then the base measure, then the games.
	rep.Players = (cfg.Games + gamesPerPlayer - 1) / gamesPerPlayer
	tokens := make([]string, rep.Players)
	client.Parallel(16, len(tokens), func(i int) {
		errs.tryUntil(setupCtx, func() error {
			var p struct{ Token string }
			err := client.PostJSON(setupCtx, hc, cfg.Base+"/api/v1/players", "", []byte(`{"name":"games"}`), &p)
			if err == nil {
				tokens[i] = p.Token
			}
			return err
		})
	})
	if err := setupCtx.Err(); err != nil {
		return nil, fmt.Errorf("load: making %d players within --setup-timeout %v: %w", rep.Players, cfg.Setup, err)
	}
	time.Sleep(2 * time.Second) // let the server settle after the requests
	before, err := rep.measureBefore(setupCtx, hc, cfg.Base, pid)
	if err != nil {
		return nil, err
	}

	start := time.Now()
	var built atomic.Int64
	games := make([]Game, cfg.Games)
	client.Parallel(cfg.Clients, cfg.Games, func(i int) {
		token := tokens[i%len(tokens)] // games at once are of different players: eight sockets each at most
		errs.tryUntil(setupCtx, func() error {
			id, n, err := buildGame(setupCtx, hc, &cfg, token)
			built.Add(int64(n))
			if err == nil {
				games[i] = Game{ID: id, Token: token}
			}
			return err
		})
	})
	if err := setupCtx.Err(); err != nil {
		return nil, fmt.Errorf("load: building %d games of %d actions within --setup-timeout %v: %w", cfg.Games, cfg.Actions, cfg.Setup, err)
	}
	rep.BuildSeconds = time.Since(start).Seconds()
	rep.Built = built.Load()
	rep.ActsPerSec = float64(rep.Built) / rep.BuildSeconds
	if ids != nil {
		if err := WriteGames(ids, games); err != nil {
			return nil, fmt.Errorf("load: --ids: %w", err)
		}
		if err := ids.Close(); err != nil {
			return nil, fmt.Errorf("load: --ids: %w", err)
		}
	}
	client.Sleep(ctx, cfg.Duration)
	return rep, rep.measureAfter(ctx, hc, cfg.Base, pid, before)
}

// wake is --mode games --wake: it measures the games of an earlier build
// (the file cfg.Wake, written by its --ids) without what building them
// left in the server. The server, started afresh on the database that holds
// them, is measured first; then each game comes back into memory with one
// GET of its view, cfg.Clients at once (again after a while when the
// server answers it is unavailable for now); and after cfg.Duration, in which
// the tables park, the server is measured again. The server must hold no
// live table at the first measure, unless cfg.Added: then it must hold
// some (the games of an earlier wake, so that what a process pays once for
// its first games is paid already), and the report is what the file's
// games add. Either way each game of the file must come back into memory:
// one live already would add nothing.
func wake(ctx context.Context, cfg Config, pid int) (*GamesReport, error) {
	f, err := os.Open(cfg.Wake)
	if err != nil {
		return nil, fmt.Errorf("load: --wake: %w", err)
	}
	games, err := ReadGames(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("load: --wake %s: %w", cfg.Wake, err)
	}
	rep := &GamesReport{URL: cfg.Base, Mode: "games", Woken: true, Added: cfg.Added, Games: len(games), Errors: map[string]int{}}
	players := map[string]bool{}
	for _, g := range games {
		players[g.Token] = true
	}
	rep.Players = len(players)
	hc := newHTTPClient()
	defer hc.CloseIdleConnections()
	setupCtx, cancel := context.WithTimeout(ctx, cfg.Setup)
	defer cancel()

	before, err := rep.measureBefore(setupCtx, hc, cfg.Base, pid)
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.Added && rep.LiveTablesBefore == 0:
		return nil, fmt.Errorf("load: --wake --added: the server holds no live table: wake a first file's games without --added, then add this one's")
	case !cfg.Added && rep.LiveTablesBefore > 0:
		return nil, fmt.Errorf("load: --wake: the server already holds %.0f live tables: start it afresh on the database of the build, or measure what this file's games add with --added", rep.LiveTablesBefore)
	}
	start := time.Now()
	var woken, seqs atomic.Int64
	errs := &tally{counts: rep.Errors}
	client.Parallel(cfg.Clients, len(games), func(i int) {
		errs.tryUntil(setupCtx, func() error {
			var v struct{ Seq int64 }
			err := client.GetJSON(setupCtx, hc, cfg.Base+"/api/v1/games/"+games[i].ID, games[i].Token, &v)
			if err == nil {
				woken.Add(1)
				seqs.Add(v.Seq)
				return nil
			}
			switch client.CodeOf(err) {
			case "rate_limited", "transport", "unavailable": // the server says to try again
				return err
			}
			errs.count(err) // not there, or not the token's: no second try
			return nil
		})
	})
	if err := setupCtx.Err(); err != nil {
		return nil, fmt.Errorf("load: waking %d games within --setup-timeout %v: %w", len(games), cfg.Setup, err)
	}
	if n := woken.Load(); n != int64(len(games)) {
		return nil, fmt.Errorf("load: --wake: %d of %d games woken (errors: %s)", n, len(games), client.ErrorList(rep.Errors))
	}
	rep.BuildSeconds = time.Since(start).Seconds()
	live, err := client.MetricOf(setupCtx, hc, cfg.Base, "dsol_live_tables")
	if err != nil {
		return nil, fmt.Errorf("load: the server's dsol_live_tables: %w", err)
	}
	if n := live - rep.LiveTablesBefore; n != float64(len(games)) {
		return nil, fmt.Errorf("load: --wake: %.0f of the %d games of %s came back into memory: the others were live already (or there twice in the file)", n, len(games), cfg.Wake)
	}
	rep.Built = seqs.Load()
	rep.Actions = int(rep.Built / int64(len(games)))
	rep.ActsPerSec = float64(rep.Built) / rep.BuildSeconds
	client.Sleep(ctx, cfg.Duration)
	return rep, rep.measureAfter(ctx, hc, cfg.Base, pid, before)
}

// measureBefore takes the first measure of a run: the server's memory and
// its live tables.
func (r *GamesReport) measureBefore(ctx context.Context, hc *http.Client, base string, pid int) (sample, error) {
	s, err := measure(ctx, hc, base, pid)
	if err != nil {
		return sample{}, err
	}
	r.LiveTablesBefore, err = client.MetricOf(ctx, hc, base, "dsol_live_tables")
	if err != nil {
		return sample{}, fmt.Errorf("load: the server's dsol_live_tables: %w", err)
	}
	return s, nil
}

// measureAfter takes the second measure of a run and fills in the memory
// of the report, in all and per game, against before.
func (r *GamesReport) measureAfter(ctx context.Context, hc *http.Client, base string, pid int, before sample) error {
	after, err := measure(ctx, hc, base, pid)
	if err != nil {
		return err
	}
	r.LiveTables, err = client.MetricOf(ctx, hc, base, "dsol_live_tables")
	if err != nil {
		return fmt.Errorf("load: the server's dsol_live_tables: %w", err)
	}
	n := float64(r.Games)
	r.RSSBeforeKiB, r.RSSAfterKiB = before.rssKiB, after.rssKiB
	r.KiBPerGame = float64(after.rssKiB-before.rssKiB) / n
	goBefore, goAfter := before.goRuntime, after.goRuntime
	r.Go = GamesRuntime{
		Runtime:         runtimeOf(before, after),
		HeapKiBPerGame:  (goAfter[0] - goBefore[0]) / 1024 / n,
		StackKiBPerGame: (goAfter[1] - goBefore[1]) / 1024 / n,
	}
	return nil
}

// Game is a game of a build as --ids writes it and --wake reads it: its
// id and its player's token.
type Game struct {
	ID, Token string
}

// WriteGames writes games one a line, the id then the token, separated by
// a space: the file of --ids.
func WriteGames(w io.Writer, games []Game) error {
	bw := bufio.NewWriter(w)
	for _, g := range games {
		fmt.Fprintf(bw, "%s %s\n", g.ID, g.Token)
	}
	return bw.Flush()
}

// ReadGames reads what WriteGames wrote: at least one game, and nothing
// else on a line.
func ReadGames(r io.Reader) ([]Game, error) {
	var games []Game
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: want a game's id and its player's token", line)
		}
		games = append(games, Game{ID: f[0], Token: f[1]})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, errors.New("no games")
	}
	return games, nil
}

// buildGame creates a draw-1 solo game of the player of token and plays
// cfg.Actions actions on its socket, gamesInFlight at a time: 59 draws
// empty the stock, a recycle turns the waste over, and so on. It returns
// the game's id and how many actions were acknowledged.
func buildGame(ctx context.Context, hc *http.Client, cfg *Config, token string) (string, int, error) {
	var g struct{ ID string }
	if err := client.PostJSON(ctx, hc, cfg.Base+"/api/v1/games", token, []byte(`{"draw":1,"scoring":"normal"}`), &g); err != nil {
		return "", 0, err
	}
	acked, err := playGame(ctx, hc, cfg, g.ID, token)
	return g.ID, acked, err
}

// playGame plays the actions of buildGame on the socket of game id.
func playGame(ctx context.Context, hc *http.Client, cfg *Config, id, token string) (int, error) {
	conn, err := client.DialGame(ctx, hc, cfg.Base, id, token, false)
	if err != nil {
		return 0, err
	}
	defer conn.Close(websocket.StatusNormalClosure, "built")
	if _, _, err := conn.Read(ctx); err != nil { // the state
		return 0, client.WSError(ctx, err)
	}
	const stock = 104 - 45 // a draw-1 solo deal's stock: nine columns take 45
	action := func(seq int) []byte {
		if seq%(stock+1) == 0 {
			return []byte(`{"type":"recycle"}`)
		}
		return []byte(`{"type":"draw"}`)
	}
	sent, acked := 0, 0
	for acked < cfg.Actions {
		for sent < cfg.Actions && sent-acked < gamesInFlight {
			sent++
			if err := conn.Write(ctx, websocket.MessageText, client.ActionFrame("b"+strconv.Itoa(sent), action(sent))); err != nil {
				return acked, client.WSError(ctx, err)
			}
		}
		_, data, err := conn.Read(ctx)
		if err != nil {
			return acked, client.WSError(ctx, err)
		}
		switch {
		case bytes.HasPrefix(data, []byte(`{"type":"ack"`)):
			acked++
		case bytes.HasPrefix(data, []byte(`{"type":"reject"`)):
			return acked, &client.Error{Code: "rejected", Message: string(data)}
		}
	}
	return acked, nil
}
