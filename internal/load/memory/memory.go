// Package memory is the two modes of dsol load that measure what the
// server's memory holds: --mode idle, its memory per idle game socket, and
// --mode games, its memory per live game. Both read the resident memory of
// the server's process on this machine and the Go runtime's figures of its
// /metrics, before and after.
package memory

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"dsol/internal/cli"
	"dsol/internal/load/client"
)

// Config is what the memory modes take of dsol load's command line.
type Config struct {
	Base     string        // the server's base URL, without a trailing slash (--url)
	PIDs     []int         // the server's process, whose memory is read: one (--pid)
	Setup    time.Duration // bound on the setup (--setup-timeout)
	Duration time.Duration // how long the sockets or games are left before the second measure
	Protocol int           // idle: the socket protocol, 1 or 2 (--protocol)
	Sockets  int           // idle: sockets to open (--sockets)
	Clients  int           // games: games built at once (--clients)
	Games    int           // games: games to build (--games)
	Actions  int           // games: actions of each (--actions)
	IDs      string        // games: the file the built games are written to (--ids)
	Wake     string        // games: the file of an earlier build's games, to wake instead of building (--wake)
	Added    bool          // games: with Wake, the server holds live tables already; measure what the file's add (--added)
}

// pid is the server's process, which mode needs.
func (c *Config) pid(mode string) (int, error) {
	if len(c.PIDs) != 1 {
		return 0, cli.Usagef("load: --mode %s needs --pid: the server's process, whose memory it reads", mode)
	}
	return c.PIDs[0], nil
}

// newHTTPClient is the HTTP client of a run: no proxy (only ever the given
// URL), and connections kept for the workers of the setup.
func newHTTPClient() *http.Client {
	return &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 64}}
}

// runtimeMetrics are the series a sample reads of the server's /metrics,
// in the order of sample.goRuntime.
var runtimeMetrics = []string{"go_memstats_heap_inuse_bytes", "go_memstats_stack_inuse_bytes", "go_goroutines"}

// sample is the server's memory at one moment: its resident memory and
// what its Go runtime reports (runtimeMetrics: heap and goroutine stacks in
// use, in bytes, and goroutines).
type sample struct {
	rssKiB    int64
	goRuntime []float64
}

// Runtime is what the server's Go runtime reported on /metrics at the two
// measures of a run: heap and goroutine stacks in use, in KiB.
type Runtime struct {
	HeapBeforeKiB  float64 `json:"heapInuseBeforeKiB"`
	HeapAfterKiB   float64 `json:"heapInuseAfterKiB"`
	StackBeforeKiB float64 `json:"stackInuseBeforeKiB"`
	StackAfterKiB  float64 `json:"stackInuseAfterKiB"`
}

// runtimeOf is the Runtime of two samples.
func runtimeOf(before, after sample) Runtime {
	return Runtime{
		HeapBeforeKiB: before.goRuntime[0] / 1024, HeapAfterKiB: after.goRuntime[0] / 1024,
		StackBeforeKiB: before.goRuntime[1] / 1024, StackAfterKiB: after.goRuntime[1] / 1024,
	}
}

// measure reads the resident memory of the process pid, then
// runtimeMetrics from the server's /metrics.
func measure(ctx context.Context, hc *http.Client, base string, pid int) (sample, error) {
	rss, err := client.RSSKiB(pid)
	if err != nil {
		return sample{}, err
	}
	rt, err := readRuntime(ctx, hc, base)
	if err != nil {
		return sample{}, err
	}
	return sample{rssKiB: rss, goRuntime: rt}, nil
}

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
	return client.MetricValues(res.Body, runtimeMetrics...)
}

// tally counts the errors of a setup by code, for workers at once.
type tally struct {
	mu     sync.Mutex
	counts map[string]int
}

// count counts err by its code.
func (t *tally) count(err error) {
	t.mu.Lock()
	t.counts[client.CodeOf(err)]++
	t.mu.Unlock()
}

// tryUntil calls f until it succeeds or ctx ends, counting each error and
// waiting client.RateLimitPause before the next try (the server limits
// sign-ups per address, and sockets per player).
func (t *tally) tryUntil(ctx context.Context, f func() error) {
	for ctx.Err() == nil {
		err := f()
		if err == nil {
			return
		}
		t.count(err)
		client.Sleep(ctx, client.RateLimitPause)
	}
}
