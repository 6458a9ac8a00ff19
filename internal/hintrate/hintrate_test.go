package hintrate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"dsol/internal/cards"
	"dsol/internal/cli"
	"dsol/internal/hint"
	k "dsol/internal/klondike"
	"dsol/internal/sampling"
	"dsol/internal/solo"
	"dsol/internal/solver/tally"
	"dsol/internal/winnable"
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
		rep.HintCI[0] > rep.HintRate || rep.HintCI[1] < rep.HintRate || rep.Hints < 3 || rep.Winnable {
		t.Fatalf("report %+v", rep)
	}
	for _, w := range []struct {
		won int
		up  float64
	}{{rep.HintWon, rep.HintUp}, {rep.BotWon, rep.BotUp}} {
		if w.up < float64(104*w.won)/3 || w.up > 104 {
			t.Fatalf("won %d of 3 games, %v cards up on average", w.won, w.up)
		}
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

// TestHintRateWinnable plays the first deals of a mode's shipped list of
// winnable deals.
func TestHintRateWinnable(t *testing.T) {
	var out bytes.Buffer
	args := []string{"--sample", "2", "--draw", "3", "--scoring", "vegas", "--winnable", "--samples", "2", "--positions", "300", "--max-actions", "40", "--first-loss", "1000",
		"--beam", "10", "--beam-samples", "2", "--beam-positions", "2000"}
	if err := Run(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	first := winnable.Listed(winnable.D3V)[0].Code().String()
	// Neither deal is won within 1,000 positions from the start, so no
	// action loses it.
	if !strings.HasPrefix(out.String(), "sample      2 of 2 shipped winnable DS1-D3V deals, 2 samples of 300 positions per hint (none won: 2 more with a beam of 10 within 2000),") ||
		!strings.Contains(out.String(), "\nfirst loss  games the hint player lost 2; with an action after which the solver, every card seen, no longer wins within 1000 positions 0:") {
		t.Fatalf("report %q", out.String())
	}
	c, err := parse(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if codes := c.codes(); len(codes) != 2 || codes[0].String() != first || !codes[1].Vegas || codes[1].Draw != 3 {
		t.Fatalf("deals %v, want the list's first two from %s", codes, first)
	}
}

// TestLossAt: a listed draw-3 Vegas deal that the solver wins from the
// start within 34,809 positions is proved lost, in about 30,000, after the
// first move that a player would think of: the queen of diamonds onto the
// king of spades, which turns a card over. The live check (50,000
// positions) proves it at once, a shallower one (20,000) never; a budget
// too small to win the start finds nothing.
func TestLossAt(t *testing.T) {
	d := winnable.Listed(winnable.D3V)[31]
	if d.Code().String() != "DS1-D3V-UTNTUOZ" || d.Positions != 34809 {
		t.Fatalf("the list's 32nd deal is %s, won after %d positions", d.Code(), d.Positions)
	}
	played := []k.Action{k.NewMove(k.ColPile(4), k.ColPile(0), 1), k.Simple(k.Draw)}
	sv := tally.New()
	for _, c := range []struct {
		budget, check int64
		want          loss
	}{
		{d.Budget, solo.CheckBudget, loss{at: 1, proved: true, warned: 1}},
		{d.Budget, 20_000, loss{at: 1, proved: true}},
		{d.Positions - 1, solo.CheckBudget, loss{}},
	} {
		if l, err := lossAt(sv, d.Code(), played, c.budget, c.check); err != nil || l != c.want {
			t.Errorf("budget %d, check %d: %+v, %v; want %+v", c.budget, c.check, l, err, c.want)
		}
	}
}

func TestKind(t *testing.T) {
	for _, c := range []struct {
		a    k.Action
		want string
	}{
		{k.Simple(k.Draw), "draw"},
		{k.Simple(k.Recycle), "recycle"},
		{k.NewMove(k.Waste, k.ColPile(2), 1), "waste to column"},
		{k.NewMove(k.ColPile(0), k.ColPile(8), 3), "column to column"},
		{k.NewMove(k.ColPile(0), k.AnyF, 1), "to foundation"},
		{k.NewMove(k.Waste, k.F1+3, 1), "to foundation"},
		{k.NewMove(k.F1+7, k.ColPile(4), 1), "foundation to column"},
	} {
		if got := kind(c.a); got != c.want || !slices.Contains(kindNames, got) {
			t.Errorf("kind(%v) = %q, want %q", c.a, got, c.want)
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
		{"--sample", "100000", "--winnable"}, // more than the binary ships
		{"--first-loss", "1000"},             // without --winnable
		{"--winnable", "--first-loss", "-1"},
		{"--draw", "2"},
		{"--scoring", "klondike"},
		{"--stall", "0"},
		{"--samples", "0"},
		{"--beam", "-1"},
		{"--beam-positions", "0"},
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
	g, err := play(code, hintPlayer(hint.Default, &times), config{maxActions: 1000, stall: 200})
	if err != nil {
		t.Fatal(err)
	}
	if !g.won || g.up != 104 {
		t.Fatalf("the hint player lost %s after %d actions, %d cards up", code, len(g.played), g.up)
	}
}
