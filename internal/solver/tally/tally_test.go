package tally_test

import (
	"fmt"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solo"
	"dsol/internal/solver/tally"
)

// replay plays a line in a new game of the code through the solo engine and
// fails unless every action is accepted and the game ends won.
func replay(t *testing.T, code cards.Code, res tally.Result) {
	t.Helper()
	g, err := solo.New(code)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range res.Moves {
		if _, err := g.Apply(a); err != nil {
			t.Fatalf("%s: action %d of %d, %s: %v", code, i, len(res.Moves), a, err)
		}
	}
	if g.Status() != solo.Won {
		t.Fatalf("%s: the line of %d actions leaves the game %s", code, len(res.Moves), g.Status())
	}
}

// TestWonLinesReplay: every line SolveCode calls a win wins a new game of
// the code through the solo engine, in all four modes, and no search goes
// over its budget.
func TestWonLinesReplay(t *testing.T) {
	r := cards.NewSplitMix64(5)
	s := tally.New()
	won := map[string]int{}
	for _, mode := range []string{"D1N", "D3N", "D1V", "D3V"} {
		for range 6 {
			c, _ := cards.ParseCode("DS1-" + mode + "-AAAAAAA")
			c.Deal = r.Uniform(cards.DealCount)
			const budget = 50000
			res := s.SolveCode(c, tally.Options{MaxPositions: budget})
			if res.Positions > budget {
				t.Fatalf("%s: %d positions on a budget of %d", c, res.Positions, budget)
			}
			if res.Verdict == tally.Won {
				won[mode]++
				replay(t, c, res)
			} else if res.Moves != nil {
				t.Fatalf("%s: %s with moves", c, res.Verdict)
			}
		}
	}
	if won["D1N"] == 0 || won["D3N"] == 0 {
		t.Fatalf("wins by mode %v: nothing replayed in Normal", won)
	}
}

// TestDrawOneVegas: a draw-1 Vegas deal won through its draw-3 search
// (the first three quarters of the budget) replays at draw 1.
func TestDrawOneVegas(t *testing.T) {
	c, _ := cards.ParseCode("DS1-D1V-AVNUXSV") // won at draw 3 after about 100,000 positions
	res := tally.New().SolveCode(c, tally.Options{MaxPositions: 400000})
	if res.Verdict != tally.Won {
		t.Fatalf("%s: %s after %d positions", c, res.Verdict, res.Positions)
	}
	replay(t, c, res)
}

// TestSpent: Options.Spent, asked every 1024 positions, ends each pass of
// a schedule at its share and the search at 1, with Unknown.
func TestSpent(t *testing.T) {
	for _, code := range []string{"DS1-D1V-AAAAAAB", "DS1-D3V-AAAAAAB", "DS1-D1V-AAAAAAC"} {
		c, _ := cards.ParseCode(code)
		calls := 0
		res := tally.New().SolveCode(c, tally.Options{Spent: func() float64 { calls++; return float64(calls) / 64 }})
		if res.Verdict != tally.Unknown || calls != 64 {
			t.Fatalf("%s: %s after %d positions and %d calls", code, res.Verdict, res.Positions, calls)
		}
		if res.Positions < 40*1024 || res.Positions > 64*1024 {
			t.Fatalf("%s: %d positions in 64 calls, one every 1024 positions of a pass", code, res.Positions)
		}
	}
}

// TestBudget: a search stops at its position budget with Unknown, or ends
// before it, however small the budget; a beam search too, and the beams
// before the depth-first search.
func TestBudget(t *testing.T) {
	s := tally.New()
	for _, code := range []string{"DS1-D1V-AAAAAAC", "DS1-D3V-AAAAAAC"} {
		c, _ := cards.ParseCode(code)
		for _, o := range []tally.Options{{}, {Beam: 50}, {Beams: true}} {
			for _, n := range []int64{1, 2, 31, 5000} {
				o.MaxPositions = n
				res := s.SolveCode(c, o)
				if res.Positions > n || (res.Verdict == tally.Unknown && res.Positions != n) {
					t.Fatalf("%s, beam %d, beams %v: %s after %d positions of a budget of %d", code, o.Beam, o.Beams, res.Verdict, res.Positions, n)
				}
			}
		}
	}
}

