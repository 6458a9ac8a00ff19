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

	"dsol/internal/arena"
	"dsol/internal/cli"
	"dsol/internal/load/loadtest"
)

// TestLoadArena runs the arena mode for a short while against a real server
// and checks its report against the store: the players were paired and
// played races to their end, every ack is in its race's log, every race the
// report counts is over in the store, the pairing waits and push latencies
// were measured for every pairing and race end, and the arena's standings
// count each player's races.
func TestLoadArena(t *testing.T) {
	s := loadtest.MustServe(t, 100000)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg, err := parse([]string{"--mode", "arena", "--url", s.Base, "--clients", "6", "--race-actions", "20",
		"--setup", "300ms", "--duration", "3s", "--pid", strconv.Itoa(os.Getpid())}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := runArena(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	t.Logf("report:\n%s", text.String())
	if rep.Clients != 6 || rep.Arena == "" || rep.Acks <= 0 || rep.AcksPerSecond <= 0 || rep.TotalAcks < rep.Acks {
		t.Fatalf("report %+v: want 6 players in an arena and some acks", rep)
	}
	if l := rep.LatencyMs; l.P50 <= 0 || l.P50 > l.P90 || l.P90 > l.P99 || l.P99 > l.Max {
		t.Errorf("ack latencies %+v: want ordered percentiles", l)
	}
	if c := rep.CPU; c.Error != "" || c.Seconds <= 0 || c.MicrosPerAck <= 0 {
		t.Errorf("cpu %+v: want a measure", c)
	}
	if len(rep.Errors) > 0 {
		t.Errorf("errors %v; logs:\n%s", rep.Errors, s.Logs)
	}
	for code := range rep.Rejects {
		if code != "game_over" { // an action in flight as the opponent resigned
			t.Errorf("rejects %v, want none but game_over", rep.Rejects)
		}
	}
	// Pairing every second, races of 20 actions a seat: every player races
	// in 3.3 s (most more than once, but not on a machine that is busy).
	if rep.RacesTotal < 3 || rep.RacesFinished <= 0 || rep.RacesFinished > rep.RacesTotal {
		t.Errorf("%d races in the run, %d in the window: want 3 and more in the run", rep.RacesTotal, rep.RacesFinished)
	}
	if rep.Pairings < 2*rep.RacesTotal {
		t.Errorf("%d pairings for %d races ended", rep.Pairings, rep.RacesTotal)
	}
	if w := rep.PairingWaitMs; w.Max <= 0 || w.P50 > w.P99 || w.P99 > w.Max || w.Max > 10000 {
		t.Errorf("pairing waits %+v: want some, within a few pairing rounds", w)
	}
	// Both players of a race see it end, but a race that ends as the run
	// stops may be seen ended by one of them only: at most one race of
	// each pair of players, those in play at the stop.
	if rep.Pushes > 2*rep.RacesTotal || rep.Pushes < 2*rep.RacesTotal-rep.Clients/2 || rep.PushesMissing != 0 {
		t.Errorf("%d pushes measured, %d missing, for %d races ended (two players each, less at most one for each pair at the run's end)",
			rep.Pushes, rep.PushesMissing, rep.RacesTotal)
	}
	if p := rep.PushMs; p.P50 > p.P99 || p.P99 > p.Max || p.Max > 2000 {
		t.Errorf("push latencies %+v: want ordered, within a few pushes", p)
	}
	if rep.ArenaConnects != 6 || rep.ArenaMessages < rep.Pairings || rep.Paused != 0 {
		t.Errorf("%d arena connections, %d messages, %d paused: want 6, some, none", rep.ArenaConnects, rep.ArenaMessages, rep.Paused)
	}

	// The store, once the server stopped: every ack is in the log of its
	// race, the races the report counts are those over, and the standings
	// rebuilt from them count two races for each.
	s.Stop()
	st := s.Store
	for id, acks := range rep.gameActs {
		log, err := st.Actions(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != acks {
			t.Errorf("race %s: %d acks, %d actions in the log", id, acks, len(log))
		}
	}
	rs, err := st.ArenaRaces(ctx, rep.Arena, "")
	if err != nil {
		t.Fatal(err)
	}
	over, counted := 0, 0
	races := make([]arena.Race, len(rs))
	for i, r := range rs {
		races[i] = arena.RaceOf(r)
		if races[i].Over {
			over++
		}
	}
	if over != rep.RacesTotal {
		t.Errorf("%d races over in the store, %d in the report", over, rep.RacesTotal)
	}
	for _, tally := range arena.Score(races) {
		counted += tally.Races
	}
	if counted != 2*over {
		t.Errorf("the standings count %d races of players, want %d", counted, 2*over)
	}
}

// TestLoadArenaText checks the text report of an arena run and its usage
// errors.
func TestLoadArenaText(t *testing.T) {
	s := loadtest.MustServe(t, 100000)
	var out bytes.Buffer
	if err := Run(context.Background(), []string{"--mode", "arena", "--url", s.Base, "--clients", "2", "--race-actions", "5",
		"--duration", "1500ms"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 players", "ack ms", "pairing ms", "push ms", "races", "errors      none", "µs per ack"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report without %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := Run(context.Background(), []string{"--mode", "arena", "--url", s.Base, "--clients", "2", "--duration", "300ms", "--json"},
		&out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var rep arenaReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Mode != "arena" || rep.Clients != 2 || rep.RaceActions != 200 {
		t.Fatalf("json report %+v (%v):\n%s", rep, err, out.String())
	}

	for _, args := range [][]string{
		{"--mode", "arena", "--clients", "1"},
		{"--mode", "arena", "--races", "3"},
		{"--mode", "arena", "--race-actions", "0"},
		{"--mode", "arena", "--duration", "2h"},
		{"--mode", "race-play", "--race-actions", "10"},
	} {
		err := Run(context.Background(), args, io.Discard, io.Discard)
		var ue *cli.UsageError
		if !errors.As(err, &ue) {
			t.Errorf("load %v: %v, want a usage error", args, err)
		}
	}
}
