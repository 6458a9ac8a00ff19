package winnable

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"dsol/internal/cards"
	"dsol/internal/solver"
	"dsol/internal/solver/tally"
)

// sampleBudget bounds the positions TestShippedListsWin solves in each mode
// (about a second of one core on a busy machine), unless
// DSOL_WINNABLE_CHECK=all asks for every deal. The race detector slows the
// solver about tenfold, so under it the sample is a tenth of that.
func sampleBudget() int64 {
	if raceDetector {
		return 10_000
	}
	return 100_000
}

// TestShippedListsWin solves deals of the shipped lists again with their
// budget and plays each winning line through the solo engine: a sample of
// each list (its deal won soonest, then deals at random while sampleBudget()
// positions last), or every deal with DSOL_WINNABLE_CHECK=all (make
// winnable-check), or every deal of the modes and list files it names
// (D3V,D1V: every list of both; D3V-2.txt: that list, in D3V and in the
// mode that carries it). A mode's
// deals carried from another list (see carries) are solved in that list's
// mode and their lines played in the mode's game. The solver is
// deterministic with a position budget, so each deal is won again after the
// positions the list gives, on any machine.
func TestShippedListsWin(t *testing.T) {
	check := os.Getenv("DSOL_WINNABLE_CHECK")
	r := cards.NewSplitMix64(uint64(time.Now().UnixNano()))
	s, ts := solver.New(), tally.New()
	for _, m := range Modes {
		named := strings.Split(check, ",")
		lists := Shipped(m)
		if from, ok := carries[m]; ok {
			lists = append(slices.Clip(lists), Shipped(from)...)
		}
		for _, l := range lists {
			in := l.Mode
			if in != m && l.Solver != Tally {
				t.Fatalf("%s carries the list of %s, which the %s solver made", m, in, l.Solver)
			}
			deals := l.Deals
			if check != "all" && !slices.Contains(named, m.String()) && !slices.Contains(named, FileName(l.Mode, l.Seed)) {
				deals = sample(l.Deals, r, sampleBudget())
			}
			if len(deals) == 0 {
				t.Logf("%s from the list of %s, seed %d: nothing to check here (%d deals listed of %d searched)", m, in, l.Seed, len(l.Deals), l.Searched)
				continue
			}
			start := time.Now()
			var positions int64
			for _, d := range deals {
				var won bool
				var got int64
				var err error
				if l.Solver == Tally {
					var res tally.Result
					res, won, err = solveIn(ts, in, m, d.Number, l.Budget, l.Beam, nil)
					got = res.Positions
				} else {
					var res solver.Result
					res, won, err = Solve(s, m, d.Number, l.Budget, nil)
					got = res.Positions
				}
				if err != nil {
					t.Fatal(err)
				}
				if !won {
					t.Errorf("%s: %s not won by the %s solver after %d positions of a budget of %d", m, d.Code(), l.Solver, got, l.Budget)
					continue
				}
				if got != d.Positions {
					t.Errorf("%s: %s won after %d positions; the list says %d", m, d.Code(), got, d.Positions)
				}
				positions += got
			}
			t.Logf("%s from the list of %s, seed %d: %d of %d deals won again (%d positions) in %s", m, in, l.Seed, len(deals), len(l.Deals), positions, time.Since(start).Round(time.Millisecond))
		}
	}
}

// TestListed: a mode's shipped deals are its lists', then, for a mode that
// carries another's lists, those lists' deals dealt in the mode, none twice.
func TestListed(t *testing.T) {
	for _, m := range Modes {
		lists := Shipped(m)
		own := 0
		for _, l := range lists {
			own += len(l.Deals)
		}
		if from, ok := carries[m]; ok {
			lists = append(slices.Clip(lists), Shipped(from)...)
		}
		var want []Deal
		for _, l := range lists {
			for _, d := range l.Deals {
				d.Mode = m
				want = append(want, d)
			}
		}
		got := Listed(m)
		seen := map[uint64]bool{}
		for _, d := range got {
			if d.Mode != m || seen[d.Number] {
				t.Fatalf("%s: %s listed (twice: %v)", m, d.Code(), seen[d.Number])
			}
			seen[d.Number] = true
		}
		if !slices.Equal(got, want) || own == 0 {
			t.Errorf("%s: %d deals listed, want %d, its own %d first", m, len(got), len(want), own)
		}
	}
	if len(Listed(D1V)) <= len(Shipped(D1V)[0].Deals) {
		t.Error("draw-1 Vegas deals none of the draw-3 Vegas lists")
	}
}

