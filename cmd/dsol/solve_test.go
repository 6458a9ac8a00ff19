package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dsol/internal/cards"
	"dsol/internal/cli"
	k "dsol/internal/klondike"
	"dsol/internal/sampling"
	"dsol/internal/solo"
)

// TestSolveWon prints a won result whose moves, decoded from the JSON as a
// client would and sent to a new game of the code, win it; a beam search's
// too (of a deal the depth-first search leaves unknown at 1,000,000
// positions).
func TestSolveWon(t *testing.T) {
	for want, args := range map[string][]string{
		"DS1-D1N-AAAAAAA": {"solve", "DS1-D1N-AAAAAAA", "--budget", "20s"},
		"DS1-D3N-AAAAAAB": {"solve", "--budget", "20s", "ds1-d3n-aaaaaab"},
		"DS1-D3V-IPAXIPO": {"solve", "DS1-D3V-IPAXIPO", "--positions", "500000", "--beam", "500"},
		"DS1-D1V-CXAPYWT": {"solve", "DS1-D1V-CXAPYWT", "--positions", "500000"}, // by the beams: unknown depth first
	} {
		var out, errOut bytes.Buffer
		if err := run(context.Background(), args, noEnv, &out, &errOut); err != nil {
			t.Fatalf("%q: %v (stderr %q)", args, err, errOut.String())
		}
		var got struct {
			Code      string            `json:"code"`
			Result    string            `json:"result"`
			Moves     []json.RawMessage `json:"moves"`
			Positions int64             `json:"positions"`
			MS        float64           `json:"ms"`
		}
		dec := json.NewDecoder(&out)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if got.Result != "won" || got.Positions < 1 || got.MS < 0 {
			t.Fatalf("%q: %+v", args, got)
		}
		if got.Code != want {
			t.Fatalf("code %q, want %q", got.Code, want)
		}
		code, err := cards.ParseCode(got.Code)
		if err != nil {
			t.Fatal(err)
		}
		g, err := solo.New(code)
		if err != nil {
			t.Fatal(err)
		}
		for i, raw := range got.Moves {
			a, err := k.DecodeAction(raw)
			if err != nil {
				t.Fatalf("move %d %s: %v", i, raw, err)
			}
			if a.Type != k.Move && a.Type != k.Draw && a.Type != k.Recycle {
				t.Fatalf("move %d is a %s", i, a.Type)
			}
			if _, err := g.Apply(a); err != nil {
				t.Fatalf("move %d %s refused: %v", i, raw, err)
			}
		}
		if g.Status() != solo.Won {
			t.Fatalf("%s: the moves leave the game %s", got.Code, g.Status())
		}
	}
}

// TestSolveUnknown: a tiny budget gives unknown with an empty list of moves,
// and exit status 0.
func TestSolveUnknown(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"solve", "DS1-D1V-AAAAAAC", "--budget", "1ns"}, noEnv, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got["result"] == "won" {
		t.Skip("won within a nanosecond's budget")
	}
	if moves, ok := got["moves"].([]any); !ok || len(moves) != 0 || got["result"] == "" {
		t.Fatalf("%s", out.String())
	}
}

// TestSolveUsage: bad codes, race codes and bad flags are usage errors
// (exit status 2) that name the problem, with no output.
func TestSolveUsage(t *testing.T) {
	for args, part := range map[string]string{
		"solve":                  "code",
		"solve DS1-D1X-AAAAAAA":  "scoring",
		"solve DS1-D1N-AAAA":     "deal",
		"solve XX":               "three parts",
		"solve DR1-D1UI-AAAAAAA": "race code",
		"solve DR2-D1UI-" + strings.Repeat("0", 64): "race code",
		"solve DS1-D1N-AAAAAAA DS1-D1N-AAAAAAB":     "one game code",
		"solve DS1-D1N-AAAAAAA --budget 0s":         "budget",
		"solve DS1-D1N-AAAAAAA --budget soon":       "budget",
		"solve DS1-D1N-AAAAAAA --draw 3":            "--draw goes with --sample",
		"solve DS1-D1N-AAAAAAA --sample 3":          "not both",
		"solve --sample 0":                          "at least 1",
		"solve --sample 3 --draw 2":                 "draw",
		"solve --sample 3 --scoring fast":           "scoring",
		"solve --sample 3 --frobnicate":             "frobnicate",
		"solve DS1-D1N-AAAAAAA --positions -5":      "positions",
		"solve DS1-D1N-AAAAAAA --beam -1":           "beam",
		"solve --sample 3 --workers 0":              "workers",
		"solve DS1-D1N-AAAAAAA --workers 2":         "--workers goes with --sample",
	} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), strings.Fields(args), noEnv, &out, &errOut)
		var ue *cli.UsageError
		if !errors.As(err, &ue) || out.Len() != 0 || !strings.Contains(err.Error(), part) {
			t.Errorf("%s: error %v, output %q; want a usage error naming %q", args, err, out.String(), part)
		}
	}
}

