package load

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/cli"
)

// gamesPerPlayer is how many games of the games mode one player holds.
const gamesPerPlayer = 50

// gamesInFlight is how many actions the games mode keeps in flight on a
// game's socket while it builds the game.
const gamesInFlight = 32

// gamesReport is what --mode games measured: the server's memory with the
// players made and no game live, then with --games solo games of
// --actions actions each live in memory (built, their sockets closed, left
// for --duration), and per game.
type gamesReport struct {
	URL          string         `json:"url"`
	Mode         string         `json:"mode"`
	Games        int            `json:"games"`
	Actions      int            `json:"actions"` // of each game
	Players      int            `json:"players"`
	RSSBeforeKiB int64          `json:"rssBeforeKiB"`
	RSSAfterKiB  int64          `json:"rssAfterKiB"`
	KiBPerGame   float64        `json:"kibPerGame"`
	Go           gamesRuntime   `json:"go"`
	LiveTables   float64        `json:"liveTables"`   // dsol_live_tables at the end
	Built        int64          `json:"actionsBuilt"` // acknowledged, all games
	BuildSeconds float64        `json:"buildSeconds"`
	ActsPerSec   float64        `json:"actionsPerSecond"`
	Errors       map[string]int `json:"errors"`
}

// gamesRuntime is the Go runtime's share: heap and stacks in use before
// and after, and per game.
type gamesRuntime struct {
	HeapBeforeKiB   float64 `json:"heapInuseBeforeKiB"`
	HeapAfterKiB    float64 `json:"heapInuseAfterKiB"`
	StackBeforeKiB  float64 `json:"stackInuseBeforeKiB"`
	StackAfterKiB   float64 `json:"stackInuseAfterKiB"`
	HeapKiBPerGame  float64 `json:"heapKiBPerGame"`
	StackKiBPerGame float64 `json:"stackKiBPerGame"`
}

func (r *gamesReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "dsol load: games, %d solo games of %d actions (%d players), %s\n", r.Games, r.Actions, r.Players, r.URL)
	fmt.Fprintf(w, "build       %.1fs, %.0f actions/s\n", r.BuildSeconds, r.ActsPerSec)
	fmt.Fprintf(w, "server rss  %d KiB without live games, %d KiB with them (%.0f live tables)\n", r.RSSBeforeKiB, r.RSSAfterKiB, r.LiveTables)
	fmt.Fprintf(w, "per game    %.1f KiB\n", r.KiBPerGame)
	fmt.Fprintf(w, "go runtime  heap in use %.0f -> %.0f KiB, stacks %.0f -> %.0f KiB\n",
		r.Go.HeapBeforeKiB, r.Go.HeapAfterKiB, r.Go.StackBeforeKiB, r.Go.StackAfterKiB)
	fmt.Fprintf(w, "per game    heap %.1f KiB, stacks %.1f KiB\n", r.Go.HeapKiBPerGame, r.Go.StackKiBPerGame)
	fmt.Fprintf(w, "errors      %s\n", errorList(r.Errors))
}

