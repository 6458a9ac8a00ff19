package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"dsol/internal/cli"
)

func TestHealthz(t *testing.T) {
	s := mustServe(t, map[string]string{"DATABASE_URL": filepath.Join(t.TempDir(), "h.db")})
	hostPort := strings.TrimPrefix(s.base, "http://")
	noEnv := func(string) string { return "" }
	healthz := func(getenv func(string) string, args ...string) error {
		return run(context.Background(), append([]string{"healthz"}, args...), getenv, io.Discard, io.Discard)
	}
	if err := healthz(noEnv, "--addr", hostPort); err != nil {
		t.Errorf("healthz --addr %s: %v", hostPort, err)
	}
	if err := healthz(noEnv, "--addr", s.base+"/"); err != nil {
		t.Errorf("healthz --addr %s/: %v", s.base, err)
	}
	_, port, _ := strings.Cut(hostPort, ":")
	if err := healthz(func(k string) string { return map[string]string{"DSOL_ADDR": ":" + port}[k] }); err != nil {
		t.Errorf("healthz with DSOL_ADDR=:%s: %v", port, err)
	}

	unready := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusServiceUnavailable)
	}))
	defer unready.Close()
	var ue *cli.UsageError
	for _, args := range [][]string{
		{"--addr", strings.TrimPrefix(unready.URL, "http://")},
		{"--addr", deadAddr(t), "--timeout", "2s"},
	} {
		if err := healthz(noEnv, args...); err == nil || errors.As(err, &ue) {
			t.Errorf("healthz %q: %v, want a failure (exit status 1)", args, err)
		}
	}
	if err := healthz(noEnv, "extra"); !errors.As(err, &ue) {
		t.Errorf("stray argument: %v", err)
	}
}

func TestLocalAddr(t *testing.T) {
	for in, want := range map[string]string{
		":8080":          "127.0.0.1:8080",
		"0.0.0.0:9000":   "127.0.0.1:9000",
		"[::]:9000":      "127.0.0.1:9000",
		"127.0.0.2:8080": "127.0.0.2:8080",
		"localhost:8080": "localhost:8080",
	} {
		if got := localAddr(in); got != want {
			t.Errorf("localAddr(%q) = %q, want %q", in, got, want)
		}
	}
}
