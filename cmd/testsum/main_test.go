package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummarize reads a recorded go test -json run (a build failure, a
// passing test, a failing subtest with a two-line message, two skips) and
// checks the lines testsum prints.
func TestSummarize(t *testing.T) {
	f, err := os.Open("testdata/run.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	s := summarize(f, &out)
	s.print(&out)
	got := out.String()
	for _, want := range []string{
		"FAIL\tx/bad [build failed]\n",
		"FAIL\tx\t",
		"\n3 failed:\n",
		"--- FAIL: x TestB/s2 (0.00s)\n    x_test.go:4: bad\n        second line\n",
		"--- FAIL: x TestB (0.00s): a subtest failed\n",
		"--- FAIL: x/bad: the build failed\n# x/bad [x/bad.test]\nbad/b.go:2:12: undefined: undefined\n",
		"\n2 skipped:\n  x TestB/s1: x_test.go:4: no db here\n  x TestC: x_test.go:5: skip 3\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if !strings.HasSuffix(got, "\n1 passed, 3 failed, 2 skipped\n") {
		t.Errorf("closing line: %q", got[strings.LastIndex(strings.TrimSuffix(got, "\n"), "\n")+1:])
	}
	if strings.Contains(got, "=== RUN") || strings.Contains(got, "hello") {
		t.Errorf("frame lines or a passing test's output in\n%s", got)
	}
	if s.failed() != 3 || s.passed != 1 || len(s.skipped) != 2 {
		t.Errorf("counts %d passed, %d failed, %d skipped", s.passed, s.failed(), len(s.skipped))
	}
}

func TestSkipReason(t *testing.T) {
	for _, tc := range []struct {
		out  []string
		want string
	}{
		{nil, "(no reason given)"},
		{[]string{"=== RUN   T\n", "--- SKIP: T (0.00s)\n"}, "(no reason given)"},
		{[]string{"=== RUN   T\n", "    a_test.go:1: logged\n", "    a_test.go:2: the reason\n", "        goes on\n", "--- SKIP: T (0.00s)\n"},
			"a_test.go:2: the reason goes on"},
	} {
		if got := skipReason(tc.out); got != tc.want {
			t.Errorf("skipReason(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

// TestSummarizePassesOtherLines: lines that are not JSON are copied through,
// and a passing run says so in the closing line.
func TestSummarizePassesOtherLines(t *testing.T) {
	in := `not json
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Output":"ok  \tp\t0.01s\n"}
{"Action":"pass","Package":"p"}
{"Action":"output","Package":"q","Output":"?   \tq\t[no test files]\n"}
{"Action":"skip","Package":"q"}
`
	var out strings.Builder
	s := summarize(strings.NewReader(in), &out)
	s.print(&out)
	want := "not json\nok  \tp\t0.01s\n?   \tq\t[no test files]\n\n1 passed, 0 failed, 0 skipped\n"
	if out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
}

// TestSummarizePanic: a panic ends the package while tests run; they are
// failures, and the panic is shown.
func TestSummarizePanic(t *testing.T) {
	f, err := os.Open("testdata/panic.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	s := summarize(f, &out)
	s.print(&out)
	got := out.String()
	for _, want := range []string{
		"--- FAIL: y TestP: still running when the package failed\n",
		"--- FAIL: y TestQ: still running when the package failed\n",
		"panic: boom\n",
		"\n0 passed, 2 failed, 0 skipped\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}

// TestSplitRuns: "::" cuts the arguments into runs; empty runs are dropped.
func TestSplitRuns(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "[[]]"},
		{[]string{"-race", "./..."}, "[[-race ./...]]"},
		{[]string{"./a", "::", "-race", "./b"}, "[[./a] [-race ./b]]"},
		{[]string{"::", "./a", "::", "::"}, "[[./a]]"},
	} {
		if got := fmt.Sprint(splitRuns(c.args)); got != c.want {
			t.Errorf("splitRuns(%q) = %s, want %s", c.args, got, c.want)
		}
	}
}

// TestTwoRuns: two go test runs at once (a fake go command replaying the
// recorded runs) give one summary that counts both, and the exit status of
// either fails the whole.
func TestTwoRuns(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "go")
	script := "#!/bin/sh\n# $1 is test, $2 -json, $3 the recording\ncat \"$3\"\n[ \"$4\" = fail ] && exit 3\nexit 0\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	run1, _ := filepath.Abs("testdata/run.json")
	var out lineWriter
	var b strings.Builder
	out.w = &b
	s1, err1 := run(fake, []string{run1}, &out)
	s2, err2 := run(fake, []string{run1, "fail"}, &out)
	if err1 != nil || err2 == nil {
		t.Fatalf("exit statuses %v and %v, want nil and status 3", err1, err2)
	}
	all := merge([]*summary{s1, s2})
	if all.passed != 2 || all.failed() != 6 || len(all.skipped) != 4 {
		t.Fatalf("merged %d passed, %d failed, %d skipped", all.passed, all.failed(), len(all.skipped))
	}
	if n := strings.Count(b.String(), "FAIL\tx/bad [build failed]\n"); n != 2 {
		t.Fatalf("the package lines of both runs: %d of 2 in\n%s", n, b.String())
	}
}
