package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"dsol/internal/cli"
	"dsol/internal/load/loadtest"
	"dsol/internal/load/memory"
)

// TestLoad runs dsol load for a short while against a real server over both
// transports and checks the report: actions were acknowledged, latencies
// were measured, and the only errors are the rate limiter's.
func TestLoad(t *testing.T) {
	s := loadtest.MustServe(t, 0)
	for _, tc := range []struct{ transport, draw string }{{"ws", "1"}, {"rest", "3"}} {
		t.Run(tc.transport, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var out, errOut bytes.Buffer
			err := Run(ctx, []string{"--url", s.Base, "--clients", "4", "--duration", "2s",
				"--transport", tc.transport, "--draw", tc.draw, "--max-actions", "60", "--json"},
				&out, &errOut)
			if err != nil {
				t.Fatalf("load: %v\n%s", err, errOut.String())
			}
			var rep soloReport
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("report: %v\n%s", err, out.String())
			}
			if rep.Clients != 4 || rep.Transport != tc.transport || rep.Actions <= 0 || rep.ActionsPerSecond <= 0 {
				t.Fatalf("report %+v: want 4 clients and some actions", rep)
			}
			if rep.Games < 4 || rep.LatencyMs.P50 <= 0 || rep.LatencyMs.P50 > rep.LatencyMs.P99 || rep.LatencyMs.P99 > rep.LatencyMs.Max {
				t.Fatalf("report %+v: want a game per client and ordered percentiles", rep)
			}
			if tc.transport == "ws" && rep.Connects < rep.Clients {
				t.Fatalf("report %+v: want a connection per client", rep)
			}
			for code, n := range rep.Errors {
				if code != "rate_limited" {
					t.Errorf("%d errors %q; logs:\n%s", n, code, s.Logs)
				}
			}
			if rep.RateLimited != rep.Errors["rate_limited"] {
				t.Errorf("rateLimited %d, errors %v", rep.RateLimited, rep.Errors)
			}
		})
	}

	// The text report names the figures.
	var out bytes.Buffer
	if err := Run(context.Background(), []string{"--url", s.Base, "--clients", "1", "--duration", "300ms"},
		&out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"actions", "latency ms", "p99", "rate limited", "errors"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report without %q:\n%s", want, out.String())
		}
	}
}

// TestLoadUsage checks that bad flags are usage errors (exit status 2) and
// that a server that is not there fails the run.
func TestLoadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--transport", "udp"},
		{"--clients", "0"},
		{"--draw", "2"},
		{"--duration", "0s"},
		{"--url", "ftp://example.org"},
		{"--think", "-1s"},
		{"extra"},
	} {
		err := Run(context.Background(), args, io.Discard, io.Discard)
		var ue *cli.UsageError
		if !errors.As(err, &ue) {
			t.Errorf("load %v: %v, want a usage error", args, err)
		}
	}
	err := Run(context.Background(), []string{"--url", "http://127.0.0.1:1", "--clients", "1",
		"--duration", "100ms", "--setup-timeout", "300ms"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "transport") {
		t.Errorf("load against no server: %v, want a setup failure naming transport errors", err)
	}
}

// fakePlayer is ready when ready says so, and records what it plays with.
type fakePlayer struct {
	ready  bool
	played atomic.Bool
	stop   context.Context
}

func (p *fakePlayer) setup(context.Context) bool { return p.ready }

func (p *fakePlayer) play(stop, _ context.Context) {
	p.stop = stop
	p.played.Store(true)
}

// TestSetUp: every player sets up, the ready ones wait for play and play
// with its contexts, the others never play.
func TestSetUp(t *testing.T) {
	players := []*fakePlayer{{ready: true}, {ready: false}, {ready: true}}
	team, ready := setUp(context.Background(), players)
	if ready != 2 {
		t.Fatalf("%d ready, want 2", ready)
	}
	time.Sleep(10 * time.Millisecond)
	for i, p := range players {
		if p.played.Load() {
			t.Fatalf("player %d played before the start", i)
		}
	}
	stop, cancel := context.WithCancel(context.Background())
	defer cancel()
	team.play(stop, context.Background())
	team.wait()
	for i, p := range players {
		if p.played.Load() != p.ready || p.ready && p.stop != stop {
			t.Errorf("player %d (ready %v): played %v", i, p.ready, p.played.Load())
		}
	}
}

