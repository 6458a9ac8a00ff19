package solo

import (
	"strings"
	"testing"

	k "dsol/internal/klondike"
	"dsol/internal/solver"
)

// endFoundations hold every card but 7 of the second deck: the spades TS
// to KS and the diamonds JD to KD.
const endFoundations = `
f1: AS..KS
f2: AS..9S
f3: AH..KH
f4: AH..KH
f5: AD..KD
f6: AD..TD
f7: AC..KC
f8: AC..KC
`

// endPosition has every card face up and the stock empty, and 7 cards to
// play: the KD on top of the waste covers the TS that the JS of c1 waits
// for, so a win moves the KD to an empty column (or, in Normal, recycles).
const endPosition = `
c1: KS QD JS
w: QS JD TS KD
` + endFoundations

// deepWaste has the QS on top of the waste with nowhere to go: Normal
// recycles to reach the KD under it, Vegas takes a red king back from the
// foundations for the QS.
const deepWaste = `
c1: KS QD JS
w: KD TS JD QS
` + endFoundations

// halfTable is endPosition without the other suits' foundations: finishing
// it does not win the game (cards are missing), so its finish can be undone.
const halfTable = `
c1: KS QD JS
w: QS JD TS KD
f2: AS..9S
f6: AD..TD
`

// finishModes are the settings lines of the four modes (a Normal score that
// a recycle costs points from).
var finishModes = []string{"draw: 1 scoring: normal score: 530", "draw: 3 scoring: normal score: 530", "draw: 1 scoring: vegas", "draw: 3 scoring: vegas"}

// Finish is legal only with every column card face up, an empty stock and a
// win the solver finds; each refusal says which condition failed and
// changes nothing.
func TestFinishLegal(t *testing.T) {
	for _, tc := range []struct {
		name, pos, why string
	}{
		{"face down", "c1: ## KS QD JS\nw: QS JD TS KD\nf2: AS..9S\nf6: AD..TD", "face down"},
		{"stock", "c1: KS QD JS\nw: QS JD TS\ns: KD\nf2: AS..9S\nf6: AD..TD", "stock"},
		{"no win", "w: AS 2S\nscoring: vegas", "no win"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := mustPosition(t, tc.pos)
			if g.CanFinish() || g.View().Finish {
				t.Fatalf("finish offered in\n%s", formatPosition(g))
			}
			mustRefuse(t, g, "finish", k.IllegalMove)
			_, err := g.Apply(k.Simple(k.Finish))
			if !strings.Contains(err.Error(), tc.why) {
				t.Errorf("refusal %q does not say %q", err, tc.why)
			}
		})
	}
	for _, mode := range finishModes {
		g := mustPosition(t, endPosition+mode)
		if !g.CanFinish() || !g.View().Finish {
			t.Fatalf("%s: finish not offered in\n%s", mode, formatPosition(g))
		}
		out := mustApply(t, g, "finish")
		if !out.Won || g.Status() != Won || g.Foundations().Total() != TotalCards {
			t.Fatalf("%s: finish gives %+v, status %s, %d cards up", mode, out, g.Status(), g.Foundations().Total())
		}
		if g.View().Finish {
			t.Errorf("%s: finish still offered once won", mode)
		}
		mustRefuse(t, g, "undo", k.GameOver) // a won game takes no undo
		mustRefuse(t, g, "finish", k.GameOver)
	}
}

// A finish ends exactly where the solver's line, applied one action at a
// time, ends: same piles, score, moves and status, the points summed, in
// both scorings and both draws.
func TestFinishIsTheSolversLine(t *testing.T) {
	columnMoves := 0
	for _, pos := range []string{endPosition, deepWaste} {
		for _, mode := range finishModes {
			g := mustPosition(t, pos+mode)
			res := solver.New().Solve(&g.board, &g.found, solver.Options{MaxPositions: FinishBudget})
			if res.Verdict != solver.Won {
				t.Fatalf("%s: the solver says %s\n%s", mode, res.Verdict, formatPosition(g))
			}
			byHand := *g
			sum := 0
			for _, a := range res.Moves {
				out, err := byHand.Apply(a)
				if err != nil {
					t.Fatalf("%s: %s refused: %v", mode, a, err)
				}
				sum += out.Delta
				if a.Type != k.Move || !a.To.IsSlot() {
					columnMoves++
				}
			}
			undo := g.UndoAvailable()
			out := mustApply(t, g, "finish")
			if snap(g) != snap(&byHand) || g.Moves() != byHand.Moves() || out.Delta != sum || !out.Won {
				t.Fatalf("%s: finish gives\n%sscore %d moves %d delta %d\nthe line one by one\n%sscore %d moves %d delta %d",
					mode, formatPosition(g), g.Score(), g.Moves(), out.Delta, formatPosition(&byHand), byHand.Score(), byHand.Moves(), sum)
			}
			if g.Moves() != len(res.Moves) || out.Action != k.Simple(k.Finish) {
				t.Errorf("%s: %d moves for a line of %d, action %s", mode, g.Moves(), len(res.Moves), out.Action)
			}
			if g.UndoAvailable() != undo+1 {
				t.Errorf("%s: %d undo steps after a finish, want %d", mode, g.UndoAvailable(), undo+1)
			}
		}
	}
	if columnMoves == 0 {
		t.Error("no line played anything but foundation moves: the positions test too little")
	}
}

// A finish is one undo step: one undo puts back the position before it
// exactly (the move counter keeps counting), and finish is offered again.
func TestFinishUndo(t *testing.T) {
	for _, mode := range finishModes {
		g := mustPosition(t, halfTable+mode)
		mustApply(t, g, "c1>c2 x3", "c2>c1 x3") // a history to keep
		before, moves, undo := snap(g), g.Moves(), g.UndoAvailable()
		out := mustApply(t, g, "finish")
		if out.Won || g.Board().CardsLeft() != 0 {
			t.Fatalf("%s: finish left %d cards (won %v)", mode, g.Board().CardsLeft(), out.Won)
		}
		back := mustApply(t, g, "undo")
		if snap(g) != before || back.Delta != -out.Delta {
			t.Fatalf("%s: undo gives\n%swant\n%s", mode, formatPosition(g), formatPosition(mustPosition(t, halfTable+mode)))
		}
		if g.Moves() <= moves || g.UndoAvailable() != undo || !g.View().Finish {
			t.Errorf("%s: after the undo moves %d (before %d), undo %d (before %d), finish %v", mode, g.Moves(), moves, g.UndoAvailable(), undo, g.View().Finish)
		}
		mustApply(t, g, "undo", "undo")
		if g.UndoAvailable() != 0 {
			t.Errorf("%s: %d undo steps left", mode, g.UndoAvailable())
		}
	}
}
