package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"dsol/internal/cli"
)

// TestLoad runs dsol load for a short while against a real server over both
// transports and checks the report: actions were acknowledged, latencies
// were measured, and the only errors are the rate limiter's.
func TestLoad(t *testing.T) {
	s := mustServe(t, 0)
	for _, tc := range []struct{ transport, draw string }{{"ws", "1"}, {"rest", "3"}} {
		t.Run(tc.transport, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var out, errOut bytes.Buffer
			err := Run(ctx, []string{"--url", s.base, "--clients", "4", "--duration", "2s",
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
					t.Errorf("%d errors %q; logs:\n%s", n, code, s.logs)
				}
			}
			if rep.RateLimited != rep.Errors["rate_limited"] {
				t.Errorf("rateLimited %d, errors %v", rep.RateLimited, rep.Errors)
			}
		})
	}

	// The text report names the figures.
	var out bytes.Buffer
	if err := Run(context.Background(), []string{"--url", s.base, "--clients", "1", "--duration", "300ms"},
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
