package botduel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"dsol/internal/cli"
	"dsol/internal/sampling"
)

// TestBotDuel plays a few races both ways round and reports counts that
// agree with each other.
func TestBotDuel(t *testing.T) {
	for _, turns := range []string{"simultaneous", "alternating"} {
		t.Run(turns, func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := []string{"--races", "4", "--turns", turns, "--samples", "2", "--steps", "300", "--json"}
			if err := Run(context.Background(), args, &out, &errOut); err != nil {
				t.Fatalf("%v (stderr %q)", err, errOut.String())
			}
			var rep report
			dec := json.NewDecoder(&out)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&rep); err != nil {
				t.Fatal(err)
			}
			if rep.Mode != "D1UI" || rep.Turns != turns || rep.Races != 4 || rep.Asked != 4 || rep.Samples != 2 || rep.Steps != 300 ||
				rep.Wins+rep.Draws+rep.Losses+rep.Unfinished != 4 || rep.WinRate != sampling.Round(float64(rep.Wins)/4) ||
				rep.WinCI[0] > rep.WinRate || rep.WinCI[1] < rep.WinRate || rep.Decisions == 0 || rep.Thinks == 0 ||
				rep.Hinted <= 0 || rep.Hinted > 1 || rep.StrongCards <= 0 || rep.NormalCards <= 0 ||
				rep.Deals != 2 || rep.DealsSwept+rep.DealsLost+rep.DealsSplit != 2 || rep.DealsSwept > rep.Wins/2 || rep.DealsLost > rep.Losses/2 {
				t.Fatalf("report %+v", rep)
			}
		})
	}
}

// TestBotDuelUsage: wrong flags are usage errors; -h prints the usage and
// is no error.
func TestBotDuelUsage(t *testing.T) {
	for _, bad := range [][]string{
		{"--races", "3"},
		{"--races", "0"},
		{"--draw", "2"},
		{"--turns", "both"},
		{"--redeal", "twice"},
		{"--decks", "shared"},
		{"--samples", "0"},
		{"--workers", "0"},
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
	if !strings.HasPrefix(errOut.String(), "usage: dsol bot-duel --races N") || !strings.Contains(errOut.String(), "-max-actions int") {
		t.Errorf("-h printed %q", errOut.String())
	}
}

// TestModeAndCodes: the mode is spelt as the race codes spell it, and the
// deals alternate between numbered and secret ones of that mode.
func TestModeAndCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "D1UI"},
		{[]string{"--draw", "3"}, "D3UI"},
		{[]string{"--redeal", "single"}, "D1SI"},
		{[]string{"--decks", "mirrored"}, "D1UM"},
		{[]string{"--draw", "3", "--redeal", "single", "--decks", "mirrored"}, "D3SM"},
	} {
		c, err := parse(append([]string{"--races", "4"}, tc.args...), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.mode(); got != tc.want {
			t.Errorf("%q: mode %s, want %s", tc.args, got, tc.want)
		}
		cs := codes(c)
		if len(cs) != 2 || cs[0].Secret || !cs[1].Secret {
			t.Fatalf("%q: codes %v, want a numbered deal and a secret one", tc.args, cs)
		}
		for _, code := range cs {
			if s := code.String(); !strings.Contains(s, "-"+tc.want+"-") {
				t.Errorf("%q: code %s, want mode %s", tc.args, s, tc.want)
			}
		}
	}
}
