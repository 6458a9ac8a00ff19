package memory

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
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
// for --duration), and per game.
type GamesReport struct {
	URL          string         `json:"url"`
	Mode         string         `json:"mode"`
	Games        int            `json:"games"`
	Actions      int            `json:"actions"` // of each game
	Players      int            `json:"players"`
	RSSBeforeKiB int64          `json:"rssBeforeKiB"`
	RSSAfterKiB  int64          `json:"rssAfterKiB"`
	KiBPerGame   float64        `json:"kibPerGame"`
	Go           GamesRuntime   `json:"go"`
	LiveTables   float64        `json:"liveTables"`   // dsol_live_tables at the end
	Built        int64          `json:"actionsBuilt"` // acknowledged, all games
	BuildSeconds float64        `json:"buildSeconds"`
	ActsPerSec   float64        `json:"actionsPerSecond"`
	Errors       map[string]int `json:"errors"`
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
	fmt.Fprintf(w, "dsol load: games, %d solo games of %d actions (%d players), %s\n", r.Games, r.Actions, r.Players, r.URL)
	fmt.Fprintf(w, "build       %.1fs, %.0f actions/s\n", r.BuildSeconds, r.ActsPerSec)
	fmt.Fprintf(w, "server rss  %d KiB without live games, %d KiB with them (%.0f live tables)\n", r.RSSBeforeKiB, r.RSSAfterKiB, r.LiveTables)
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
// the run, and limits that let the tool through.
func Games(ctx context.Context, cfg Config) (*GamesReport, error) {
	pid, err := cfg.pid("games")
	if err != nil {
		return nil, err
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
	before, err := measure(setupCtx, hc, cfg.Base, pid)
	if err != nil {
		return nil, err
	}

	start := time.Now()
	var built atomic.Int64
	client.Parallel(cfg.Clients, cfg.Games, func(i int) {
		token := tokens[i%len(tokens)] // games at once are of different players: eight sockets each at most
		errs.tryUntil(setupCtx, func() error {
			n, err := buildGame(setupCtx, hc, &cfg, token)
			built.Add(int64(n))
			return err
		})
	})
	if err := setupCtx.Err(); err != nil {
		return nil, fmt.Errorf("load: building %d games of %d actions within --setup-timeout %v: %w", cfg.Games, cfg.Actions, cfg.Setup, err)
	}
	rep.BuildSeconds = time.Since(start).Seconds()
	rep.Built = built.Load()
	rep.ActsPerSec = float64(rep.Built) / rep.BuildSeconds
	client.Sleep(ctx, cfg.Duration)
	after, err := measure(ctx, hc, cfg.Base, pid)
	if err != nil {
		return nil, err
	}
	if v, err := client.MetricOf(ctx, hc, cfg.Base, "dsol_live_tables"); err == nil {
		rep.LiveTables = v
	}
	n := float64(cfg.Games)
	rep.RSSBeforeKiB, rep.RSSAfterKiB = before.rssKiB, after.rssKiB
	rep.KiBPerGame = float64(after.rssKiB-before.rssKiB) / n
	goBefore, goAfter := before.goRuntime, after.goRuntime
	rep.Go = GamesRuntime{
		Runtime:         runtimeOf(before, after),
		HeapKiBPerGame:  (goAfter[0] - goBefore[0]) / 1024 / n,
		StackKiBPerGame: (goAfter[1] - goBefore[1]) / 1024 / n,
	}
	return rep, nil
}

// buildGame creates a draw-1 solo game of the player of token and plays
// cfg.Actions actions on its socket, gamesInFlight at a time: 59 draws
// empty the stock, a recycle turns the waste over, and so on. It returns
// how many were acknowledged.
func buildGame(ctx context.Context, hc *http.Client, cfg *Config, token string) (int, error) {
	var g struct{ ID string }
	if err := client.PostJSON(ctx, hc, cfg.Base+"/api/v1/games", token, []byte(`{"draw":1,"scoring":"normal"}`), &g); err != nil {
		return 0, err
	}
	conn, err := client.DialGame(ctx, hc, cfg.Base, g.ID, token, false)
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
