package hintrate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"dsol/internal/cards"
	"dsol/internal/cli"
	"dsol/internal/hint"
	"dsol/internal/sampling"
)

// TestHintRate plays a few deals both ways and reports counts and rates
// that agree with each other.
func TestHintRate(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"--sample", "3", "--draw", "3", "--samples", "2", "--positions", "500", "--max-actions", "300", "--json"}
	if err := Run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("%v (stderr %q)", err, errOut.String())
	}
	var rep report
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatal(err)
	}
	if rep.Mode != "D3N" || rep.Deals != 3 || rep.Asked != 3 || rep.Samples != 2 || rep.Positions != 500 || rep.MaxActions != 300 || rep.Stall != 200 {
		t.Fatalf("report %+v", rep)
	}
	if rep.HintWon > 3 || rep.BotWon > 3 || rep.HintRate != sampling.Round(float64(rep.HintWon)/3) || rep.BotRate != sampling.Round(float64(rep.BotWon)/3) ||
		rep.HintCI[0] > rep.HintRate || rep.HintCI[1] < rep.HintRate || rep.Hints < 3 {
		t.Fatalf("report %+v", rep)
	}
	for _, w := range []struct {
		won    int
		spread [3]int
	}{{rep.HintWon, rep.HintWonActions}, {rep.BotWon, rep.BotWonActions}} {
		if s := w.spread; (w.won == 0) != (s == [3]int{}) || s[0] > s[1] || s[1] > s[2] || s[2] > 300 || (w.won > 0 && s[0] < 1) {
			t.Fatalf("won %d games of %v actions (median, p99, most)", w.won, s)
		}
	}
}

func TestSpread(t *testing.T) {
	ns := make([]int, 200)
	for i := range ns {
		ns[i] = 200 - i
	}
	if got := spread(ns); got != [3]int{100, 198, 200} { // nearest rank
		t.Fatalf("spread of 1..200: %v", got)
	}
	if got := spread(nil); got != [3]int{} {
		t.Fatalf("spread of none: %v", got)
	}
}

// TestHintRateUsage: wrong flags are usage errors; -h prints the usage and
// is no error.
func TestHintRateUsage(t *testing.T) {
	for _, bad := range [][]string{
		{"--sample", "0"},
		{"--draw", "2"},
		{"--scoring", "klondike"},
		{"--stall", "0"},
		{"--samples", "0"},
		{"--bogus"},
		{"extra"},
	} {
		var ue *cli.UsageError
		if err := Run(context.Background(), bad, io.Discard, io.Discard); !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a usage error", bad, err)
		}
	}
	var errOut bytes.Buffer
	if err := Run(context.Background(), []string{"-h"}, io.Discard, &errOut); err != nil {
		t.Fatalf("-h: %v", err)
	}
	if !strings.HasPrefix(errOut.String(), "usage: dsol hint-rate --sample N") || !strings.Contains(errOut.String(), "-max-actions int") {
		t.Errorf("-h printed %q", errOut.String())
	}
	if _, err := parse([]string{"--help"}, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help: %v, want flag.ErrHelp", err)
	}
}

// TestHintWinsDeal: a player who follows the served hint (hint.Default)
// wins a draw-1 Normal deal that it used to lose by going round the stock
// until the stall rule ended the game (the hint of 8 arrangements solved
// by the whole-board solver, which the bot loses as well).
func TestHintWinsDeal(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game of hints")
	}
	code, err := cards.ParseCode("DS1-D1N-KYTBFEL")
	if err != nil {
		t.Fatal(err)
	}
	var times []time.Duration
	won, n, err := play(code, hintPlayer(hint.Default, &times), config{maxActions: 1000, stall: 200})
	if err != nil {
		t.Fatal(err)
	}
	if !won {
		t.Fatalf("the hint player lost %s after %d actions", code, n)
	}
}