// TestSolveSample solves a small sample on every worker and checks the
// report adds up.
func TestSolveSample(t *testing.T) {
	var out, errOut bytes.Buffer
	args := strings.Fields("solve --sample 6 --draw 3 --scoring normal --budget 300ms --seed 5 --json")
	if err := run(context.Background(), args, noEnv, &out, &errOut); err != nil {
		t.Fatalf("%v (stderr %q)", err, errOut.String())
	}
	var rep sampleReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Mode != "D3N" || rep.Deals != 6 || rep.Won+rep.Unwinnable+rep.Unknown != 6 || rep.Positions < 6 || rep.Seed != 5 {
		t.Fatalf("%+v", rep)
	}
	if rep.WinLow > rep.WinHigh || rep.WinLowCI[0] > rep.WinLow || rep.WinLowCI[1] < rep.WinLow || rep.WinHighCI[1] < rep.WinHigh {
		t.Fatalf("bounds %+v", rep)
	}
	if errOut.Len() != 0 {
		t.Fatalf("progress written to a stderr that is not a terminal: %q", errOut.String())
	}
	out.Reset()
	args = strings.Fields("solve --sample 2 --draw 1 --scoring vegas --budget 50ms")
	if err := run(context.Background(), args, noEnv, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "2 DS1-D1V deals") || !strings.Contains(out.String(), "win rate") {
		t.Fatalf("report:\n%s", out.String())
	}
}

// TestSolveSamplePositions: a position budget bounds every search by
// positions and by nothing else, so the same sample gives the same
// verdicts and positions on any machine.
func TestSolveSamplePositions(t *testing.T) {
	sample := func() sampleReport {
		var out, errOut bytes.Buffer
		args := strings.Fields("solve --sample 8 --draw 1 --scoring vegas --positions 3000 --workers 3 --seed 2 --json")
		if err := run(context.Background(), args, noEnv, &out, &errOut); err != nil {
			t.Fatalf("%v (stderr %q)", err, errOut.String())
		}
		var rep sampleReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	a, b := sample(), sample()
	if a.Workers != 3 || a.BudgetPositions != 3000 || a.BudgetMS.String() != "0.0" {
		t.Fatalf("%+v", a)
	}
	if a.Won != b.Won || a.Unknown != b.Unknown || a.Unwinnable != b.Unwinnable || a.Positions != b.Positions {
		t.Fatalf("the same sample twice: %+v and %+v", a, b)
	}
	if a.Positions > 8*3000+8 {
		t.Fatalf("%d positions in 8 searches of at most 3000", a.Positions)
	}
}

// FuzzParseSolve: any command line is either refused with a usage error or
// gives a configuration that can be run.
func FuzzParseSolve(f *testing.F) {
	for _, s := range []string{"DS1-D1N-AAAAAAA", "DS1-D1N-AAAAAAA --budget 1s", "--sample 5 --draw 3 --scoring vegas",
		"--sample 5 --seed 3 --json", "DR1-D1UI-AAAAAAA", "--budget -1s x", "-h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var errOut bytes.Buffer
		c, err := parseSolve(strings.Fields(line), &errOut)
		if err != nil {
			var ue *cli.UsageError
			if !errors.As(err, &ue) && !errors.Is(err, flag.ErrHelp) {
				t.Fatalf("%q: error %v is not a usage error", line, err)
			}
			return
		}
		if c.budget <= 0 {
			t.Fatalf("%q: budget %v", line, c.budget)
		}
		if c.sample == 0 && (c.code.Kind != cards.Solo || !c.code.Valid()) {
			t.Fatalf("%q: code %v", line, c.code)
		}
		if c.sample > 0 && (c.draw != 1 && c.draw != 3 || c.workers < 1) {
			t.Fatalf("%q: %+v", line, c)
		}
	})
}

