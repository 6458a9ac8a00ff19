package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"dsol/internal/cli"
	"dsol/internal/load/loadtest"
)

// TestLoadRace runs both race modes for a short while against a real server
// and checks the reports: actions were acknowledged, race sent no action the
// server refused, and every acknowledged action is in the store's log of its
// race, no more and no fewer.
func TestLoadRace(t *testing.T) {
	s := loadtest.MustServe(t, 100000)
	reports := map[string]*raceReport{}
	for _, tc := range []struct {
		name, mode string
		args       []string
	}{
		{"race", "race", []string{"--pid", strconv.Itoa(os.Getpid())}}, // the test process is the server
		{"race-play", "race-play", nil},                                // the server's /metrics
		{"race-play-v1", "race-play", []string{"--protocol", "1"}},     // whole views
		{"race-short", "race", []string{"--race-actions", "20"}},       // a resign after 20 actions, then another race
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cfg, err := parse(append([]string{"--mode", tc.mode, "--url", s.Base, "--races", "3",
				"--setup", "300ms", "--duration", "1500ms"}, tc.args...), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := runRace(ctx, cfg)
			if err != nil {
				t.Fatalf("%s: %v", tc.mode, err)
			}
			reports[tc.name] = rep
			if e := rep.EventBytes; rep.Frames <= 0 || e.P50 <= 0 || e.P50 > e.Max {
				t.Errorf("%d frames, event bytes %+v: want some", rep.Frames, e)
			}
			if rep.Races != 3 || rep.Clients != 6 || rep.Acks <= 0 || rep.AcksPerSecond <= 0 || rep.TotalAcks < rep.Acks {
				t.Fatalf("report %+v: want 3 races and some acks", rep)
			}
			if l := rep.LatencyMs; l.P50 <= 0 || l.P50 > l.P90 || l.P90 > l.P99 || l.P99 > l.Max {
				t.Errorf("latencies %+v: want ordered percentiles", l)
			}
			if rep.Seconds < 1.4 || rep.WarmupSeconds < 0.29 {
				t.Errorf("window %.2fs, warm-up %.2fs: want 1.5s and 0.3s", rep.Seconds, rep.WarmupSeconds)
			}
			if c := rep.CPU; c.Error != "" || c.Seconds <= 0 || c.MicrosPerAck <= 0 {
				t.Errorf("cpu %+v: want a measure", c)
			}
			if len(rep.Errors) > 0 {
				t.Errorf("errors %v; logs:\n%s", rep.Errors, s.Logs)
			}
			rejects := len(rep.Rejects)
			if tc.name == "race-short" { // the other seat's action after a resign
				rejects -= min(1, rep.Rejects["game_over"])
			}
			if tc.mode == "race" && rejects > 0 {
				t.Errorf("race mode: rejects %v, want none", rep.Rejects)
			}
			if n := sum(rep.gameActs); n != rep.TotalAcks {
				t.Errorf("%d acks by race, %d in all", n, rep.TotalAcks)
			}
			if tc.name == "race-short" && (rep.RacesFinished < 3 || len(rep.gameActs) < 6) {
				t.Errorf("races of 20 actions a seat: %d finished in the window, %d played", rep.RacesFinished, len(rep.gameActs))
			}
		})
	}

	// Every ack is in the log of its race (the server is stopped first, so
	// that every action acknowledged is stored and the store is ours alone).
	s.Stop()
	ctx := context.Background()
	st := s.Store
	if v1, v2 := reports["race-play-v1"].EventBytes.P50, reports["race-play"].EventBytes.P50; v2*3 > v1 {
		t.Errorf("median event message %.0f bytes with deltas, %.0f with whole views", v2, v1)
	}
	for mode, rep := range reports {
		for id, acks := range rep.gameActs {
			log, err := st.Actions(ctx, id, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(log) != acks {
				t.Errorf("%s: race %s: %d acks, %d actions in the log", mode, id, acks, len(log))
			}
		}
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// TestLoadRaceText checks the text report of a race run and that --json
// writes the report.
func TestLoadRaceText(t *testing.T) {
	s := loadtest.MustServe(t, 100000)
	var out bytes.Buffer
	if err := Run(context.Background(), []string{"--mode", "race", "--url", s.Base, "--races", "1", "--duration", "300ms"},
		&out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 races (2 clients)", "acks", "ack ms", "p99", "rejects     none", "errors      none", "µs per ack"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report without %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := Run(context.Background(), []string{"--mode", "race-play", "--url", s.Base, "--races", "1", "--duration", "300ms", "--json"},
		&out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var rep raceReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Mode != "race-play" || rep.Acks <= 0 || rep.CPU.Source != "metrics" {
		t.Fatalf("json report %+v (%v):\n%s", rep, err, out.String())
	}
}

// TestLoadRaceUsage checks the flags of the race modes.
func TestLoadRaceUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--mode", "duel"},
		{"--mode", "race", "--races", "0"},
		{"--mode", "race", "--setup", "-1s"},
		{"--mode", "race", "--pid", "-3"},
		{"--mode", "race", "--pid", "12,x"},
		{"--mode", "race", "--transport", "rest"},
		{"--mode", "race-play", "--clients", "4"},
		{"--races", "4"},
		{"--setup", "1s"},
	} {
		err := Run(context.Background(), args, io.Discard, io.Discard)
		var ue *cli.UsageError
		if !errors.As(err, &ue) {
			t.Errorf("load %v: %v, want a usage error", args, err)
		}
	}
	err := Run(context.Background(), []string{"--mode", "race", "--url", "http://127.0.0.1:1", "--races", "1",
		"--duration", "100ms", "--setup-timeout", "300ms"}, io.Discard, io.Discard)
	if err == nil {
		t.Error("race load against no server: no error")
	}
}