// TestBeam: a beam search wins Vegas deals that the depth-first search
// leaves unknown on a far larger budget (these were unknown at 1,000,000
// positions in the solvability sample), and its lines win through the solo
// engine.
func TestBeam(t *testing.T) {
	s := tally.New()
	for _, code := range []string{"DS1-D3V-IPAXIPO", "DS1-D1V-CXAPYWT"} {
		c, _ := cards.ParseCode(code)
		if res := s.SolveCode(c, tally.Options{MaxPositions: 500000}); res.Verdict != tally.Unknown {
			t.Fatalf("%s: the depth-first search %s after %d positions; want it unknown", code, res.Verdict, res.Positions)
		}
		res := s.SolveCode(c, tally.Options{MaxPositions: 500000, Beam: 500})
		if res.Verdict != tally.Won {
			t.Fatalf("%s: the beam %s after %d positions", code, res.Verdict, res.Positions)
		}
		replay(t, c, res)
	}
}

// TestBeams: with Options.Beams and a budget, the beams win single-pass
// deals that the depth-first search leaves unknown (and the lines win
// through the solo engine); the depth-first search, after them, still
// proves what it proves, and has the budget to the last position when
// nothing is decided. Normal deals, and searches without a budget, are
// searched as without Beams.
func TestBeams(t *testing.T) {
	s := tally.New()
	for _, code := range []string{"DS1-D3V-IPAXIPO", "DS1-D1V-CXAPYWT"} { // unknown depth first at 500,000 (TestBeam)
		c, _ := cards.ParseCode(code)
		res := s.SolveCode(c, tally.Options{MaxPositions: 500000, Beams: true})
		if res.Verdict != tally.Won || res.Positions > 500000 {
			t.Fatalf("%s: %s after %d positions of 500,000", code, res.Verdict, res.Positions)
		}
		replay(t, c, res)
	}
	lost, _ := cards.ParseCode("DS1-D3V-JMAJKDO")
	alone := s.SolveCode(lost, tally.Options{MaxPositions: 100000})
	if alone.Verdict != tally.Unwinnable || alone.Positions < 20000 {
		t.Fatalf("%s: depth first %s after %d positions; want a proof of loss that takes a search", lost, alone.Verdict, alone.Positions)
	}
	res := s.SolveCode(lost, tally.Options{MaxPositions: 100000, Beams: true})
	if res.Verdict != tally.Unwinnable || res.Positions <= alone.Positions || res.Positions > 100000 {
		t.Fatalf("%s: %s after %d positions, beams first; depth first alone %s after %d", lost, res.Verdict, res.Positions, alone.Verdict, alone.Positions)
	}
	if res := s.SolveCode(lost, tally.Options{Beams: true}); res.Verdict != alone.Verdict || res.Positions != alone.Positions {
		t.Fatalf("%s, no budget: %s after %d positions; want the depth-first search alone, %s after %d", lost, res.Verdict, res.Positions, alone.Verdict, alone.Positions)
	}
	open, _ := cards.ParseCode("DS1-D1V-JHQHCPK") // no beam of 50,000 wins it
	if res := s.SolveCode(open, tally.Options{MaxPositions: 300000, Beams: true}); res.Verdict != tally.Unknown || res.Positions != 300000 {
		t.Fatalf("%s: %s after %d positions; want unknown after the whole budget of 300,000", open, res.Verdict, res.Positions)
	}
	for _, code := range []string{"DS1-D1N-AAAAAAB", "DS1-D3N-AAAAAAB"} {
		c, _ := cards.ParseCode(code)
		want := s.SolveCode(c, tally.Options{MaxPositions: 20000})
		got := s.SolveCode(c, tally.Options{MaxPositions: 20000, Beams: true})
		if got.Verdict != want.Verdict || got.Positions != want.Positions || fmt.Sprint(got.Moves) != fmt.Sprint(want.Moves) {
			t.Fatalf("%s: %s after %d positions with Beams, %s after %d without", code, got.Verdict, got.Positions, want.Verdict, want.Positions)
		}
	}
}

