package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"dsol/internal/cli"
)

// TestToolDispatch: each tool that lives in a package of its own is reached
// by its subcommand: -h prints its usage and is no error, and a wrong flag
// is a usage error, which exits with status 2.
func TestToolDispatch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		usage string // the start of its -h
		bad   []string
	}{
		{"hint-rate", "usage: dsol hint-rate --sample N", []string{"--draw", "2"}},
		{"bot-duel", "usage: dsol bot-duel --races N", []string{"--races", "3"}},
		{"load", "usage: dsol load [flags]", []string{"--mode", "duel"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if err := run(context.Background(), []string{tc.name, "-h"}, noEnv, &out, &errOut); err != nil {
				t.Fatalf("-h: %v", err)
			}
			if !strings.HasPrefix(errOut.String(), tc.usage) || out.Len() != 0 {
				t.Errorf("-h printed %q and %q, want the usage on stderr", out.String(), errOut.String())
			}
			var ue *cli.UsageError
			if err := run(context.Background(), append([]string{tc.name}, tc.bad...), noEnv, &out, &errOut); !errors.As(err, &ue) {
				t.Errorf("%q: %v, want a usage error", tc.bad, err)
			}
		})
	}
}

// TestLoadAgainstServe runs dsol load --mode race against dsol serve, both
// through run, as scripts/load-ab.sh does, and reads from its --json the
// figures that script prints.
func TestLoadAgainstServe(t *testing.T) {
	s := mustServe(t, map[string]string{"DATABASE_URL": filepath.Join(t.TempDir(), "load.db")},
		"--ws-rate", "100000", "--ws-burst", "100000", "--write-rate", "100000", "--write-burst", "100000")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errOut bytes.Buffer
	err := run(ctx, []string{"load", "--mode", "race", "--url", s.base, "--races", "2", "--duration", "500ms", "--setup", "200ms",
		"--pid", strconv.Itoa(os.Getpid()), "--json"}, noEnv, &out, &errOut) // the test process is the server
	if err != nil {
		t.Fatalf("load: %v\n%s", err, errOut.String())
	}
	var rep struct {
		AcksPerSecond float64 `json:"acksPerSecond"`
		Acks          int     `json:"acks"`
		TotalAcks     int     `json:"totalAcks"`
		LatencyMs     struct {
			P50, P99 float64
		} `json:"latencyMs"`
		CPU struct {
			MicrosPerAck float64 `json:"microsPerAck"`
			LoadSeconds  float64 `json:"loadSeconds"`
		} `json:"cpu"`
		EventBytes struct{ P50 float64 } `json:"eventBytes"`
		Errors     map[string]int        `json:"errors"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, out.String())
	}
	if rep.Acks <= 0 || rep.AcksPerSecond <= 0 || rep.TotalAcks < rep.Acks || rep.LatencyMs.P50 <= 0 || rep.LatencyMs.P99 < rep.LatencyMs.P50 ||
		rep.CPU.MicrosPerAck <= 0 || rep.CPU.LoadSeconds <= 0 || rep.EventBytes.P50 <= 0 || len(rep.Errors) > 0 {
		t.Fatalf("report %+v; logs:\n%s", rep, s.logs)
	}
}