// runGames builds --games solo games of --actions actions each (draws,
// and a recycle when the stock is out) on --clients sockets at once, with
// up to gamesInFlight actions in flight on each, and measures what the
// live games cost the server (--pid: one process on this machine). The
// server must keep them in memory: start it with --idle-evict longer than
// the run, and limits that let the tool through.
func runGames(ctx context.Context, cfg config) (*gamesReport, error) {
	if len(cfg.pids) != 1 {
		return nil, cli.Usagef("load: --mode games needs --pid: the server's process, whose memory it reads")
	}
	pid := cfg.pids[0]
	rep := &gamesReport{URL: cfg.base, Mode: cfg.mode, Games: cfg.games, Actions: cfg.actions, Errors: map[string]int{}}
	hc := &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 64}}
	defer hc.CloseIdleConnections()
	setupCtx, cancel := context.WithTimeout(ctx, cfg.setup)
	defer cancel()
	var mu sync.Mutex
	count := func(err error) {
		mu.Lock()
		rep.Errors[codeOf(err)]++
		mu.Unlock()
	}

	// The players, then the base measure, then the games.
	rep.Players = (cfg.games + gamesPerPlayer - 1) / gamesPerPlayer
	tokens := make([]string, rep.Players)
	parallel(16, len(tokens), func(i int) {
		for setupCtx.Err() == nil {
			var p struct{ Token string }
			err := postJSON(setupCtx, hc, cfg.base+"/api/v1/players", "", []byte(`{"name":"games"}`), &p)
			if err == nil {
				tokens[i] = p.Token
				return
			}
			count(err)
			sleep(setupCtx, rateLimitPause)
		}
	})
	if err := setupCtx.Err(); err != nil {
		return nil, fmt.Errorf("load: making %d players within --setup-timeout %v: %w", rep.Players, cfg.setup, err)
	}
	time.Sleep(2 * time.Second) // let the server settle after the requests
	before, err := rssKiB(pid)
	if err != nil {
		return nil, err
	}
	goBefore, err := readRuntime(setupCtx, hc, cfg.base)
	if err != nil {
		return nil, err
	}

	start := time.Now()
	var built atomic.Int64
	parallel(cfg.clients, cfg.games, func(i int) {
		token := tokens[i%len(tokens)] // games at once are of different players: eight sockets each at most
		for setupCtx.Err() == nil {
			n, err := buildGame(setupCtx, hc, cfg, token)
			built.Add(int64(n))
			if err == nil {
				return
			}
			count(err)
			sleep(setupCtx, rateLimitPause)
		}
	})
	if err := setupCtx.Err(); err != nil {
		return nil, fmt.Errorf("load: building %d games of %d actions within --setup-timeout %v: %w", cfg.games, cfg.actions, cfg.setup, err)
	}
	rep.BuildSeconds = time.Since(start).Seconds()
	rep.Built = built.Load()
	rep.ActsPerSec = float64(rep.Built) / rep.BuildSeconds
	sleep(ctx, cfg.duration)
	after, err := rssKiB(pid)
	if err != nil {
		return nil, err
	}
	goAfter, err := readRuntime(ctx, hc, cfg.base)
	if err != nil {
		return nil, err
	}
	if v, err := metricOf(ctx, hc, cfg.base, "dsol_live_tables"); err == nil {
		rep.LiveTables = v
	}
	n := float64(cfg.games)
	rep.RSSBeforeKiB, rep.RSSAfterKiB = before, after
	rep.KiBPerGame = float64(after-before) / n
	rep.Go = gamesRuntime{
		HeapBeforeKiB: goBefore[0] / 1024, HeapAfterKiB: goAfter[0] / 1024,
		StackBeforeKiB: goBefore[1] / 1024, StackAfterKiB: goAfter[1] / 1024,
		HeapKiBPerGame:  (goAfter[0] - goBefore[0]) / 1024 / n,
		StackKiBPerGame: (goAfter[1] - goBefore[1]) / 1024 / n,
	}
	return rep, nil
}

// parallel runs f(0) … f(n-1) on workers goroutines and waits for them.
func parallel(workers, n int, f func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// buildGame creates a draw-1 solo game of the player of token and plays
// cfg.actions actions on its socket, gamesInFlight at a time: 59 draws
// empty the stock, a recycle turns the waste over, and so on. It returns
// how many were acknowledged.
func buildGame(ctx context.Context, hc *http.Client, cfg config, token string) (int, error) {
	var g struct{ ID string }
	if err := postJSON(ctx, hc, cfg.base+"/api/v1/games", token, []byte(`{"draw":1,"scoring":"normal"}`), &g); err != nil {
		return 0, err
	}
	conn, err := dialGame(ctx, hc, cfg.base, g.ID, token, false)
	if err != nil {
		return 0, err
	}
	defer conn.Close(websocket.StatusNormalClosure, "built")
	if _, _, err := conn.Read(ctx); err != nil { // the state
		return 0, wsError(ctx, err)
	}
	const stock = 104 - 45 // a draw-1 solo deal's stock: nine columns take 45
	action := func(seq int) []byte {
		if seq%(stock+1) == 0 {
			return []byte(`{"type":"recycle"}`)
		}
		return []byte(`{"type":"draw"}`)
	}
	sent, acked := 0, 0
	for acked < cfg.actions {
		for sent < cfg.actions && sent-acked < gamesInFlight {
			sent++
			if err := conn.Write(ctx, websocket.MessageText, actionFrame("b"+strconv.Itoa(sent), action(sent))); err != nil {
				return acked, wsError(ctx, err)
			}
		}
		_, data, err := conn.Read(ctx)
		if err != nil {
			return acked, wsError(ctx, err)
		}
		switch {
		case bytes.HasPrefix(data, []byte(`{"type":"ack"`)):
			acked++
		case bytes.HasPrefix(data, []byte(`{"type":"reject"`)):
			return acked, &apiError{"rejected", string(data)}
		}
	}
	return acked, nil
}

// metricOf reads one series of the server's /metrics.
func metricOf(ctx context.Context, hc *http.Client, base, name string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	res, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	v, err := metricValues(res.Body, name)
	if err != nil {
		return 0, err
	}
	return v[0], nil
}
