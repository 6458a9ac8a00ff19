package solo_test

import (
	"math/rand/v2"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solo"
	"dsol/internal/solver"
)

// checkPositions deals n random games of a mode and plays each for 20 to
// 160 actions, the bot's useful move three times in four and a draw (or
// recycle) otherwise, and returns the games still in play.
func checkPositions(tb testing.TB, seed uint64, draw int, vegas bool, n int) []*solo.Game {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, uint64(draw)))
	var out []*solo.Game
	for len(out) < n {
		g, err := solo.New(cards.Code{Kind: cards.Solo, Draw: draw, Vegas: vegas, Deal: r.Uint64N(cards.DealCount)})
		if err != nil {
			tb.Fatal(err)
		}
		for range 20 + r.IntN(140) {
			s := g.Seen()
			a, ok := k.UsefulMove(&s.Board, g.Foundations())
			if !ok || r.IntN(4) == 0 {
				a = k.Simple(k.Draw)
				if g.Board().NStock == 0 {
					a = k.Simple(k.Recycle)
				}
			}
			if _, err := g.Apply(a); err != nil {
				break
			}
		}
		if g.Status() == solo.Playing {
			out = append(out, g)
		}
	}
	return out
}

// TestStillWinnableDecides: the live check decides mid-game positions of
// every mode at least as often as the whole-board solver does within the
// same budget, and never contradicts it.
func TestStillWinnableDecides(t *testing.T) {
	for _, m := range []struct {
		name  string
		draw  int
		vegas bool
	}{{"D1N", 1, false}, {"D3N", 3, false}, {"D1V", 1, true}, {"D3V", 3, true}} {
		t.Run(m.name, func(t *testing.T) {
			s := solver.New()
			var check, whole int
			for _, g := range checkPositions(t, 3, m.draw, m.vegas, 48) {
				got := solo.StillWinnable(g.Board(), g.Foundations(), solo.CheckBudget, nil)
				w := s.Solve(g.Board(), g.Foundations(), solver.Options{MaxPositions: solo.CheckBudget})
				if got != nil {
					check++
				}
				if w.Verdict != solver.Unknown {
					whole++
					if got != nil && *got != (w.Verdict == solver.Won) {
						t.Fatalf("%s: the live check says won %v, the whole-board solver %s", g.Code(), *got, w.Verdict)
					}
				}
			}
			t.Logf("decided of 48: live check %d, whole-board solver %d", check, whole)
			if check < whole {
				t.Fatalf("the live check decided %d positions of 48, the whole-board solver %d", check, whole)
			}
		})
	}
}
