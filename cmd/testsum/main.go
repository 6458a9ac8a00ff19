// Command testsum runs go test with -json and prints what a person needs from
// a long run: the usual line per package as it ends, then every failure with
// its output, every skipped test with the reason it gave, and a closing line
// "N passed, N failed, N skipped".
//
// Usage:
//
//	testsum [go test flags] [packages] [:: [go test flags] [packages] ...]
//
// for instance `testsum -race -count=1 ./...`. Each "::" starts another go
// test run with flags of its own (make test runs the single-threaded engine
// packages and the browser tests without the race detector, the rest with
// it); the runs go at once and share one summary. The go command is $GO,
// else go. The exit status is 1 when a test or a package failed (a build
// failure included) or a go test itself did not succeed, else 0.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
)

func main() {
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	runs := splitRuns(os.Args[1:])
	out := &lineWriter{w: os.Stdout}
	sums := make([]*summary, len(runs))
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i, args := range runs {
		wg.Go(func() { sums[i], errs[i] = run(goCmd, args, out) })
	}
	wg.Wait()
	sum := merge(sums)
	sum.print(os.Stdout)
	failed := sum.failed() > 0
	for _, err := range errs {
		if err == nil {
			continue
		}
		failed = true
		if sum.failed() > 0 {
			continue
		}
		// go test failed in a way no event told (a bad flag, a broken go.mod).
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			fmt.Printf("go test exited with status %d\n", ee.ExitCode())
		} else {
			fmt.Println("go test:", err)
		}
	}
	if failed {
		os.Exit(1)
	}
}

// splitRuns cuts the arguments into the go test runs they ask for, at each
// "::"; an empty run is dropped, and no arguments at all are one run.
func splitRuns(args []string) [][]string {
	runs := [][]string{}
	cur := []string{}
	for _, a := range args {
		if a == "::" {
			if len(cur) > 0 {
				runs = append(runs, cur)
			}
			cur = []string{}
			continue
		}
		cur = append(cur, a)
	}
	if len(cur) > 0 || len(runs) == 0 {
		runs = append(runs, cur)
	}
	return runs
}

// run runs go test -json with args, copying its per-package lines to w as
// they come, and returns its summary and how go test ended.
func run(goCmd string, args []string, w io.Writer) (*summary, error) {
	cmd := exec.Command(goCmd, append([]string{"test", "-json"}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return &summary{}, err
	}
	if err := cmd.Start(); err != nil {
		return &summary{}, err
	}
	sum := summarize(out, w)
	return sum, cmd.Wait()
}

// merge adds summaries up, failures and skips in the order of the runs.
func merge(sums []*summary) *summary {
	all := &summary{}
	for _, s := range sums {
		all.passed += s.passed
		all.failing = append(all.failing, s.failing...)
		all.skipped = append(all.skipped, s.skipped...)
	}
	return all
}

// lineWriter serializes writes of whole lines from several runs.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	Elapsed     float64
	ImportPath  string // build-output and build-fail events
	FailedBuild string // a package's fail event when its build failed
}

// result is a failed or skipped test (Test empty: a whole package) and what
// it printed.
type result struct {
	pkg, test  string
	elapsed    float64
	output     []string
	build      bool // a package whose build failed
	unfinished bool // a test still running when its package failed
}

// summary is what a run of go test -json told.
type summary struct {
	passed  int
	failing []result // failed tests, then failed packages no failed test explains
	skipped []result
}

// failed is the number of failures: tests, and packages that failed outside
// any test (a build failure, a panic in TestMain, a timeout).
func (s *summary) failed() int { return len(s.failing) }

// summarize reads go test -json from r, copies the per-package result lines
// (ok, FAIL, ?) and any line that is not JSON to w as they come, and returns
// the failures and skips.
func summarize(r io.Reader, w io.Writer) *summary {
	s := &summary{}
	output := map[[2]string][]string{} // (package, test) → output lines so far
	build := map[string][]string{}     // import path → build output
	failedTests := map[string]int{}    // package → failed tests
	var failedPkgs []result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(w, "%s\n", line)
			continue
		}
		key := [2]string{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			build[e.ImportPath] = append(build[e.ImportPath], e.Output)
		case "output":
			output[key] = append(output[key], e.Output)
			if e.Test == "" && isPackageLine(e.Output) {
				fmt.Fprint(w, e.Output)
			}
		case "pass":
			if e.Test != "" {
				s.passed++
			}
			delete(output, key)
		case "skip":
			if e.Test != "" {
				s.skipped = append(s.skipped, result{pkg: e.Package, test: e.Test, elapsed: e.Elapsed, output: output[key]})
			}
			delete(output, key)
		case "fail":
			if e.Test != "" {
				s.failing = append(s.failing, result{pkg: e.Package, test: e.Test, elapsed: e.Elapsed, output: output[key]})
				failedTests[e.Package]++
				delete(output, key)
				break
			}
			// Tests that never ended: the package died under them (a
			// panic, a timeout), and their output tells why.
			var open []string
			for k := range output {
				if k[0] == e.Package && k[1] != "" {
					open = append(open, k[1])
				}
			}
			sort.Strings(open)
			for _, name := range open {
				k := [2]string{e.Package, name}
				s.failing = append(s.failing, result{pkg: e.Package, test: name, output: output[k], unfinished: true})
				failedTests[e.Package]++
				delete(output, k)
			}
			if failedTests[e.Package] == 0 {
				out := output[key]
				if e.FailedBuild != "" {
					out = append(build[e.FailedBuild], out...)
				}
				failedPkgs = append(failedPkgs, result{pkg: e.Package, elapsed: e.Elapsed, output: out, build: e.FailedBuild != ""})
			}
			delete(output, key)
		}
	}
	if err := sc.Err(); err != nil {
		failedPkgs = append(failedPkgs, result{pkg: "(reading go test's output)", output: []string{err.Error() + "\n"}})
	}
	s.failing = append(s.failing, failedPkgs...)
	return s
}

