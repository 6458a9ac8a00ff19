package solver_test

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solo"
	"dsol/internal/solver"
)

var modes = []string{"D1N", "D3N", "D1V", "D3V"}

// replay plays a line in a new game of the code through the solo engine and
// fails unless every action is accepted and the game ends won.
func replay(t *testing.T, code cards.Code, moves []k.Action) {
	t.Helper()
	if err := replayErr(code, moves); err != nil {
		t.Fatal(err)
	}
}

// replayErr is replay's check, for goroutines that may not call t.Fatal: it
// says why the line does not win, or returns nil.
func replayErr(code cards.Code, moves []k.Action) error {
	g, err := solo.New(code)
	if err != nil {
		return err
	}
	for i, a := range moves {
		if _, err := g.Apply(a); err != nil {
			return fmt.Errorf("%s: action %d of %d, %s, refused: %v", code, i, len(moves), a, err)
		}
	}
	if g.Status() != solo.Won {
		return fmt.Errorf("%s: the line of %d actions ends with the game %s", code, len(moves), g.Status())
	}
	return nil
}

// randomCode returns a random DS1 code of a mode.
func randomCode(t testing.TB, r *cards.SplitMix64, mode string) cards.Code {
	c, err := cards.ParseCode("DS1-" + mode + "-AAAAAAA")
	if err != nil {
		t.Fatal(err)
	}
	c.Deal = r.Uniform(cards.DealCount)
	return c
}

// TestWonLinesReplay: every line the solver calls a win wins the game when
// sent to the engine, in all four modes. DSOL_SOLVER_DEALS sets the number
// of deals per mode.
func TestWonLinesReplay(t *testing.T) {
	deals := 5
	if testing.Short() {
		deals = 2
	}
	if v, err := strconv.Atoi(os.Getenv("DSOL_SOLVER_DEALS")); err == nil {
		deals = v
	}
	r := cards.NewSplitMix64(1)
	s := solver.New()
	won := 0
	for _, mode := range modes {
		for range 2 * deals {
			code := randomCode(t, r, mode)
			res := s.SolveCode(code, solver.Options{MaxPositions: 30000})
			switch res.Verdict {
			case solver.Won:
				won++
				replay(t, code, res.Moves)
			case solver.Unknown:
				if res.Moves != nil {
					t.Errorf("%s: unknown with a line", code)
				}
			}
		}
	}
	if won == 0 {
		t.Fatal("no deal was won: nothing was replayed")
	}
}

// TestKnownDeal pins one quickly won deal of each Normal mode.
func TestKnownDeal(t *testing.T) {
	for _, code := range []string{"DS1-D1N-AAAAAAA", "DS1-D3N-AAAAAAB"} {
		c, err := cards.ParseCode(code)
		if err != nil {
			t.Fatal(err)
		}
		res := solver.New().SolveCode(c, solver.Options{MaxPositions: 200000})
		if res.Verdict != solver.Won {
			t.Fatalf("%s: %s after %d positions", code, res.Verdict, res.Positions)
		}
		replay(t, c, res.Moves)
	}
}

// TestSolverReuse: a Solver gives the same answer on its first search and
// after others.
func TestSolverReuse(t *testing.T) {
	codes := []string{"DS1-D1N-AAAAAAA", "DS1-D3V-QWERTYZ", "DS1-D1N-AAAAAAA"}
	s := solver.New()
	var first solver.Result
	for i, code := range codes {
		c, _ := cards.ParseCode(code)
		res := s.SolveCode(c, solver.Options{MaxPositions: 20000})
		if i == 0 {
			first = res
		}
		if i == 2 && (res.Verdict != first.Verdict || res.Positions != first.Positions || fmt.Sprint(res.Moves) != fmt.Sprint(first.Moves)) {
			t.Fatalf("%s again: %s, %d positions; first %s, %d", code, res.Verdict, res.Positions, first.Verdict, first.Positions)
		}
	}
}

