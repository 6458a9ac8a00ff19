package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"dsol/internal/cli"
)

// TestVersion: dsol version prints main.version, the commit (main.commit
// here: test binaries carry no VCS data) and the Go version.
func TestVersion(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "v1.2.3", "0123abcd"
	var out bytes.Buffer
	if err := run(context.Background(), []string{"version"}, func(string) string { return "" }, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || lines[0] != "dsol v1.2.3" || lines[1] != "commit 0123abcd" || lines[2] != runtime.Version() {
		t.Fatalf("dsol version printed %q", out.String())
	}
	var ue *cli.UsageError
	if err := run(context.Background(), []string{"version", "now"}, func(string) string { return "" }, &out, io.Discard); !errors.As(err, &ue) {
		t.Fatalf("stray argument: %v", err)
	}
}

// TestBuildInfoMetric: /metrics carries dsol_build_info for the running build.
func TestBuildInfoMetric(t *testing.T) {
	s := mustServe(t, map[string]string{"DATABASE_URL": filepath.Join(t.TempDir(), "b.db")})
	body := s.metrics(t)
	b := readBuild()
	want := `dsol_build_info{commit="` + b.commit + `",goversion="` + runtime.Version() + `",version="` + b.version + `"} 1`
	if !strings.Contains(body, want) {
		t.Fatalf("no %s in /metrics", want)
	}
}
