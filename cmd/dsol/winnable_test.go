package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dsol/internal/cli"
	"dsol/internal/winnable"
)

// TestWinnableList: dsol winnable writes the same list with one worker as
// with two, goes on from a shorter list of the same budget and seed,
// refuses to overwrite a list of another seed, solver or beam, and starts
// again over a list of other parameters that holds no deal; a list of the
// tally solver's beam names its width.
func TestWinnableList(t *testing.T) {
	dir := t.TempDir()
	list := func(name string, extra ...string) (winnable.List, string, error) {
		path := filepath.Join(dir, name)
		args := append([]string{"winnable", "--mode", "d1n", "--budget", "3000", "--out", path}, extra...)
		var out, errOut bytes.Buffer
		err := run(context.Background(), args, noEnv, &out, &errOut)
		if err != nil {
			return winnable.List{}, out.String(), err
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		l, err := winnable.ParseList(f)
		if err != nil {
			t.Fatal(err)
		}
		return l, out.String(), nil
	}
	one, out, err := list("one.txt", "--count", "6", "--workers", "1")
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Deals) != 6 || one.Searched < 6 || one.Budget != 3000 || one.Solver != winnable.Tally || !strings.Contains(out, "6 deals (6 new)") {
		t.Fatalf("list of 6: %+v, %q", one, out)
	}
	if _, _, err := list("two.txt", "--count", "3", "--workers", "2"); err != nil {
		t.Fatal(err)
	}
	two, out, err := list("two.txt", "--count", "6", "--workers", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "6 deals (3 new)") || two.Searched != one.Searched {
		t.Fatalf("extended list: %+v, %q", two, out)
	}
	for i := range one.Deals {
		if one.Deals[i] != two.Deals[i] {
			t.Fatalf("deal %d: %+v with one worker, %+v with two", i, one.Deals[i], two.Deals[i])
		}
	}
	if _, _, err := list("one.txt", "--count", "6", "--seed", "2"); err == nil || !strings.Contains(err.Error(), "seed 1") {
		t.Fatalf("another seed over a list: %v", err)
	}
	if _, _, err := list("one.txt", "--count", "6", "--solver", "whole"); err == nil || !strings.Contains(err.Error(), "solver tally") {
		t.Fatalf("another solver over a list: %v", err)
	}
	if _, _, err := list("one.txt", "--count", "6", "--beam", "50"); err == nil || !strings.Contains(err.Error(), "beam 0") {
		t.Fatalf("a beam over a depth-first list: %v", err)
	}
	beam, out, err := list("beam.txt", "--mode", "d3v", "--budget", "1000000", "--beam", "500", "--seed", "3", "--count", "2", "--workers", "1")
	if err != nil || beam.Beam != 500 || len(beam.Deals) != 2 || !strings.Contains(out, "(a beam of 500)") {
		t.Fatalf("a list of the beam: %+v, %q, %v", beam, out, err)
	}
	empty := filepath.Join(dir, "empty.txt") // a whole-board list that won nothing
	if err := os.WriteFile(empty, []byte("mode D1N\nbudget 3000\nseed 1\nsearched 40\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fresh, _, err := list("empty.txt", "--count", "2"); err != nil || fresh.Solver != winnable.Tally || len(fresh.Deals) != 2 || fresh.Searched >= 40 {
		t.Fatalf("an empty list of another solver is not started again: %+v, %v", fresh, err)
	}
	whole, _, err := list("whole.txt", "--count", "2", "--solver", "whole")
	if err != nil || whole.Solver != winnable.Whole || len(whole.Deals) != 2 {
		t.Fatalf("a list of the whole-board solver: %+v, %v", whole, err)
	}
	for _, args := range [][]string{
		{"winnable", "--out", filepath.Join(dir, "x.txt")},
		{"winnable", "--mode", "D1N"},
		{"winnable", "--mode", "D1N", "--out", "x", "--count", "0"},
		{"winnable", "--mode", "D1N", "--out", "x", "--budget", "0"},
		{"winnable", "--mode", "D1N", "--out", "x", "extra"},
		{"winnable", "--mode", "D1N", "--out", "x", "--solver", "fast"},
		{"winnable", "--mode", "D1N", "--out", "x", "--beam", "-1"},
		{"winnable", "--mode", "D1N", "--out", "x", "--beam", "5", "--solver", "whole"},
	} {
		var out, errOut bytes.Buffer
		if _, ok := run(context.Background(), args, noEnv, &out, &errOut).(*cli.UsageError); !ok {
			t.Errorf("%q: not a usage error", args)
		}
	}
}