// TestBudget: a search stops at its position budget with Unknown, or ends
// before it, however small the budget; and a tiny time budget stops it too.
func TestBudget(t *testing.T) {
	c, _ := cards.ParseCode("DS1-D1V-AAAAAAC")
	s := solver.New()
	for _, n := range []int64{1, 2, 31, 5000} {
		res := s.SolveCode(c, solver.Options{MaxPositions: n})
		if res.Positions > n || (res.Verdict == solver.Unknown && res.Positions != n) {
			t.Fatalf("%s after %d positions of a budget of %d", res.Verdict, res.Positions, n)
		}
	}
	if res := s.SolveCode(c, solver.Options{MaxTime: time.Nanosecond}); res.Verdict != solver.Unknown || res.Positions > 3*1024 {
		t.Fatalf("a budget of 1 ns: %s after %d positions", res.Verdict, res.Positions)
	}
}

// TestExactAgrees solves real deals again with every pruning off and a large
// budget: when both searches reach a verdict it must be the same, and Won
// lines of both replay. DSOL_SOLVER_EXACT_DEALS sets the number of deals per
// mode (docs/solver.md §1.4 gives a run of 75), DSOL_SOLVER_EXACT_WORKERS the
// searches at once (default GOMAXPROCS). The deals are drawn up front, so
// they do not depend on the number of workers. A deal the search with
// prunings leaves unknown is not searched again: there is nothing to
// compare, and most Vegas deals would spend the whole budget again.
func TestExactAgrees(t *testing.T) {
	deals := 2
	if testing.Short() {
		deals = 1
	}
	if v, err := strconv.Atoi(os.Getenv("DSOL_SOLVER_EXACT_DEALS")); err == nil {
		deals = v
	}
	budget := int64(20000)
	if os.Getenv("DSOL_SOLVER_EXACT_DEALS") != "" {
		budget = 2000000
	}
	workers := runtime.GOMAXPROCS(0)
	if v, err := strconv.Atoi(os.Getenv("DSOL_SOLVER_EXACT_WORKERS")); err == nil && v > 0 {
		workers = v
	}
	r := cards.NewSplitMix64(7)
	var codes []cards.Code
	for _, mode := range modes {
		for range deals {
			codes = append(codes, randomCode(t, r, mode))
		}
	}

	// Each worker has its own Solver (a Solver is not safe for concurrent
	// use) and reports into its deal's slot; only this goroutine fails the
	// test.
	type outcome struct {
		fast, slow solver.Result
		errs       []error // Won lines that do not replay
	}
	out := make([]outcome, len(codes))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(codes)) {
		wg.Go(func() {
			s := solver.New()
			for i := range next {
				code := codes[i]
				o := &out[i]
				o.fast = s.SolveCode(code, solver.Options{MaxPositions: budget})
				if o.fast.Verdict == solver.Unknown {
					// Nothing to compare: the search without prunings is
					// not run (most Vegas deals, which would spend its
					// whole budget too).
					o.slow = solver.Result{Verdict: solver.Unknown}
				} else {
					o.slow = s.SolveCode(code, solver.Options{MaxPositions: 4 * budget, Exact: true})
				}
				for _, res := range []solver.Result{o.fast, o.slow} {
					if res.Verdict == solver.Won {
						if err := replayErr(code, res.Moves); err != nil {
							o.errs = append(o.errs, err)
						}
					}
				}
				if o.fast.Verdict == solver.Unknown {
					t.Logf("%s: unknown in %d positions with pruning, not searched again, %.1f s",
						code, o.fast.Positions, o.fast.Elapsed.Seconds())
				} else {
					t.Logf("%s: %s in %d positions with pruning, %s in %d without, %.1f s",
						code, o.fast.Verdict, o.fast.Positions, o.slow.Verdict, o.slow.Positions,
						(o.fast.Elapsed + o.slow.Elapsed).Seconds())
				}
			}
		})
	}
	for j := range deals { // the modes by turns, so that a run cut short has some of each
		for m := range modes {
			next <- m*deals + j
		}
	}
	close(next)
	wg.Wait()

	verdicts := []solver.Verdict{solver.Won, solver.Unwinnable, solver.Unknown}
	for m, mode := range modes {
		var pairs [3][3]int
		compared := 0
		for i := m * deals; i < (m+1)*deals; i++ {
			o := out[i]
			for _, err := range o.errs {
				t.Error(err)
			}
			pairs[o.fast.Verdict][o.slow.Verdict]++
			if o.fast.Verdict != solver.Unknown && o.slow.Verdict != solver.Unknown {
				compared++
				if o.fast.Verdict != o.slow.Verdict {
					t.Errorf("%s: %s with pruning, %s without", codes[i], o.fast.Verdict, o.slow.Verdict)
				}
			}
		}
		tally := ""
		for _, f := range verdicts {
			for _, e := range verdicts {
				switch n := pairs[f][e]; {
				case n > 0 && f == solver.Unknown:
					tally += fmt.Sprintf(", unknown/not searched again %d", n)
				case n > 0:
					tally += fmt.Sprintf(", %s/%s %d", f, e, n)
				}
			}
		}
		t.Logf("%s: %d deals, %d with a verdict both ways%s (with pruning/without)", mode, deals, compared, tally)
	}
}

