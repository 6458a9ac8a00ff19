// Command pageload measures how fast the solo page loads in headless
// Chromium: its first contentful paint, when the table is drawn, and the
// bytes and requests of the page and its files (the API's calls left out),
// on a cold load (a fresh browser profile, empty cache) and a warm one (the
// same profile visiting again). It measures several servers round after
// round, in an order that alternates, and prints the medians, so that two
// builds are compared under the same load of a shared machine.
//
//	pageload [-rounds 9] [-path /?code=DS1-D1N-AAAAAAB] [-rtt 0s] [-mbps 0] NAME=BINARY|URL ...
//
// A BINARY is started as "BINARY serve" on a loopback port with a SQLite
// database of its own in a temporary folder; a URL is a server already
// running. Each server first serves one load that is not counted, so that
// what a process does once (its database's first queries, compressing a
// file at its first request) is not in the figures. -rtt and -mbps make
// Chromium emulate a slower network. `make pageload` builds the server at a
// commit and the working tree and compares them.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"dsol/internal/chromium"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "pageload:", err)
		os.Exit(1)
	}
}

type options struct {
	rounds   int
	path     string
	rtt      time.Duration
	mbps     float64
	chromium string
}

func run(args []string) error {
	var o options
	fl := flag.NewFlagSet("pageload", flag.ContinueOnError)
	fl.Usage = func() {
		fmt.Fprintln(fl.Output(), "usage: pageload [flags] NAME=BINARY|URL ...")
		fl.PrintDefaults()
	}
	fl.IntVar(&o.rounds, "rounds", 9, "rounds; each measures every server once, cold then warm")
	fl.StringVar(&o.path, "path", "/?code=DS1-D1N-AAAAAAB", "the page to load")
	fl.DurationVar(&o.rtt, "rtt", 0, "emulated round-trip time (0: loopback as it is)")
	fl.Float64Var(&o.mbps, "mbps", 0, "emulated download and upload speed in Mbit/s (0: unthrottled)")
	fl.StringVar(&o.chromium, "chromium", chromiumPath(), "the Chromium binary")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() == 0 || o.rounds < 1 {
		fl.Usage()
		return errors.New("name at least one server, and at least one round")
	}
	tmp, err := os.MkdirTemp("", "dsol-pageload-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	var servers []*server
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	for _, arg := range fl.Args() {
		name, target, ok := strings.Cut(arg, "=")
		if !ok || name == "" || target == "" {
			return fmt.Errorf("%q: want NAME=BINARY or NAME=URL", arg)
		}
		s, err := startServer(name, target, tmp)
		if err != nil {
			return err
		}
		servers = append(servers, s)
	}

	browser, stop, err := chromium.Start(o.chromium, filepath.Join(tmp, "chromium"))
	if err != nil {
		return err
	}
	defer stop()

	for _, s := range servers {
		if _, _, err := visit(browser, s.url+o.path, o); err != nil {
			return fmt.Errorf("%s: the first load: %w", s.name, err)
		}
	}
	for r := range o.rounds {
		order := slices.Clone(servers)
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, s := range order {
			cold, warm, err := visit(browser, s.url+o.path, o)
			if err != nil {
				return fmt.Errorf("%s, round %d: %w", s.name, r+1, err)
			}
			s.cold, s.warm = append(s.cold, cold), append(s.warm, warm)
			fmt.Fprintf(os.Stderr, "round %d %-10s cold %s | warm %s\n", r+1, s.name, cold, warm)
		}
	}
	report(servers, o)
	return nil
}

func chromiumPath() string {
	if p := os.Getenv("DSOL_CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return "chromium"
}

// server is one server measured, and its loads.
type server struct {
	name, url  string
	cmd        *exec.Cmd // nil for a server already running
	cold, warm []load
}

func startServer(name, target, tmp string) (*server, error) {
	s := &server{name: name, url: strings.TrimSuffix(target, "/")}
	if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") {
		return s, nil
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(tmp, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	logf, err := os.Create(filepath.Join(dir, "log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	s.cmd = exec.Command(target, "serve", "--addr", addr, "--db", "sqlite:"+filepath.Join(dir, "dsol.db"))
	s.cmd.Dir = dir
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	for _, kv := range os.Environ() {
		// The server's settings are the defaults, whatever this shell has.
		if !strings.HasPrefix(kv, "DSOL_") && !strings.HasPrefix(kv, "DATABASE_URL=") {
			s.cmd.Env = append(s.cmd.Env, kv)
		}
	}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s.url = "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		res, err := http.Get(s.url + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("%s did not get ready in 30 s (log in %s)", name, logf.Name())
		}
	}
}

// freeAddr finds a loopback port nothing listens on.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func (s *server) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
	s.cmd = nil
}

// load is what one page load cost.
type load struct {
	FCP      float64 `json:"fcp"`      // first contentful paint, ms after navigation start
	Ready    float64 `json:"ready"`    // the table drawn (data-ready with a view), ms
	Bytes    float64 `json:"bytes"`    // transferred for the page and its files, headers included
	Requests int     `json:"requests"` // of those, the ones the server answered (a 304 too)
	Cached   int     `json:"cached"`   // and the ones the browser's cache answered
}

func (l load) String() string {
	return fmt.Sprintf("FCP %4.0f ms, table %4.0f ms, %6.0f B in %2d requests (%2d cached)", l.FCP, l.Ready, l.Bytes, l.Requests, l.Cached)
}

// markReady records when the table is first drawn.
const markReady = `new MutationObserver((_, o) => {
  if (document.body?.dataset.ready === "1" && document.body.dataset.seq) { window.__readyAt = performance.now(); o.disconnect(); }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-ready', 'data-seq']});`

// measured reads the figures of the page once it is drawn and loaded.
const measured = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
  const files = performance.getEntriesByType('resource').filter((r) => !new URL(r.name).pathname.startsWith('/api/'));
  const all = [nav, ...files];
  return JSON.stringify({fcp: fcp.startTime, ready: window.__readyAt,
    bytes: all.reduce((s, r) => s + r.transferSize, 0),
    requests: all.filter((r) => r.transferSize > 0).length,
    cached: all.filter((r) => r.transferSize === 0).length});
})()`

const loaded = `window.__readyAt > 0 && performance.getEntriesByType('navigation')[0]?.loadEventEnd > 0 &&
  performance.getEntriesByType('paint').some((e) => e.name === 'first-contentful-paint')`

// visit loads url in a fresh browser context (its own cache, cookies and
// storage: a first visit), then again after a blank page (a second visit).
func visit(browser context.Context, url string, o options) (cold, warm load, err error) {
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	defer cancel()
	ctx, tcancel := context.WithTimeout(ctx, 60*time.Second)
	defer tcancel()
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: markReady}); err != nil {
			return err
		}
		if o.rtt == 0 && o.mbps == 0 {
			return nil
		}
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		rate := -1.0
		if o.mbps > 0 {
			rate = o.mbps * 1e6 / 8
		}
		_, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Latency: float64(o.rtt.Milliseconds()), DownloadThroughput: rate, UploadThroughput: rate}},
		})
		return err
	}))
	if err != nil {
		return cold, warm, err
	}
	if cold, err = measure(ctx, url); err != nil {
		return cold, warm, fmt.Errorf("cold: %w", err)
	}
	if err = chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		return cold, warm, err
	}
	if warm, err = measure(ctx, url); err != nil {
		return cold, warm, fmt.Errorf("warm: %w", err)
	}
	return cold, warm, nil
}

func measure(ctx context.Context, url string) (load, error) {
	var l load
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return l, err
	}
	// A poll that starts while the previous document goes away loses its
	// execution context: poll again in the new one.
	for tries := 0; ; tries++ {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](loaded, chromedp.WithPollingInterval(10*time.Millisecond)))
		if err == nil {
			break
		}
		if tries == 5 || ctx.Err() != nil || !strings.Contains(err.Error(), "context") {
			return l, fmt.Errorf("waiting for the table and the load event: %w", err)
		}
	}
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](measured))
	if err != nil {
		return l, err
	}
	return l, json.Unmarshal([]byte(s), &l)
}

// report prints the medians of every server as a Markdown table.
func report(servers []*server, o options) {
	link := "loopback"
	if o.rtt > 0 || o.mbps > 0 {
		link = fmt.Sprintf("emulated %v round trip, %g Mbit/s", o.rtt, o.mbps)
	}
	fmt.Printf("\n%s, %s, medians of %d rounds\n\n", o.path, link, o.rounds)
	fmt.Println("| server | cold FCP | cold table | cold bytes | cold requests | warm FCP | warm table | warm bytes | warm requests (cached) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, s := range servers {
		c, w := medians(s.cold), medians(s.warm)
		fmt.Printf("| %s | %.0f ms | %.0f ms | %.0f B | %d | %.0f ms | %.0f ms | %.0f B | %d (%d) |\n",
			s.name, c.FCP, c.Ready, c.Bytes, c.Requests, w.FCP, w.Ready, w.Bytes, w.Requests, w.Cached)
	}
}

// medians takes the median of each figure on its own.
func medians(ls []load) load {
	f := func(get func(load) float64) float64 {
		v := make([]float64, len(ls))
		for i, l := range ls {
			v[i] = get(l)
		}
		slices.Sort(v)
		if len(v)%2 == 1 {
			return v[len(v)/2]
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return load{
		FCP:      f(func(l load) float64 { return l.FCP }),
		Ready:    f(func(l load) float64 { return l.Ready }),
		Bytes:    f(func(l load) float64 { return l.Bytes }),
		Requests: int(f(func(l load) float64 { return float64(l.Requests) }) + 0.5),
		Cached:   int(f(func(l load) float64 { return float64(l.Cached) }) + 0.5),
	}
}