// TestReadLists: a mode's lists are read in the order of their seeds, each
// from its file; a list in another's file, or a mode without a list, is an
// error.
func TestReadLists(t *testing.T) {
	list := func(m Mode, seed uint64, deals ...uint64) *fstest.MapFile {
		l := List{Mode: m, Solver: Tally, Budget: 100, Seed: seed, Searched: 10}
		for _, n := range deals {
			l.Deals = append(l.Deals, Deal{Mode: m, Number: n, Budget: 100, Positions: 5})
		}
		var b bytes.Buffer
		l.WriteTo(&b)
		return &fstest.MapFile{Data: b.Bytes()}
	}
	fsys := fstest.MapFS{}
	for _, m := range Modes {
		fsys["deals/"+FileName(m, 1)] = list(m, 1, 1)
	}
	fsys["deals/D3V-12.txt"] = list(D3V, 12, 3)
	fsys["deals/D3V-2.txt"] = list(D3V, 2, 2)
	lists, err := readLists(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(lists[D3V]) != 3 || lists[D3V][0].Seed != 1 || lists[D3V][1].Seed != 2 || lists[D3V][2].Seed != 12 || len(lists[D1N]) != 1 {
		t.Fatalf("lists %+v", lists)
	}
	fsys["deals/D3V-3.txt"] = list(D3V, 4, 4)
	if _, err := readLists(fsys); err == nil || !strings.Contains(err.Error(), "D3V-4.txt") {
		t.Errorf("a list of seed 4 in D3V-3.txt: %v", err)
	}
	delete(fsys, "deals/D3V-3.txt")
	delete(fsys, "deals/D1N.txt")
	if _, err := readLists(fsys); err == nil || !strings.Contains(err.Error(), "no list of D1N") {
		t.Errorf("no list of D1N: %v", err)
	}
}

// sample picks deals of a list to check within budget positions: the deal
// won soonest when it takes no more than the budget, then, at random,
// deals of a quarter of the budget or less while the budget lasts.
func sample(deals []Deal, r *cards.SplitMix64, budget int64) []Deal {
	var out []Deal
	var sum int64
	first := -1
	for i, d := range deals {
		if d.Positions <= budget && (first < 0 || d.Positions < deals[first].Positions) {
			first = i
		}
	}
	if first < 0 {
		return nil
	}
	out, sum = append(out, deals[first]), deals[first].Positions
	order := make([]Deal, 0, len(deals))
	for i, d := range deals {
		if i != first && d.Positions <= budget/4 {
			order = append(order, d)
		}
	}
	for i := len(order) - 1; i > 0; i-- {
		j := r.Uniform(uint64(i + 1))
		order[i], order[j] = order[j], order[i]
	}
	for _, d := range order {
		if sum+d.Positions > budget {
			break
		}
		out = append(out, d)
		sum += d.Positions
	}
	return out
}

// TestShippedLists: every mode has its lists, of its mode, read without
// error, with no deal twice.
func TestShippedLists(t *testing.T) {
	if _, err := shipped(); err != nil {
		t.Fatal(err)
	}
	for _, m := range Modes {
		for _, l := range Shipped(m) {
			if l.Mode != m || l.Budget < 1 || l.Searched < int64(len(l.Deals)) {
				t.Errorf("%s: mode %s, budget %d, %d deals of %d searched", m, l.Mode, l.Budget, len(l.Deals), l.Searched)
			}
		}
	}
}

// TestListRoundTrip: a list reads back as written, with either solver and
// with the tally solver's beam; a list without a solver line is the
// whole-board solver's, as the first lists were.
func TestListRoundTrip(t *testing.T) {
	for _, solver := range []string{Tally, Whole, "beam"} {
		beam := 0
		if solver == "beam" {
			solver, beam = Tally, 500
		}
		l := List{Mode: D3V, Solver: solver, Beam: beam, Budget: 1000, Seed: 7, Searched: 12, Deals: []Deal{
			{Mode: D3V, Number: 0, Budget: 1000, Positions: 5, Beam: beam},
			{Mode: D3V, Number: cards.DealCount - 1, Budget: 1000, Positions: 1000, Beam: beam},
		}}
		var b bytes.Buffer
		if _, err := l.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "deal AAAAAAA 5\ndeal ZZZZZZZ 1000\n") || strings.Contains(b.String(), "\nsolver tally\n") != (solver == Tally) ||
			strings.Contains(b.String(), "\nbeam 500\n") != (beam > 0) {
			t.Fatalf("list file:\n%s", b.String())
		}
		got, err := ParseList(&b)
		if err != nil {
			t.Fatal(err)
		}
		if got.Mode != l.Mode || got.Solver != solver || got.Beam != beam || got.Budget != l.Budget || got.Seed != l.Seed || got.Searched != l.Searched || len(got.Deals) != 2 ||
			got.Deals[0] != l.Deals[0] || got.Deals[1] != l.Deals[1] {
			t.Fatalf("read back %+v, want %+v", got, l)
		}
	}
}

