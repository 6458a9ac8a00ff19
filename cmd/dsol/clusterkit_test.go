package main

// Real processes for the cluster tests: dsol binaries built from a source
// tree and run as separate `dsol serve` processes on one PostgreSQL schema,
// Debian's nginx on the shipped deploy/nginx/dsol.conf in front of them, the
// nodes' Prometheus metrics and the alert rules of deploy/prometheus.

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"dsol/internal/testenv"
)

// repoRoot is the module root as seen from this package's directory, where
// go test runs the tests.
const repoRoot = "../.."

// goTool returns the go command that builds the binaries.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	if root := os.Getenv("GOROOT"); root != "" {
		return filepath.Join(root, "bin", "go")
	}
	return "go"
}

// buildDsol builds ./cmd/dsol of the source tree src into out, with the
// flags of a plain go build so that the build cache serves it.
func buildDsol(src, out string) error {
	cmd := exec.Command(goTool(), "build", "-o", out, "./cmd/dsol")
	cmd.Dir = src
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build in %s: %v\n%s", src, err, b)
	}
	return nil
}

// buildCommit builds ./cmd/dsol of a commit of the repository at repo into
// out and returns the commit's short hash and subject. The tree is written
// (git archive, read in Go: no tar binary needed) to a directory named after
// the commit, the same on every run, so that the build cache serves the
// packages of that commit the next time; a lock keeps concurrent runs out of
// each other's way, and the tree is removed afterwards. errNoSource says the
// commit could not be read (not a git checkout, a shallow clone).
func buildCommit(repo, rev, out string) (string, error) {
	b, err := exec.Command("git", "-C", repo, "rev-parse", "--verify", "--quiet", rev+"^{commit}").Output()
	if err != nil {
		return "", fmt.Errorf("%w: git rev-parse %s: %v", errNoSource, rev, gitErr(err))
	}
	hash := strings.TrimSpace(string(b))
	b, err = exec.Command("git", "-C", repo, "log", "-1", "--format=%h %s", hash).Output()
	if err != nil {
		return "", fmt.Errorf("%w: git log %s: %v", errNoSource, rev, gitErr(err))
	}
	desc := strings.TrimSpace(string(b))
	if r := []rune(desc); len(r) > 72 {
		desc = string(r[:71]) + "…"
	}
	lock, err := os.OpenFile(filepath.Join(os.TempDir(), "dsol-prev-build.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return desc, err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return desc, err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	dir := filepath.Join(os.TempDir(), "dsol-prev-"+hash)
	os.RemoveAll(dir)
	defer os.RemoveAll(dir)
	if err := gitArchive(repo, hash, dir); err != nil {
		return desc, fmt.Errorf("%w: %v", errNoSource, err)
	}
	return desc, buildDsol(dir, out)
}

// errNoSource marks a commit whose tree could not be read.
var errNoSource = errors.New("no source")

// gitArchive writes the tree of a commit into dir.
func gitArchive(repo, rev, dir string) error {
	cmd := exec.Command("git", "-C", repo, "archive", "--format=tar", rev)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	terr := untar(pipe, dir)
	io.Copy(io.Discard, pipe)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive %s: %v: %s", rev, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return terr
}

func gitErr(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return fmt.Errorf("%v: %s", err, bytes.TrimSpace(ee.Stderr))
	}
	return err
}

// untar writes the directories and regular files of a tar stream under dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Clean(h.Name)
		if name == "." || filepath.IsAbs(name) || strings.HasPrefix(name, "..") {
			continue
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o755|0o600)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
}