// sampleJSON runs dsol solve with args and decodes the report.
func sampleJSON(t *testing.T, args string) sampleReport {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), strings.Fields(args), noEnv, &out, &errOut); err != nil {
		t.Fatalf("%s: %v (stderr %q)", args, err, errOut.String())
	}
	var rep sampleReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestSampleResumes: --out appends a line per deal; a run stopped part way
// (the file cut after two deals, the last line torn) goes on from there and
// ends with the same report, its speed counted over what it searched itself; the file of another sample is refused.
func TestSampleResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d3n.txt")
	args := "solve --sample 5 --draw 3 --scoring normal --positions 20000 --seed 4 --json --out " + path
	full := sampleJSON(t, args)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2+5 || !strings.HasPrefix(lines[1], "sample D3N seed 4 positions 20000") {
		t.Fatalf("verdict file:\n%s", data)
	}
	cut := strings.Join(lines[:4], "\n") + "\ndeal ABC"
	if err := os.WriteFile(path, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	again := sampleJSON(t, args)
	if again.Won != full.Won || again.Unwinnable != full.Unwinnable || again.Unknown != full.Unknown || again.Deals != 5 {
		t.Fatalf("resumed %+v, whole %+v", again, full)
	}
	if data, _ = os.ReadFile(path); strings.Count(string(data), "\ndeal ") != 6 {
		t.Fatalf("after resuming (2 kept, 1 torn, 3 new):\n%s", data)
	}
	if again.Resumed != 2 || again.Positions != full.Positions {
		t.Fatalf("resumed %d deals (want 2), positions %d (want %d)", again.Resumed, again.Positions, full.Positions)
	}
	if done := sampleJSON(t, args); done.Resumed != 5 || done.PositionsPerSec != 0 || done.Positions != full.Positions {
		t.Fatalf("all resumed: %+v; want 5 resumed, no positions searched per second", done)
	}
	var out, errOut bytes.Buffer
	other := strings.Replace(args, "--seed 4", "--seed 5", 1)
	if err := run(context.Background(), strings.Fields(other), noEnv, &out, &errOut); err == nil || !strings.Contains(err.Error(), "another sample") {
		t.Fatalf("another sample's file: %v", err)
	}
}