// TestYield: a search calls Options.Yield as it goes, gives the same result
// when it pauses there, and stops with Unknown when Yield says so.
func TestYield(t *testing.T) {
	c, _ := cards.ParseCode("DS1-D1N-AAAAAAK") // won after about 15,000 positions
	s := solver.New()
	plain := s.SolveCode(c, solver.Options{MaxPositions: 50000})
	calls := 0
	paused := s.SolveCode(c, solver.Options{MaxPositions: 50000, Yield: func() bool {
		calls++
		if calls%8 == 0 {
			time.Sleep(time.Millisecond)
		}
		return true
	}})
	if paused.Verdict != plain.Verdict || paused.Positions != plain.Positions || fmt.Sprint(paused.Moves) != fmt.Sprint(plain.Moves) {
		t.Fatalf("with pauses %s after %d positions; without %s after %d", paused.Verdict, paused.Positions, plain.Verdict, plain.Positions)
	}
	if want := plain.Positions / 1024; want < 8 || int64(calls) < want {
		t.Fatalf("Yield called %d times in %d positions", calls, plain.Positions)
	}
	v, _ := cards.ParseCode("DS1-D1V-AAAAAAC")
	calls = 0
	res := s.SolveCode(v, solver.Options{MaxPositions: 1 << 20, Yield: func() bool { calls++; return calls < 3 }})
	if res.Verdict != solver.Unknown || calls != 3 || res.Positions > 3*1024 {
		t.Fatalf("stopped at the third call: %s after %d positions and %d calls", res.Verdict, res.Positions, calls)
	}
}

// TestShortLine: with Options.Short the winning line is the shortest
// through the search's path: it still wins through the solo engine, is
// never longer than the path's own line, and cuts a wandering one down to a
// fraction (these deals' paths run to 70,000-80,000 solver moves).
func TestShortLine(t *testing.T) {
	for _, c := range []string{"DS1-D3N-AACUOAX", "DS1-D1N-AADGGPX", "DS1-D1N-AAAAAAB", "DS1-D3N-AAAAAAC"} {
		t.Run(c, func(t *testing.T) {
			code, err := cards.ParseCode(c)
			if err != nil {
				t.Fatal(err)
			}
			long := solver.New().SolveCode(code, solver.Options{MaxPositions: 1_000_000})
			short := solver.New().SolveCode(code, solver.Options{MaxPositions: 1_000_000, Short: true})
			if long.Verdict != solver.Won || short.Verdict != solver.Won {
				t.Fatalf("verdicts %v, %v", long.Verdict, short.Verdict)
			}
			replay(t, code, short.Moves)
			if len(short.Moves) > len(long.Moves) {
				t.Fatalf("the short line has %d actions, the path's %d", len(short.Moves), len(long.Moves))
			}
			if len(long.Moves) > 20000 && len(short.Moves) > len(long.Moves)/4 {
				t.Fatalf("the short line has %d actions of the path's %d", len(short.Moves), len(long.Moves))
			}
			t.Logf("%s: %d actions, %d on the path's line", c, len(short.Moves), len(long.Moves))
		})
	}
}