func TestParseListRefuses(t *testing.T) {
	head := "mode D1N\nbudget 100\nseed 1\nsearched 2\n"
	for name, text := range map[string]string{
		"no mode":         "budget 100\nseed 1\nsearched 0\n",
		"no searched":     "mode D1N\nbudget 100\nseed 1\n",
		"bad mode":        "mode D2N\nbudget 100\nseed 1\nsearched 0\n",
		"field twice":     head + "seed 2\n",
		"unknown field":   head + "colour red\n",
		"bad letters":     head + "deal AAAAAA1 5\n",
		"short letters":   head + "deal AAAAAA 5\n",
		"over the budget": head + "deal AAAAAAB 101\n",
		"no positions":    head + "deal AAAAAAB\n",
		"twice":           head + "deal AAAAAAB 5\ndeal AAAAAAB 6\n",
		"too many":        head + "deal AAAAAAB 5\ndeal AAAAAAC 6\ndeal AAAAAAD 7\n",
		"deal too early":  "mode D1N\ndeal AAAAAAB 5\nbudget 100\nseed 1\nsearched 1\n",
		"zero budget":     "mode D1N\nbudget 0\nseed 1\nsearched 0\n",
		"bad solver":      head + "solver fast\n",
		"beam, whole":     head + "beam 500\n",
		"zero beam":       head + "solver tally\nbeam 0\n",
	} {
		if _, err := ParseList(strings.NewReader(text)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestStream: the modes draw different deal numbers from one seed, and a
// seed always the same ones.
func TestStream(t *testing.T) {
	a, b, again := Stream(D1N, 1), Stream(D1V, 1), Stream(D1N, 1)
	for range 100 {
		x, y, z := a(), b(), again()
		if x == y || x != z || x >= cards.DealCount {
			t.Fatalf("streams drew %d, %d, %d", x, y, z)
		}
	}
}

// TestSolveTallyPlaysCarried: a win is played through the engine of every
// mode that carries the solved mode's deals, and a win that cannot be
// carried there is an error, not a deal.
func TestSolveTallyPlaysCarried(t *testing.T) {
	ts := tally.New()
	c, _ := cards.ParseCode("DS1-D3V-IMTNWOU") // listed, won after 825 positions
	if _, won, err := SolveTally(ts, D3V, c.Deal, 1000, 0, nil); !won || err != nil {
		t.Fatalf("%s: won %v, %v", c, won, err)
	}
	saved := carries
	defer func() { carries = saved }()
	carries = map[Mode]Mode{D3N: D1N} // wrong: a draw-1 win is no draw-3 win
	n, _ := cards.ParseCode("DS1-D1N-AAAAAAB")
	if _, won, err := solveIn(ts, D1N, D1N, n.Deal, 100000, 0, nil); !won || err != nil {
		t.Fatalf("%s alone: won %v, %v", n, won, err)
	}
	if _, won, err := SolveTally(ts, D1N, n.Deal, 100000, 0, nil); won || err == nil {
		t.Fatalf("%s carried to D3N: won %v, %v", n, won, err)
	}
}

// TestSolveTallyBeam: with a beam, the tally solver wins a draw-3 Vegas
// deal that its depth-first search leaves unknown on the same budget, and
// the win is played through the engines of draw 3 and, carried, draw 1.
func TestSolveTallyBeam(t *testing.T) {
	ts := tally.New()
	c, _ := cards.ParseCode("DS1-D3V-IPAXIPO")
	if _, won, err := SolveTally(ts, D3V, c.Deal, 200000, 0, nil); won || err != nil {
		t.Fatalf("%s depth first: won %v, %v; want it not won", c, won, err)
	}
	res, won, err := SolveTally(ts, D3V, c.Deal, 200000, 500, nil)
	if !won || err != nil {
		t.Fatalf("%s with a beam of 500: won %v after %d positions, %v", c, won, res.Positions, err)
	}
}