// TestSampleCarries: --from carries a Normal sample's proofs of no win to
// the Vegas sample of the same deals, and a draw-3 win to draw 1, marked in
// the verdict file and counted in the report.
func TestSampleCarries(t *testing.T) {
	dir := t.TempDir()
	codes := sampling.Codes(8, 3, 1, true)
	letters := func(i int) string { s := codes[i].String(); return s[len(s)-7:] }
	d1n := filepath.Join(dir, "d1n.txt")
	d3v := filepath.Join(dir, "d3v.txt")
	write := func(path, sample string, lines ...string) {
		if err := os.WriteFile(path, []byte(verdictHeader+sample+"\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(d1n, "sample D1N seed 8 positions 1 budget_ms 0", "deal "+letters(0)+" unwinnable 5 1.0", "deal "+letters(1)+" won 5 1.0")
	write(d3v, "sample D3V seed 8 positions 1 budget_ms 0", "deal "+letters(1)+" won 5 1.0", "deal "+letters(2)+" unwinnable 5 1.0")
	out := filepath.Join(dir, "d1v.txt")
	rep := sampleJSON(t, "solve --sample 3 --draw 1 --scoring vegas --positions 1000 --seed 8 --json --out "+out+" --from "+d1n+" --from "+d3v)
	if rep.Carried != 2 || rep.Unwinnable < 1 || rep.Won < 1 {
		t.Fatalf("%+v", rep)
	}
	data, _ := os.ReadFile(out)
	for _, want := range []string{"deal " + letters(0) + " unwinnable 0 0.0 from D1N", "deal " + letters(1) + " won 0 0.0 from D3V"} {
		if !strings.Contains(string(data), want) {
			t.Fatalf("no %q in\n%s", want, data)
		}
	}
	if strings.Contains(string(data), letters(2)+" unwinnable 0 0.0 from") {
		t.Fatalf("draw 3's proof carried to draw 1:\n%s", data)
	}
}

// TestSampleBeam: a beam sample carries the verdicts of a depth-first
// sample of the same mode (--from) and searches the rest with the beam; its
// verdict file and report name the beam.
func TestSampleBeam(t *testing.T) {
	dir := t.TempDir()
	codes := sampling.Codes(9, 3, 3, true)
	letters := func(i int) string { s := codes[i].String(); return s[len(s)-7:] }
	dfs := filepath.Join(dir, "dfs.txt")
	lines := verdictHeader + "sample D3V seed 9 positions 1000 budget_ms 0\n" +
		"deal " + letters(0) + " won 5 1.0\ndeal " + letters(1) + " unwinnable 5 1.0\ndeal " + letters(2) + " unknown 1000 1.0\n"
	if err := os.WriteFile(dfs, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "beam.txt")
	rep := sampleJSON(t, "solve --sample 3 --draw 3 --scoring vegas --positions 2000 --beam 50 --seed 9 --json --out "+out+" --from "+dfs)
	if rep.Carried != 2 || rep.Beam != 50 || rep.Won < 1 || rep.Unwinnable != 1 {
		t.Fatalf("%+v", rep)
	}
	data, _ := os.ReadFile(out)
	if !strings.Contains(string(data), "sample D3V seed 9 positions 2000 budget_ms 0 beam 50\n") ||
		!strings.Contains(string(data), "deal "+letters(1)+" unwinnable 0 0.0 from D3V") {
		t.Fatalf("verdict file:\n%s", data)
	}
	if !strings.Contains(string(data), "deal "+letters(2)+" ") || strings.Contains(string(data), "deal "+letters(2)+" unwinnable") {
		t.Fatalf("the deal left unknown was not searched by the beam alone:\n%s", data)
	}
}

// TestSampleBeams: without --beam a Vegas sample is searched by beams, then
// depth first, and its verdict file and report say so, so that a file of
// the depth-first search alone (--beam 0) is not resumed by it; a Normal
// sample is searched depth first either way, and its file is the same.
func TestSampleBeams(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args, line string
		beams      bool
	}{
		{"--draw 3 --scoring vegas", "sample D3V seed 3 positions 20000 budget_ms 0 beams\n", true},
		{"--draw 3 --scoring vegas --beam 0", "sample D3V seed 3 positions 20000 budget_ms 0\n", false},
		{"--draw 3 --scoring normal", "sample D3N seed 3 positions 20000 budget_ms 0\n", false},
	} {
		out := filepath.Join(dir, strings.ReplaceAll(tc.args, " ", "")+".txt")
		rep := sampleJSON(t, "solve --sample 2 --positions 20000 --seed 3 --json --out "+out+" "+tc.args)
		data, _ := os.ReadFile(out)
		if rep.Beams != tc.beams || rep.Beam != 0 || !strings.Contains(string(data), tc.line) {
			t.Fatalf("%s: beams %v in the report, verdict file:\n%s", tc.args, rep.Beams, data)
		}
	}
	var out, errOut bytes.Buffer
	args := "solve --sample 2 --draw 3 --scoring vegas --positions 20000 --seed 3 --json --out " + filepath.Join(dir, "--draw3--scoringvegas--beam0.txt")
	if err := run(context.Background(), strings.Fields(args), noEnv, &out, &errOut); err == nil || !strings.Contains(err.Error(), "another sample") {
		t.Fatalf("the beams resuming the depth-first search's file: %v", err)
	}
}

// TestSampleReportForPeople prints the report's budget, beam and workers in
// words, one worker in the singular.
func TestSampleReportForPeople(t *testing.T) {
	for _, tc := range []struct {
		r    sampleReport
		want string
	}{
		{sampleReport{Mode: "D1V", Deals: 3, Seed: 1, BudgetMS: "0.0", BudgetPositions: 2000, Beam: 50, Workers: 1},
			"sample      3 DS1-D1V deals, seed 1, budget 2000 positions (a beam of 50) each, 1 worker\n"},
		{sampleReport{Mode: "D3N", Deals: 5, Seed: 2, BudgetMS: "2000.0", Workers: 2},
			"sample      5 DS1-D3N deals, seed 2, budget 2000.0 ms each, 2 workers\n"},
		{sampleReport{Mode: "D3V", Deals: 5, Seed: 2, BudgetMS: "2000.0", Beams: true, Workers: 2},
			"sample      5 DS1-D3V deals, seed 2, budget 2000.0 ms (beams, then depth first) each, 2 workers\n"},
		{sampleReport{Mode: "D3V", Deals: 5, Seed: 2, BudgetMS: "2000.0", Workers: 2},
			"sample      5 DS1-D3V deals, seed 2, budget 2000.0 ms each, 2 workers\n"},
	} {
		var b strings.Builder
		if err := writeReport(&b, tc.r); err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(b.String(), "\n"); first+"\n" != tc.want {
			t.Errorf("first line %q, want %q", first, tc.want)
		}
	}
}