// isPackageLine reports a package's closing line: "ok  \tpkg\t1.2s",
// "FAIL\tpkg\t1.2s", "FAIL\tpkg [build failed]", "?   \tpkg\t[no test files]".
func isPackageLine(s string) bool {
	return strings.HasPrefix(s, "ok  \t") || strings.HasPrefix(s, "FAIL\t") || strings.HasPrefix(s, "?   \t")
}

// print writes the failures with their output, the skipped tests with their
// reasons, and the closing count.
func (s *summary) print(w io.Writer) {
	if n := len(s.failing); n > 0 {
		fmt.Fprintf(w, "\n%d failed:\n", n)
		for _, f := range s.failing {
			own := ownLines(f.output)
			switch {
			case f.test != "" && len(own) == 0 && s.failedSubtest(f):
				fmt.Fprintf(w, "\n--- FAIL: %s %s (%.2fs): a subtest failed\n", f.pkg, f.test, f.elapsed)
			case f.unfinished:
				fmt.Fprintf(w, "\n--- FAIL: %s %s: still running when the package failed\n", f.pkg, f.test)
			case f.test != "":
				fmt.Fprintf(w, "\n--- FAIL: %s %s (%.2fs)\n", f.pkg, f.test, f.elapsed)
			case f.build:
				fmt.Fprintf(w, "\n--- FAIL: %s: the build failed\n", f.pkg)
			default:
				fmt.Fprintf(w, "\n--- FAIL: %s: the package failed outside any test\n", f.pkg)
			}
			for _, l := range own {
				if f.test != "" || !isPackageLine(l) {
					fmt.Fprint(w, l)
				}
			}
		}
	}
	if n := len(s.skipped); n > 0 {
		sort.SliceStable(s.skipped, func(i, j int) bool {
			a, b := s.skipped[i], s.skipped[j]
			return a.pkg < b.pkg || a.pkg == b.pkg && a.test < b.test
		})
		fmt.Fprintf(w, "\n%d skipped:\n", n)
		for _, sk := range s.skipped {
			fmt.Fprintf(w, "  %s %s: %s\n", sk.pkg, sk.test, skipReason(sk.output))
		}
	}
	fmt.Fprintf(w, "\n%d passed, %d failed, %d skipped\n", s.passed, s.failed(), len(s.skipped))
}

// failedSubtest reports whether a subtest of the failed test f failed too.
func (s *summary) failedSubtest(f result) bool {
	for _, g := range s.failing {
		if g.pkg == f.pkg && strings.HasPrefix(g.test, f.test+"/") {
			return true
		}
	}
	return false
}

// ownLines is a test's output without the testing package's frame lines.
func ownLines(output []string) []string {
	var out []string
	for _, l := range output {
		if !isFrame(l) {
			out = append(out, l)
		}
	}
	return out
}

// frame matches the lines the testing package prints around a test's own
// output: === RUN, === PAUSE, === CONT, === NAME and --- PASS/FAIL/SKIP.
var frame = regexp.MustCompile(`^\s*(=== (RUN|PAUSE|CONT|NAME)|--- (PASS|FAIL|SKIP):)`)

func isFrame(line string) bool { return frame.MatchString(line) }

// logLine matches the start of a t.Log, t.Error or t.Skip message:
// "    file_test.go:12: ".
var logLine = regexp.MustCompile(`^\s+\S+\.go:\d+: `)

// skipReason is the last message a skipped test printed (t.Skip's, as a
// rule), its continuation lines joined onto one line.
func skipReason(output []string) string {
	var last []string
	for _, l := range ownLines(output) {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if logLine.MatchString(" "+l) || last == nil {
			last = []string{l}
		} else {
			last = append(last, l)
		}
	}
	if last == nil {
		return "(no reason given)"
	}
	return strings.Join(last, " ")
}
