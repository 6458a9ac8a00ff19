package load

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

	"dsol/internal/cli"
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
	// Go is what the server's Go runtime reports on /metrics at the same
	// two moments (heap and goroutine stacks in use, goroutines): less
	// noisy than the RSS, which holds the heap's garbage not yet
	// collected and the memory the runtime has not yet given back.
	Go           idleRuntime `json:"go"`
	SetupSeconds float64     `json:"setupSeconds"`
	Protocol     int         `json:"protocol"`
	Errors       map[string]int
}

// idleRuntime is the Go runtime's share of an idle run: heap and stacks in
// use before and after, and per socket.
type idleRuntime struct {
	HeapBeforeKiB       float64 `json:"heapInuseBeforeKiB"`
	HeapAfterKiB        float64 `json:"heapInuseAfterKiB"`
	StackBeforeKiB      float64 `json:"stackInuseBeforeKiB"`
	StackAfterKiB       float64 `json:"stackInuseAfterKiB"`
	GoroutinesBefore    float64 `json:"goroutinesBefore"`
	GoroutinesAfter     float64 `json:"goroutinesAfter"`
	HeapKiBPerSocket    float64 `json:"heapKiBPerSocket"`
	StackKiBPerSocket   float64 `json:"stackKiBPerSocket"`
	GoroutinesPerSocket float64 `json:"goroutinesPerSocket"`
}

// runtimeMetrics are the series idleRuntime reads, in its order.
var runtimeMetrics = []string{"go_memstats_heap_inuse_bytes", "go_memstats_stack_inuse_bytes", "go_goroutines"}

// readRuntime reads runtimeMetrics from the server's /metrics.
func readRuntime(ctx context.Context, hc *http.Client, base string) ([]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("load: the server's /metrics: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("load: GET %s/metrics: %s", base, res.Status)
	}
	return metricValues(res.Body, runtimeMetrics...)
}

func (r *idleReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "dsol load: idle, %d sockets (%d players), protocol %d, %s\n", r.Sockets, r.Players, r.Protocol, r.URL)
	fmt.Fprintf(w, "setup       %.1fs\n", r.SetupSeconds)
	fmt.Fprintf(w, "server rss  %d KiB without sockets, %d KiB with them\n", r.RSSBeforeKiB, r.RSSAfterKiB)
	fmt.Fprintf(w, "per socket  %.1f KiB\n", r.KiBPerSocket)
	fmt.Fprintf(w, "go runtime  heap in use %.0f -> %.0f KiB, stacks %.0f -> %.0f KiB, %.0f -> %.0f goroutines\n",
		r.Go.HeapBeforeKiB, r.Go.HeapAfterKiB, r.Go.StackBeforeKiB, r.Go.StackAfterKiB, r.Go.GoroutinesBefore, r.Go.GoroutinesAfter)
	fmt.Fprintf(w, "per socket  heap %.1f KiB, stacks %.1f KiB, %.2f goroutines\n", r.Go.HeapKiBPerSocket, r.Go.StackKiBPerSocket, r.Go.GoroutinesPerSocket)
	fmt.Fprintf(w, "errors      %s\n", errorList(r.Errors))
}

// runIdle opens --sockets game sockets (eight per player, on one solo game
// of that player) and leaves them idle, to measure what an idle socket costs
// the server (--pid: one process on this machine).
func runIdle(ctx context.Context, cfg config) (*idleReport, error) {
	if len(cfg.pids) != 1 {
		return nil, cli.Usagef("load: --mode idle needs --pid: the server's process, whose memory it reads")
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
	goBefore, err := readRuntime(setupCtx, hc, cfg.base)
	if err != nil {
		return nil, err
	}

	conns := make([]*websocket.Conn, 0, cfg.sockets)
	defer func() {
		for _, c := range conns {
			c.CloseNow()
		}
	}()
	for i := 0; i < cfg.sockets; i++ {
		s := seats[i/socketsPerPlayer]
		u := socketURL(cfg.base, s.game, cfg.protocol >= 2)
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
	goAfter, err := readRuntime(ctx, hc, cfg.base)
	if err != nil {
		return nil, err
	}
	rep.Sockets, rep.RSSAfterKiB = len(conns), after
	n := float64(len(conns))
	rep.KiBPerSocket = float64(after-before) / n
	rep.Go = idleRuntime{
		HeapBeforeKiB: goBefore[0] / 1024, HeapAfterKiB: goAfter[0] / 1024,
		StackBeforeKiB: goBefore[1] / 1024, StackAfterKiB: goAfter[1] / 1024,
		GoroutinesBefore: goBefore[2], GoroutinesAfter: goAfter[2],
		HeapKiBPerSocket:    (goAfter[0] - goBefore[0]) / 1024 / n,
		StackKiBPerSocket:   (goAfter[1] - goBefore[1]) / 1024 / n,
		GoroutinesPerSocket: (goAfter[2] - goBefore[2]) / n,
	}
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