// freePorts returns n distinct free TCP ports on 127.0.0.1 (free when asked:
// the listeners are closed again before the ports are used).
func freePorts(tb testing.TB, n int) []int {
	tb.Helper()
	ports := make([]int, n)
	lns := make([]net.Listener, n)
	for i := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		lns[i] = ln
		ports[i] = ln.Addr().(*net.TCPAddr).Port
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

// ---- dsol processes ----

// procNode is one dsol serve process at a fixed loopback address (the
// nginx upstream), restartable with another binary.
type procNode struct {
	name string
	addr string // 127.0.0.1:port
	base string // http://addr
	db   string
	args []string // extra serve flags
	logs string   // the log file of every run of this node

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when the current run's process has exited
	exit error         // its exit status, once done
}

// start runs the node on bin and waits until it answers /readyz.
func (n *procNode) start(tb testing.TB, bin string) {
	tb.Helper()
	f, err := os.OpenFile(n.logs, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		tb.Fatal(err)
	}
	fmt.Fprintf(f, "---- %s: %s\n", time.Now().Format(time.RFC3339Nano), bin)
	args := append([]string{"serve", "--addr", n.addr, "--db", n.db, "--node", n.name, "--advertise", n.addr,
		"--log-format", "text"}, n.args...)
	cmd := exec.Command(bin, args...)
	// No search for winnable deals: it would take a core of each node; and
	// no bound on the players created from one address, which the tests
	// create by the dozen (in the environment, which a previous build
	// without them ignores).
	cmd.Env = append(os.Environ(), "DSOL_WINNABLE_TARGET=0", "DSOL_ACCOUNTS_PER_HOUR=0")
	cmd.Stdout, cmd.Stderr = f, f
	// The process dies with the test binary, whatever ends it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		f.Close()
		tb.Fatalf("%s: start %s: %v", n.name, bin, err)
	}
	done := make(chan struct{})
	n.mu.Lock()
	n.cmd, n.done, n.exit = cmd, done, nil
	n.mu.Unlock()
	go func() {
		err := cmd.Wait()
		f.Close()
		n.mu.Lock()
		n.exit = err
		n.mu.Unlock()
		close(done)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(n.base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		select {
		case <-done:
			tb.Fatalf("%s exited before it was ready (%v):\n%s", n.name, n.exitErr(), n.logTail(40))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			tb.Fatalf("%s: not ready within 30s (last: %v):\n%s", n.name, err, n.logTail(40))
		}
	}
}

func (n *procNode) exitErr() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.exit
}

// running reports whether the current run's process is alive.
func (n *procNode) running() bool {
	n.mu.Lock()
	done := n.done
	n.mu.Unlock()
	if done == nil {
		return false
	}
	select {
	case <-done:
		return false
	default:
		return true
	}
}

// signal sends sig to the running process and waits up to wait for it to
// exit; it returns the exit status and how long the exit took.
func (n *procNode) signal(sig os.Signal, wait time.Duration) (time.Duration, error) {
	n.mu.Lock()
	cmd, done := n.cmd, n.done
	n.mu.Unlock()
	if cmd == nil {
		return 0, errors.New("not started")
	}
	t0 := time.Now()
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return 0, err
	}
	select {
	case <-done:
		return time.Since(t0), n.exitErr()
	case <-time.After(wait):
		cmd.Process.Kill()
		<-done
		return time.Since(t0), fmt.Errorf("did not exit within %v of %v: killed", wait, sig)
	}
}

// term stops the node gracefully (SIGTERM) and checks that it exited 0.
func (n *procNode) term(tb testing.TB) time.Duration {
	tb.Helper()
	d, err := n.signal(syscall.SIGTERM, 30*time.Second)
	if err != nil {
		tb.Fatalf("%s: SIGTERM: %v\n%s", n.name, err, n.logTail(30))
	}
	return d
}

func isSignalExit(err error, sig syscall.Signal) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

// logTail returns the last lines of the node's log file.
func (n *procNode) logTail(lines int) string {
	b, _ := os.ReadFile(n.logs)
	ls := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(ls) > lines {
		ls = ls[len(ls)-lines:]
	}
	return strings.Join(ls, "\n")
}

// api is the node as the in-process tests' server helper, for call and
// checkOwners.
func (n *procNode) api() *server { return &server{base: n.base} }

