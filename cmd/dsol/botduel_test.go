package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"dsol/internal/cli"
	"dsol/internal/sampling"
)

// TestBotDuel plays a few races both ways round and reports counts that
// agree with each other; wrong flags are usage errors.
func TestBotDuel(t *testing.T) {
	for _, turns := range []string{"simultaneous", "alternating"} {
		var out, errOut bytes.Buffer
		args := []string{"bot-duel", "--races", "4", "--turns", turns, "--samples", "2", "--positions", "300", "--json"}
		if err := run(context.Background(), args, noEnv, &out, &errOut); err != nil {
			t.Fatalf("%v (stderr %q)", err, errOut.String())
		}
		var rep botDuelReport
		dec := json.NewDecoder(&out)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rep); err != nil {
			t.Fatal(err)
		}
		if rep.Mode != "D1UI" || rep.Turns != turns || rep.Races != 4 || rep.Asked != 4 || rep.Samples != 2 || rep.Positions != 300 ||
			rep.Wins+rep.Draws+rep.Losses+rep.Unfinished != 4 || rep.WinRate != sampling.Round(float64(rep.Wins)/4) ||
			rep.WinCI[0] > rep.WinRate || rep.WinCI[1] < rep.WinRate || rep.Decisions == 0 || rep.Thinks == 0 ||
			rep.Hinted <= 0 || rep.Hinted > 1 || rep.StrongCards <= 0 || rep.NormalCards <= 0 ||
			rep.Deals != 2 || rep.DealsSwept+rep.DealsLost+rep.DealsSplit != 2 || rep.DealsSwept > rep.Wins/2 || rep.DealsLost > rep.Losses/2 {
			t.Fatalf("report %+v", rep)
		}
	}
	var out, errOut bytes.Buffer
	for _, bad := range [][]string{
		{"bot-duel", "--races", "3"},
		{"bot-duel", "--races", "0"},
		{"bot-duel", "--draw", "2"},
		{"bot-duel", "--turns", "both"},
		{"bot-duel", "--redeal", "twice"},
		{"bot-duel", "--decks", "shared"},
		{"bot-duel", "--samples", "0"},
		{"bot-duel", "extra"},
	} {
		var ue *cli.UsageError
		if err := run(context.Background(), bad, noEnv, &out, &errOut); !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a usage error", bad, err)
		}
	}
}
