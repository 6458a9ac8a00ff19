package memory

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/load/client"
)

// socketsPerPlayer is how many sockets the idle mode opens per player: the
// server's default cap per player is 8.
const socketsPerPlayer = 8

// IdleReport is what --mode idle measured: the server's resident memory
// before and after opening the sockets, and per socket.
type IdleReport struct {
	URL     string `json:"url"`
	Mode    string `json:"mode"`
	Sockets int    `json:"sockets"` // open at the second measure
	Players int    `json:"players"`
	// RSS is the server's VmRSS in KiB (from /proc/PID/status) with the
	// players and their games made but no socket open, then with the
	// sockets open and idle for --duration.
	RSSBeforeKiB int64   `json:"rssBeforeKiB"`
	RSSAfterKiB  int64   `json:"rssAfterKiB"`
	KiBPerSocket float64 `json:"kibPerSocket"`
	// Go is what the server's Go runtime reports on /metrics at the same
	// two moments (heap and goroutine stacks in use, goroutines): less
	// noisy than the RSS, which holds the heap's garbage not yet
	// collected and the memory the runtime has not yet given back.
	Go           IdleRuntime `json:"go"`
	SetupSeconds float64     `json:"setupSeconds"`
	Protocol     int         `json:"protocol"`
	Errors       map[string]int
}

// IdleRuntime is the Go runtime's share of an idle run: heap and stacks in
// use before and after, and per socket.
type IdleRuntime struct {
	Runtime
	GoroutinesBefore    float64 `json:"goroutinesBefore"`
	GoroutinesAfter     float64 `json:"goroutinesAfter"`
	HeapKiBPerSocket    float64 `json:"heapKiBPerSocket"`
	StackKiBPerSocket   float64 `json:"stackKiBPerSocket"`
	GoroutinesPerSocket float64 `json:"goroutinesPerSocket"`
}

// WriteText writes the report for people.
func (r *IdleReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "dsol load: idle, %d sockets (%d players), protocol %d, %s\n", r.Sockets, r.Players, r.Protocol, r.URL)
	fmt.Fprintf(w, "setup       %.1fs\n", r.SetupSeconds)
	fmt.Fprintf(w, "server rss  %d KiB without sockets, %d KiB with them\n", r.RSSBeforeKiB, r.RSSAfterKiB)
	fmt.Fprintf(w, "per socket  %.1f KiB\n", r.KiBPerSocket)
	fmt.Fprintf(w, "go runtime  heap in use %.0f -> %.0f KiB, stacks %.0f -> %.0f KiB, %.0f -> %.0f goroutines\n",
		r.Go.HeapBeforeKiB, r.Go.HeapAfterKiB, r.Go.StackBeforeKiB, r.Go.StackAfterKiB, r.Go.GoroutinesBefore, r.Go.GoroutinesAfter)
	fmt.Fprintf(w, "per socket  heap %.1f KiB, stacks %.1f KiB, %.2f goroutines\n", r.Go.HeapKiBPerSocket, r.Go.StackKiBPerSocket, r.Go.GoroutinesPerSocket)
	fmt.Fprintf(w, "errors      %s\n", client.ErrorList(r.Errors))
}

// Idle opens cfg.Sockets game sockets (eight per player, on one solo game
// of that player) and leaves them idle, to measure what an idle socket
// costs the server (cfg.PIDs: one process on this machine).
func Idle(ctx context.Context, cfg Config) (*IdleReport, error) {
	pid, err := cfg.pid("idle")
	if err != nil {
		return nil, err
	}
	rep := &IdleReport{URL: cfg.Base, Mode: "idle", Protocol: cfg.Protocol, Errors: map[string]int{}}
	hc := newHTTPClient()
	defer hc.CloseIdleConnections()
	start := time.Now()
	setupCtx, cancel := context.WithTimeout(ctx, cfg.Setup)
	defer cancel()

	// The players and their games, created in parallel (the server limits
	// sign-ups per address: a refusal waits a second and tries again).
	players := (cfg.Sockets + socketsPerPlayer - 1) / socketsPerPlayer
	type seat struct{ token, game string }
	seats := make([]seat, players)
	errs := &tally{counts: rep.Errors}
	client.Parallel(16, len(seats), func(i int) {
		errs.tryUntil(setupCtx, func() error {
			var p struct{ Token string }
			var g struct{ ID string }
			err := client.PostJSON(setupCtx, hc, cfg.Base+"/api/v1/players", "", []byte(`{"name":"idle"}`), &p)
			if err == nil {
				err = client.PostJSON(setupCtx, hc, cfg.Base+"/api/v1/games", p.Token, []byte(`{"draw":1}`), &g)
			}
			if err == nil {
				seats[i] = seat{p.Token, g.ID}
			}
			return err
		})
	})
	if err := setupCtx.Err(); err != nil {
		return nil, fmt.Errorf("load: making %d players within --setup-timeout %v: %w", players, cfg.Setup, err)
	}
	rep.Players = players
	time.Sleep(2 * time.Second) // let the server settle after the requests
	before, err := measure(setupCtx, hc, cfg.Base, pid)
	if err != nil {
		return nil, err
	}

	conns := make([]*websocket.Conn, 0, cfg.Sockets)
	defer func() {
		for _, c := range conns {
			c.CloseNow()
		}
	}()
	for i := 0; i < cfg.Sockets; i++ {
		s := seats[i/socketsPerPlayer]
		u := client.SocketURL(cfg.Base, s.game, cfg.Protocol >= 2)
		c, _, err := websocket.Dial(setupCtx, u, &websocket.DialOptions{HTTPClient: hc,
			HTTPHeader: http.Header{"Authorization": {"Bearer " + s.token}}})
		if err != nil {
			return nil, fmt.Errorf("load: socket %d: %w", i+1, err)
		}
		// Read the first state, then leave the socket to a reader that
		// answers the heartbeat (a ping is read by a Read in progress).
		if _, _, err := c.Read(setupCtx); err != nil {
			return nil, fmt.Errorf("load: socket %d: %w", i+1, err)
		}
		conns = append(conns, c)
		go func() {
			for {
				if _, _, err := c.Read(context.Background()); err != nil {
					return
				}
			}
		}()
	}
	rep.SetupSeconds = time.Since(start).Seconds()
	client.Sleep(ctx, cfg.Duration)
	after, err := measure(ctx, hc, cfg.Base, pid)
	if err != nil {
		return nil, err
	}
	rep.Sockets = len(conns)
	rep.RSSBeforeKiB, rep.RSSAfterKiB = before.rssKiB, after.rssKiB
	n := float64(len(conns))
	rep.KiBPerSocket = float64(after.rssKiB-before.rssKiB) / n
	goBefore, goAfter := before.goRuntime, after.goRuntime
	rep.Go = IdleRuntime{
		Runtime:          runtimeOf(before, after),
		GoroutinesBefore: goBefore[2], GoroutinesAfter: goAfter[2],
		HeapKiBPerSocket:    (goAfter[0] - goBefore[0]) / 1024 / n,
		StackKiBPerSocket:   (goAfter[1] - goBefore[1]) / 1024 / n,
		GoroutinesPerSocket: (goAfter[2] - goBefore[2]) / n,
	}
	return rep, nil
}