// procCluster is dsol processes on one database behind nginx.
type procCluster struct {
	db    string
	nodes []*procNode
	front string // nginx: http://127.0.0.1:port
	nginx *nginxProc
}

// startCluster starts n nodes of bin with the extra serve flags args on a
// fresh PostgreSQL schema, one after the other (the first migrates), and
// nginx in front of them.
func startCluster(t *testing.T, bin string, n int, args ...string) *procCluster {
	t.Helper()
	nginxBin := testenv.Nginx(t)
	c := &procCluster{db: testenv.PostgresSchemaURL(t)}
	ports := freePorts(t, n+1)
	logDir := keptLogs(t)
	for i := range n {
		addr := "127.0.0.1:" + strconv.Itoa(ports[i])
		c.nodes = append(c.nodes, &procNode{name: "dsol-" + strconv.Itoa(i+1), addr: addr, base: "http://" + addr,
			db: c.db, args: args, logs: filepath.Join(logDir, fmt.Sprintf("dsol-%d.log", i+1))})
	}
	t.Cleanup(func() {
		for _, nd := range c.nodes {
			if nd.running() {
				nd.signal(syscall.SIGKILL, 10*time.Second)
			}
		}
		if t.Failed() {
			for _, nd := range c.nodes {
				t.Logf("%s log (last lines):\n%s", nd.name, nd.logTail(25))
			}
		}
	})
	for _, nd := range c.nodes {
		nd.start(t, bin)
	}
	ups := make([]string, n)
	for i, nd := range c.nodes {
		ups[i] = nd.addr
	}
	c.nginx = startNginx(t, nginxBin, ups, ports[n])
	c.front = c.nginx.base
	return c
}