// TestReuse: a Solver gives the same answer on its first search and after
// others.
func TestReuse(t *testing.T) {
	s := tally.New()
	c, _ := cards.ParseCode("DS1-D1N-AAAAAAA")
	first := s.SolveCode(c, tally.Options{MaxPositions: 20000})
	v, _ := cards.ParseCode("DS1-D3V-QWERTYZ")
	s.SolveCode(v, tally.Options{MaxPositions: 20000})
	again := s.SolveCode(c, tally.Options{MaxPositions: 20000})
	if again.Verdict != first.Verdict || again.Positions != first.Positions || fmt.Sprint(again.Moves) != fmt.Sprint(first.Moves) {
		t.Fatalf("again %s after %d, first %s after %d", again.Verdict, again.Positions, first.Verdict, first.Positions)
	}
}

// TestCarry: a draw-3 Vegas win, carried to each mode that covers draw-3
// Vegas (rewritten for draw 1 where the draw changes), wins that mode's game
// of the same deal through the solo engine; the line not rewritten does not
// win at draw 1, and a win does not carry to a mode that does not cover it.
func TestCarry(t *testing.T) {
	c3, _ := cards.ParseCode("DS1-D3V-AVNUXSV") // won at draw 3 after about 100,000 positions
	res := tally.New().Solve(dealt(c3), &k.Foundations{}, tally.Options{MaxPositions: 1 << 20})
	if res.Verdict != tally.Won {
		t.Fatalf("%s: %s after %d positions", c3, res.Verdict, res.Positions)
	}
	for _, m := range []string{"D3V", "D1V", "D3N", "D1N"} {
		to, _ := cards.ParseCode("DS1-" + m + "-AVNUXSV")
		moves, err := tally.Carry(c3, res.Moves, to)
		if err != nil {
			t.Fatal(err)
		}
		replay(t, to, tally.Result{Moves: moves})
		draws := 0
		for _, a := range moves {
			if a.Type == k.Draw {
				draws++
			}
		}
		if want := map[int]int{1: 59, 3: 20}[to.Draw]; draws != want {
			t.Errorf("%s: %d draws in the carried line, want %d", to, draws, want)
		}
	}
	c1 := c3
	c1.Draw = 1
	g, _ := solo.New(c1)
	for _, a := range res.Moves {
		if _, err := g.Apply(a); err != nil {
			break
		}
	}
	if g.Status() == solo.Won {
		t.Error("the draw-3 line wins at draw 1 without being rewritten: the test shows nothing")
	}
	for _, p := range [][2]string{{"D1V", "D3V"}, {"D3N", "D3V"}, {"D1N", "D3N"}} {
		from, _ := cards.ParseCode("DS1-" + p[0] + "-AVNUXSV")
		to, _ := cards.ParseCode("DS1-" + p[1] + "-AVNUXSV")
		if _, err := tally.Carry(from, res.Moves, to); err == nil {
			t.Errorf("a win of %s carried to %s", from, to)
		}
	}
}

// dealt returns the board of a solo code's deal.
func dealt(c cards.Code) *k.Board {
	var b k.Board
	deck := cards.SoloDeck(c)
	b.Deal(deck[:], k.MaxColumns, c.Draw, !c.Vegas)
	return &b
}

// TestUntil: a search given tally.Until stops with Unknown once its
// function says so, and runs to its verdict while it does not.
func TestUntil(t *testing.T) {
	if tally.Until(nil) != nil {
		t.Fatal("Until(nil) is not nil")
	}
	c, _ := cards.ParseCode("DS1-D1V-AAAAAAB")
	asked := 0
	res := tally.New().SolveCode(c, tally.Options{Spent: tally.Until(func() bool { asked++; return asked > 3 })})
	if res.Verdict != tally.Unknown || asked != 4 || res.Positions > 4*1024 {
		t.Fatalf("%s after %d positions, asked %d times", res.Verdict, res.Positions, asked)
	}
	c, _ = cards.ParseCode("DS1-D3N-AAAAAAB")
	if res := tally.New().SolveCode(c, tally.Options{Spent: tally.Until(func() bool { return false })}); res.Verdict != tally.Won {
		t.Fatalf("%s: %s", c, res.Verdict)
	}
}
