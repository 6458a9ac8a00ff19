// Package finishtest finds, for tests, solo games that reach a position where
// the finish action is legal. Only tests import it.
package finishtest

import (
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solo"
	"dsol/internal/solver"
)

// Line returns a Normal DS1 code of draw 1 or 3 and the actions that bring a
// new game of it to the first position of the solver's winning line where a
// finish is legal. The search is deterministic: the same draw always gives
// the same code and actions. (Vegas deals are seldom won from the start
// within a test's budget: tests build those positions themselves.)
func Line(tb testing.TB, draw int) (cards.Code, []k.Action) {
	tb.Helper()
	code := cards.Code{Kind: cards.Solo, Draw: draw}
	s := solver.New()
	for deal := range uint64(100) {
		code.Deal = deal
		res := s.SolveCode(code, solver.Options{MaxPositions: 100000})
		if res.Verdict != solver.Won {
			continue
		}
		g := Play(tb, code, nil)
		for i, a := range res.Moves {
			if g.CanFinish() {
				return code, res.Moves[:i]
			}
			if _, err := g.Apply(a); err != nil {
				tb.Fatalf("%s: the solver's action %d, %s, is refused: %v", code, i, a, err)
			}
		}
	}
	tb.Fatalf("no draw-%d deal among the first 100 reaches a finish", draw)
	return cards.Code{}, nil
}

// Play returns a new game of a code with actions applied, failing the test
// if one is refused.
func Play(tb testing.TB, code cards.Code, acts []k.Action) *solo.Game {
	tb.Helper()
	g, err := solo.New(code)
	if err != nil {
		tb.Fatal(err)
	}
	for _, a := range acts {
		if _, err := g.Apply(a); err != nil {
			tb.Fatalf("%s: %s refused: %v", code, a, err)
		}
	}
	return g
}