// keptLogs is where a cluster test writes its logs: DSOL_CLUSTER_LOGS/<test
// name> when that is set (kept for a look afterwards), else a temporary
// directory.
func keptLogs(t *testing.T) string {
	t.Helper()
	root := os.Getenv("DSOL_CLUSTER_LOGS")
	if root == "" {
		return t.TempDir()
	}
	dir := filepath.Join(root, strings.ReplaceAll(t.Name(), "/", "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// ---- nginx ----

// nginxProc is nginx run in the foreground from a private prefix.
type nginxProc struct {
	dir  string
	base string
	cmd  *exec.Cmd
	done chan struct{}
}

var (
	upstreamServer = regexp.MustCompile(`^(\s*server\s+)(\S+?)((?:\s[^;]*)?;.*)$`)
	listenLine     = regexp.MustCompile(`^(\s*listen\s+)\S+;`)
)

// nginxConf is deploy/nginx/dsol.conf with the server lines of its upstream
// block replaced by one per address of upstreams, each with the parameters
// the shipped lines give (they must all give the same: max_fails,
// fail_timeout...), and its listen address by listen. Nothing else changes.
func nginxConf(shipped string, upstreams []string, listen string) (string, error) {
	var out []string
	inUp, servers, listens := false, 0, 0
	params := ""
	for _, l := range strings.Split(shipped, "\n") {
		trim := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(trim, "upstream "):
			inUp = true
		case inUp && strings.HasPrefix(trim, "}"):
			inUp = false
		case inUp && upstreamServer.MatchString(l):
			m := upstreamServer.FindStringSubmatch(l)
			if servers > 0 && m[3] != params {
				return "", fmt.Errorf("dsol.conf: the upstream servers differ in their parameters (%q, %q)", params, m[3])
			}
			if servers == 0 {
				params = m[3]
				for _, u := range upstreams {
					out = append(out, m[1]+u+m[3])
				}
			}
			servers++
			continue
		case !inUp && listenLine.MatchString(l):
			l = listenLine.ReplaceAllString(l, "${1}"+listen+";")
			listens++
		}
		out = append(out, l)
	}
	if servers == 0 || listens != 1 {
		return "", fmt.Errorf("dsol.conf: %d upstream servers and %d listen lines, want some and 1", servers, listens)
	}
	return strings.Join(out, "\n"), nil
}

// startNginx runs nginx on the shipped dsol.conf, included in the http block
// of a main configuration whose paths are all under a private prefix (as
// .ci/deploy-check.sh does), listening on 127.0.0.1:port and proxying to
// upstreams; it waits until /healthz answers through it.
func startNginx(t *testing.T, bin string, upstreams []string, port int) *nginxProc {
	t.Helper()
	shipped, err := os.ReadFile(filepath.Join(repoRoot, "deploy", "nginx", "dsol.conf"))
	if err != nil {
		t.Fatal(err)
	}
	listen := "127.0.0.1:" + strconv.Itoa(port)
	conf, err := nginxConf(string(shipped), upstreams, listen)
	if err != nil {
		t.Fatal(err)
	}
	// nginx's workers run as another user when the master is root: the
	// prefix must be readable by them (t.TempDir is private).
	dir, err := os.MkdirTemp("", "dsol-nginx-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mainConf := fmt.Sprintf(`worker_processes 1;
error_log %[1]s/error.log warn;
pid %[1]s/nginx.pid;
events { worker_connections 1024; }
http {
    log_format dsol '$time_iso8601 $status $request_method $uri upstream=$upstream_addr status=$upstream_status $request_time';
    access_log %[1]s/access.log dsol;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    include %[1]s/dsol.conf;
}
`, dir)
	if err := os.WriteFile(filepath.Join(dir, "dsol.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(mainConf), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"-p", dir, "-e", dir + "/error.log", "-c", dir + "/nginx.conf"}
	if b, err := exec.Command(bin, append(base, "-t", "-q")...).CombinedOutput(); err != nil {
		t.Fatalf("nginx -t: %v\n%s", err, b)
	}
	cmd := exec.Command(bin, append(base, "-g", "daemon off;")...)
	var out testenv.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Its own process group, so that the workers go with the master.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &nginxProc{dir: dir, base: "http://" + listen, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-p.done
		}
		if keep := os.Getenv("DSOL_CLUSTER_LOGS"); keep != "" {
			for _, f := range []string{"error.log", "access.log"} {
				if b, err := os.ReadFile(filepath.Join(dir, f)); err == nil {
					os.WriteFile(filepath.Join(keptLogs(t), "nginx-"+f), b, 0o644)
				}
			}
		}
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Logf("nginx error.log:\n%s%s", tail(string(b), 30), out.String())
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := http.Get(p.base + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return p
			}
		}
		select {
		case <-p.done:
			t.Fatalf("nginx exited: %s", out.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx: /healthz did not answer 200 within 10s (last: %v %v)", res, err)
		}
	}
}

func tail(s string, lines int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > lines {
		ls = ls[len(ls)-lines:]
	}
	return strings.Join(ls, "\n") + "\n"
}

// ---- metrics ----

// sample is one series of a scrape: its name, labels and value.
type sample struct {
	name   string
	labels map[string]string
	value  float64
}

// scrape is a node's /metrics at one moment.
type scrape []sample

// sampleLine is one sample: a name, labels (whose quoted values may hold
// braces: route="/api/v1/games/{id}") and a value.
var sampleLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[^"}]|"(?:[^"\\]|\\.)*")*\})?\s+(\S+)`)
var labelPair = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"`)

// scrapeNode reads a node's metrics in the Prometheus text format.
func scrapeNode(ctx context.Context, base string) (scrape, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		return nil, fmt.Errorf("GET %s/metrics: %s", base, res.Status)
	}
	var out scrape
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		m := sampleLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			continue
		}
		s := sample{name: m[1], labels: map[string]string{}, value: v}
		for _, lp := range labelPair.FindAllStringSubmatch(m[2], -1) {
			s.labels[lp[1]] = lp[2]
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// sum adds the values of the series of a name whose labels pass keep (nil:
// all).
func (s scrape) sum(name string, keep func(map[string]string) bool) float64 {
	var v float64
	for _, x := range s {
		if x.name == name && (keep == nil || keep(x.labels)) {
			v += x.value
		}
	}
	return v
}

// delta is what the counters of a name (filtered by keep) grew by from a
// to b.
func delta(a, b scrape, name string, keep func(map[string]string) bool) float64 {
	return b.sum(name, keep) - a.sum(name, keep)
}

// histogramQuantile is histogram_quantile over the growth of a histogram's buckets
// from a to b, summed over nodes: (from[i], to[i]) pairs.
func histogramQuantile(q float64, name string, from, to []scrape) float64 {
	counts := map[float64]float64{}
	for i := range to {
		for _, x := range to[i] {
			if x.name != name+"_bucket" {
				continue
			}
			le, err := strconv.ParseFloat(x.labels["le"], 64)
			if err != nil {
				continue
			}
			counts[le] += x.value
		}
		for _, x := range from[i] {
			if x.name != name+"_bucket" {
				continue
			}
			if le, err := strconv.ParseFloat(x.labels["le"], 64); err == nil {
				counts[le] -= x.value
			}
		}
	}
	les := make([]float64, 0, len(counts))
	for le := range counts {
		les = append(les, le)
	}
	sort.Float64s(les)
	if len(les) == 0 || counts[les[len(les)-1]] <= 0 {
		return math.NaN()
	}
	total := counts[les[len(les)-1]]
	rank := q * total
	prevLe, prevCount := 0.0, 0.0
	for _, le := range les {
		c := counts[le]
		if c >= rank {
			if math.IsInf(le, 1) {
				return prevLe // Prometheus answers the highest finite bound
			}
			if c == prevCount {
				return le
			}
			return prevLe + (le-prevLe)*(rank-prevCount)/(c-prevCount)
		}
		prevLe, prevCount = le, c
	}
	return prevLe
}

// ---- alert rules ----

// alertRule is one alerting rule of deploy/prometheus/rules.yml.
type alertRule struct {
	Alert string `json:"alert"`
	Expr  string `json:"expr"`
	For   string `json:"for"`
}

// alertRules reads the alerting rules shipped in deploy/prometheus/rules.yml.
func alertRules(tb testing.TB) []alertRule {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "deploy", "prometheus", "rules.yml"))
	if err != nil {
		tb.Fatal(err)
	}
	var f struct {
		Groups []struct {
			Rules []alertRule `json:"rules"`
		} `json:"groups"`
	}
	if err := yaml.Unmarshal(b, &f); err != nil {
		tb.Fatalf("rules.yml: %v", err)
	}
	var out []alertRule
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if r.Alert != "" {
				out = append(out, r)
			}
		}
	}
	return out
}

