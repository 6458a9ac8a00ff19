package tally_test

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solo"
	"dsol/internal/solver"
	"dsol/internal/solver/tally"
)

// TestExactAgrees solves real deals of every mode again with every pruning
// of the tally search off (Options.Exact: no forced moves, nothing left
// out, recoveries made anywhere), and with the whole-board search of the
// solver package with its own prunings off, which does not tally the
// tableau at all; and asks the relaxation with free low cards
// (Options.Free) too. Whenever two searches reach a verdict it must be the
// same (a relaxed Unwinnable must not meet a Won), and won lines replay.
// A deal the pruned tally search leaves unknown is not searched again.
// DSOL_TALLY_EXACT_DEALS sets the number of deals per mode (make
// solve-check), DSOL_TALLY_EXACT_WORKERS the searches at once; the budget is
// DSOL_TALLY_EXACT_POSITIONS positions for the pruned search and four times
// that for the others.
func TestExactAgrees(t *testing.T) {
	deals, budget := 2, int64(20000)
	if v, err := strconv.Atoi(os.Getenv("DSOL_TALLY_EXACT_DEALS")); err == nil {
		deals, budget = v, 1000000
	}
	if v, err := strconv.ParseInt(os.Getenv("DSOL_TALLY_EXACT_POSITIONS"), 10, 64); err == nil && v > 0 {
		budget = v
	}
	workers := runtime.GOMAXPROCS(0)
	if v, err := strconv.Atoi(os.Getenv("DSOL_TALLY_EXACT_WORKERS")); err == nil && v > 0 {
		workers = v
	}
	modes := []string{"D1N", "D3N", "D1V", "D3V"}
	r := cards.NewSplitMix64(7)
	var codes []cards.Code
	for _, m := range modes {
		for range deals {
			c, _ := cards.ParseCode("DS1-" + m + "-AAAAAAA")
			c.Deal = r.Uniform(cards.DealCount)
			codes = append(codes, c)
		}
	}
	// A search's verdict, by who made it.
	type outcome struct {
		pruned, exact, whole, free tally.Verdict
		positions                  [4]int64
		errs                       []error
	}
	out := make([]outcome, len(codes))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(codes)) {
		wg.Go(func() {
			s, ws := tally.New(), solver.New()
			for i := range next {
				code, o := codes[i], &out[i]
				check := func(res tally.Result) {
					if res.Verdict == tally.Won {
						if err := replayErr(code, res.Moves); err != nil {
							o.errs = append(o.errs, err)
						}
					}
				}
				res := s.SolveCode(code, tally.Options{MaxPositions: budget})
				check(res)
				o.pruned, o.positions[0] = res.Verdict, res.Positions
				if o.pruned == tally.Unknown {
					continue
				}
				res = s.SolveCode(code, tally.Options{MaxPositions: 4 * budget, Exact: true})
				check(res)
				o.exact, o.positions[1] = res.Verdict, res.Positions
				wres := ws.SolveCode(code, solver.Options{MaxPositions: 4 * budget, Exact: true})
				o.whole, o.positions[2] = tally.Verdict(wres.Verdict), wres.Positions
				if wres.Verdict == solver.Won {
					if err := replayErr(code, wres.Moves); err != nil {
						o.errs = append(o.errs, err)
					}
				}
				res = s.SolveCode(code, tally.Options{MaxPositions: 4 * budget, Free: 4})
				o.free, o.positions[3] = res.Verdict, res.Positions
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
	for m, mode := range modes {
		var decided, agree int
		tallies := map[string]int{}
		for i := m * deals; i < (m+1)*deals; i++ {
			o, code := out[i], codes[i]
			for _, err := range o.errs {
				t.Error(err)
			}
			key := fmt.Sprintf("%s/%s/%s/%s", o.pruned, o.exact, o.whole, o.free)
			tallies[key]++
			t.Logf("%s: pruned %s, exact %s, whole board %s, free below 4 %s (positions %v)", code, o.pruned, o.exact, o.whole, o.free, o.positions)
			if o.pruned == tally.Unknown {
				continue
			}
			decided++
			ok := true
			for _, v := range []tally.Verdict{o.exact, o.whole} {
				if v != tally.Unknown && v != o.pruned {
					ok = false
				}
			}
			if o.free == tally.Unwinnable && o.pruned == tally.Won {
				ok = false
			}
			if !ok {
				t.Errorf("%s: the searches disagree: %s", code, key)
			} else {
				agree++
			}
		}
		t.Logf("%s: %d deals, %d decided by the pruned search, all others agreeing on %d; pruned/exact/whole/free: %v", mode, deals, decided, agree, tallies)
	}
}

// replayErr is replay's check for goroutines: why a line does not win a new
// game of the code, or nil.
func replayErr(code cards.Code, moves []k.Action) error {
	g, err := solo.New(code)
	if err != nil {
		return err
	}
	for i, a := range moves {
		if _, err := g.Apply(a); err != nil {
			return fmt.Errorf("%s: action %d of %d, %s: %v", code, i, len(moves), a, err)
		}
	}
	if g.Status() != solo.Won {
		return fmt.Errorf("%s: the line of %d actions leaves the game %s", code, len(moves), g.Status())
	}
	return nil
}
