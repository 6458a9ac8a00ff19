package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// socketsPerPlayer is how many sockets the idle mode opens per player: the
// server's default cap per player is 8.
const socketsPerPlayer = 8

// idleReport is what --mode idle measured: the server's resident memory
// before and after opening the sockets, and per socket.
type idleReport struct {
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
	SetupSeconds float64 `json:"setupSeconds"`
	Protocol     int     `json:"protocol"`
	Errors       map[string]int
}

func (r *idleReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "dsol load: idle, %d sockets (%d players), protocol %d, %s\n", r.Sockets, r.Players, r.Protocol, r.URL)
	fmt.Fprintf(w, "setup       %.1fs\n", r.SetupSeconds)
	fmt.Fprintf(w, "server rss  %d KiB without sockets, %d KiB with them\n", r.RSSBeforeKiB, r.RSSAfterKiB)
	fmt.Fprintf(w, "per socket  %.1f KiB\n", r.KiBPerSocket)
	fmt.Fprintf(w, "errors      %s\n", errorList(r.Errors))
}

// idleRun opens --sockets game sockets (eight per player, on one solo game
// of that player) and leaves them idle, to measure what an idle socket costs
// the server (--pid: one process on this machine).
func idleRun(ctx context.Context, cfg loadConfig) (*idleReport, error) {
	if len(cfg.pids) != 1 {
		return nil, usagef("load: --mode idle needs --pid: the server's process, whose memory it reads")
	}
	pid := cfg.pids[0]
	rep := &idleReport{URL: cfg.base, Mode: cfg.mode, Protocol: cfg.protocol, Errors: map[string]int{}}
	hc := &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 64}}
	defer hc.CloseIdleConnections()
	start := time.Now()
	setupCtx, cancel := context.WithTimeout(ctx, cfg.setup)
	defer cancel()

	// The players and their games, created in parallel (the server limits
	// sign-ups per address: a refusal waits a second and tries again).
	players := (cfg.sockets + socketsPerPlayer - 1) / socketsPerPlayer
	type seat struct{ token, game string }
	seats := make([]seat, players)
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan int)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				for setupCtx.Err() == nil {
					var p struct{ Token string }
					var g struct{ ID string }
					err := postJSON(setupCtx, hc, cfg.base+"/api/v1/players", "", []byte(`{"name":"idle"}`), &p)
					if err == nil {
						err = postJSON(setupCtx, hc, cfg.base+"/api/v1/games", p.Token, []byte(`{"draw":1}`), &g)
					}
					if err == nil {
						seats[i] = seat{p.Token, g.ID}
						break
					}
					mu.Lock()
					rep.Errors[codeOf(err)]++
					mu.Unlock()
					sleep(setupCtx, rateLimitPause)
				}
			}
		}()
	}
	for i := range seats {
		work <- i
	}
	close(work)
	wg.Wait()
	if err := setupCtx.Err(); err != nil {
		return nil, fmt.Errorf("load: making %d players within --setup-timeout %v: %w", players, cfg.setup, err)
	}
	rep.Players = players
	time.Sleep(2 * time.Second) // let the server settle after the requests
	before, err := rssKiB(pid)
	if err != nil {
		return nil, err
	}
	rep.RSSBeforeKiB = before

	conns := make([]*websocket.Conn, 0, cfg.sockets)
	defer func() {
		for _, c := range conns {
			c.CloseNow()
		}
	}()
	q := ""
	if cfg.protocol >= 2 {
		q = "?v=2"
	}
	for i := 0; i < cfg.sockets; i++ {
		s := seats[i/socketsPerPlayer]
		u := "ws" + strings.TrimPrefix(cfg.base, "http") + "/api/v1/games/" + s.game + "/ws" + q
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
	sleep(ctx, cfg.duration)
	after, err := rssKiB(pid)
	if err != nil {
		return nil, err
	}
	rep.Sockets, rep.RSSAfterKiB = len(conns), after
	rep.KiBPerSocket = float64(after-before) / float64(len(conns))
	return rep, nil
}

// rssKiB reads the resident memory of a process of this machine.
func rssKiB(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, fmt.Errorf("load: the server's memory: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "VmRSS:" {
			return strconv.ParseInt(f[1], 10, 64)
		}
	}
	return 0, fmt.Errorf("load: no VmRSS in /proc/%d/status", pid)
}