var alertCondition = regexp.MustCompile(`^(.*?)\s*(==|!=|>=|<=|>|<)\s*([-+0-9.eE]+)\s*$`)

// threshold splits an alert expression "EXPR OP NUMBER" into its parts.
func (r alertRule) threshold() (expr, op string, limit float64, err error) {
	m := alertCondition.FindStringSubmatch(strings.TrimSpace(r.Expr))
	if m == nil {
		return "", "", 0, fmt.Errorf("alert %s: %q is not EXPR OP NUMBER", r.Alert, r.Expr)
	}
	limit, err = strconv.ParseFloat(m[3], 64)
	return m[1], m[2], limit, err
}

// fires reports whether value meets the alert condition op limit.
func fires(value float64, op string, limit float64) bool {
	if math.IsNaN(value) {
		return false // no data: Prometheus returns no series, nothing fires
	}
	switch op {
	case "==":
		return value == limit
	case "!=":
		return value != limit
	case ">":
		return value > limit
	case ">=":
		return value >= limit
	case "<":
		return value < limit
	case "<=":
		return value <= limit
	}
	return false
}

// alertWindow is what the alert rules are evaluated on: each live node's
// metrics at the start and at the end of a window, and whether each answered
// its scrapes (the "up" of Prometheus). With report set, alerts that would
// fire are only logged.
type alertWindow struct {
	name     string
	nodes    []string
	from, to []scrape
	up       []bool
	seconds  float64
	report   bool
}