// TestLoadMemory runs the memory modes through the command line: the flags
// reach them, and their reports are written as JSON (the test process is
// the server). What they measure is tested in package memory.
func TestLoadMemory(t *testing.T) {
	s := loadtest.MustServe(t, 100000)
	pid := strconv.Itoa(os.Getpid())
	t.Run("idle", func(t *testing.T) {
		var out bytes.Buffer
		if err := Run(context.Background(), []string{"--mode", "idle", "--url", s.Base + "/", "--sockets", "9", "--protocol", "1",
			"--duration", "100ms", "--pid", pid, "--json"}, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		var rep memory.IdleReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("report: %v\n%s", err, out.String())
		}
		if rep.URL != s.Base || rep.Mode != "idle" || rep.Sockets != 9 || rep.Players != 2 || rep.Protocol != 1 || rep.RSSAfterKiB <= 0 {
			t.Fatalf("report %+v", rep)
		}
	})
	t.Run("games", func(t *testing.T) {
		var out bytes.Buffer
		if err := Run(context.Background(), []string{"--mode", "games", "--url", s.Base, "--games", "3", "--actions", "70",
			"--clients", "2", "--duration", "100ms", "--pid", pid}, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"3 solo games of 70 actions (1 players)", "server rss", "per game", "errors      none"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("text report without %q:\n%s", want, out.String())
			}
		}
	})
	t.Run("games woken", func(t *testing.T) {
		built := loadtest.MustServe(t, 100000)
		ids := filepath.Join(t.TempDir(), "games.ids")
		if err := Run(context.Background(), []string{"--mode", "games", "--url", built.Base, "--games", "3", "--actions", "70",
			"--clients", "2", "--duration", "100ms", "--pid", pid, "--ids", ids}, io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		built.Stop()
		again := loadtest.MustServeOn(t, built.Store, 0)
		var out bytes.Buffer
		if err := Run(context.Background(), []string{"--mode", "games", "--url", again.Base, "--wake", ids,
			"--clients", "2", "--duration", "100ms", "--pid", pid}, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"3 solo games of 70 actions woken (1 players)", "wake ", "(0 live tables)", "with them (3)", "errors      none"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("text report without %q:\n%s", want, out.String())
			}
		}

		// The same games added to a server that holds others: those of a
		// second build.
		more := filepath.Join(t.TempDir(), "more.ids")
		if err := Run(context.Background(), []string{"--mode", "games", "--url", again.Base, "--games", "2", "--actions", "10",
			"--clients", "2", "--duration", "100ms", "--pid", pid, "--ids", more}, io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		if err := Run(context.Background(), []string{"--mode", "games", "--url", again.Base, "--wake", more, "--added",
			"--clients", "2", "--duration", "100ms", "--pid", pid, "--json"}, &out, io.Discard); err == nil || !strings.Contains(err.Error(), "live already") {
			t.Fatalf("--added of games live already: %v", err)
		}
		third := loadtest.MustServeOn(t, built.Store, 0)
		for i, file := range []string{ids, more} {
			args := []string{"--mode", "games", "--url", third.Base, "--wake", file, "--clients", "2", "--duration", "100ms", "--pid", pid, "--json"}
			if i == 1 {
				args = append(args, "--added")
			}
			out.Reset()
			if err := Run(context.Background(), args, &out, io.Discard); err != nil {
				t.Fatal(err)
			}
		}
		var rep memory.GamesReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("report: %v\n%s", err, out.String())
		}
		if !rep.Woken || !rep.Added || rep.Games != 2 || rep.Actions != 10 || rep.LiveTablesBefore != 3 || rep.LiveTables != 5 {
			t.Fatalf("--added report %+v", rep)
		}
	})
	for _, args := range [][]string{
		{"--mode", "idle", "--races", "3"},
		{"--mode", "games", "--races", "3"},
		{"--mode", "games", "--actions", "20001"},
		{"--mode", "solo", "--games", "3"},
		{"--mode", "solo", "--ids", "games.ids"},
		{"--mode", "idle", "--wake", "games.ids"},
		{"--mode", "games", "--ids", "games.ids", "--wake", "games.ids"},
		{"--mode", "games", "--wake", "games.ids", "--games", "3"},
		{"--mode", "games", "--wake", "games.ids", "--actions", "70"},
		{"--mode", "games", "--added"},
		{"--mode", "games", "--ids", "games.ids", "--added"},
		{"--mode", "idle", "--added"},
		{"--mode", "solo", "--added"},
		{"--mode", "idle", "--url", s.Base, "--sockets", "1"},
		{"--mode", "games", "--url", s.Base, "--games", "1"},
	} {
		err := Run(context.Background(), args, io.Discard, io.Discard)
		var ue *cli.UsageError
		if !errors.As(err, &ue) {
			t.Errorf("load %v: %v, want a usage error", args, err)
		}
	}
}
