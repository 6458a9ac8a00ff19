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

// TestHintRate plays a few deals both ways and reports counts and rates
// that agree with each other; wrong flags are usage errors.
func TestHintRate(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"hint-rate", "--sample", "3", "--draw", "3", "--samples", "2", "--positions", "500", "--max-actions", "300", "--json"}
	if err := run(context.Background(), args, noEnv, &out, &errOut); err != nil {
		t.Fatalf("%v (stderr %q)", err, errOut.String())
	}
	var rep hintRateReport
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
	for _, bad := range [][]string{
		{"hint-rate", "--sample", "0"},
		{"hint-rate", "--draw", "2"},
		{"hint-rate", "--scoring", "klondike"},
		{"hint-rate", "--stall", "0"},
		{"hint-rate", "extra"},
	} {
		var ue *cli.UsageError
		if err := run(context.Background(), bad, noEnv, &out, &errOut); !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a usage error", bad, err)
		}
	}
}