// checkAlerts evaluates every alert rule of rules.yml on the window and
// fails the test for each that would fire (unless the window only reports);
// an alert whose expression it does not know fails too, so that a new rule
// is given its check here. The `for` durations are not waited out: a
// condition that holds over the window counts as firing. Latency alerts
// (histogram_quantile) are evaluated and logged but do not fail the test:
// the latency of a loaded test machine says nothing about the cluster.
func checkAlerts(t *testing.T, w alertWindow) {
	t.Helper()
	var summary []string
	for _, r := range alertRules(t) {
		expr, op, limit, err := r.threshold()
		if err != nil {
			t.Error(err)
			continue
		}
		var values []float64 // one per node, or one for the cluster
		var what string
		latency := false
		switch {
		case strings.HasPrefix(expr, "up{"):
			what = "up"
			for _, u := range w.up {
				values = append(values, map[bool]float64{true: 1, false: 0}[u])
			}
		case strings.HasPrefix(expr, "rate(") && strings.HasSuffix(expr, "[5m])"):
			name := strings.TrimSuffix(strings.TrimPrefix(expr, "rate("), "[5m])")
			what = "rate of " + name
			for i := range w.to {
				values = append(values, delta(w.from[i], w.to[i], name, nil)/w.seconds)
			}
		case strings.HasPrefix(expr, "histogram_quantile(0.99, sum by (le) (rate(") && strings.HasSuffix(expr, "_bucket[5m])))"):
			name := strings.TrimSuffix(strings.TrimPrefix(expr, "histogram_quantile(0.99, sum by (le) (rate("), "_bucket[5m])))")
			what, latency = "p99 of "+name, true
			values = append(values, histogramQuantile(0.99, name, w.from, w.to))
		case expr == `sum(rate(dsol_http_requests_total{status=~"5.."}[5m])) / sum(rate(dsol_http_requests_total[5m]))`:
			what = "share of 5xx answers"
			var bad, all float64
			for i := range w.to {
				bad += delta(w.from[i], w.to[i], "dsol_http_requests_total", func(l map[string]string) bool { return strings.HasPrefix(l["status"], "5") })
				all += delta(w.from[i], w.to[i], "dsol_http_requests_total", nil)
			}
			v := math.NaN()
			if all > 0 {
				v = bad / all
			}
			values = append(values, v)
			what += fmt.Sprintf(" (%.0f of %.0f)", bad, all)
		default:
			t.Errorf("alert %s: its expression %q is not one this test evaluates: add it to checkAlerts", r.Alert, r.Expr)
			continue
		}
		var shown []string
		for i, v := range values {
			shown = append(shown, strconv.FormatFloat(v, 'g', 3, 64))
			if fires(v, op, limit) {
				where := "the cluster"
				if len(values) == len(w.nodes) {
					where = w.nodes[i]
				}
				report := t.Errorf
				if latency || w.report {
					report = t.Logf
				}
				report("%s: alert %s would fire on %s: %s %s %s %g", w.name, r.Alert, where, what, strconv.FormatFloat(v, 'g', 4, 64), op, limit)
			}
		}
		summary = append(summary, fmt.Sprintf("%s %s [%s] (fires %s %g)", r.Alert, what, strings.Join(shown, " "), op, limit))
	}
	t.Logf("alert conditions over %s (%.1fs): %s", w.name, w.seconds, strings.Join(summary, "; "))
}

// scrapeAll scrapes every node of names, in order; a node that does not
// answer is down.
func scrapeAll(nodes []*procNode) ([]scrape, []bool) {
	out := make([]scrape, len(nodes))
	up := make([]bool, len(nodes))
	for i, n := range nodes {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		s, err := scrapeNode(ctx, n.base)
		cancel()
		out[i], up[i] = s, err == nil
	}
	return out, up
}

// median and maxDur summarise durations.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func maxDur(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return slices.Max(ds)
}
