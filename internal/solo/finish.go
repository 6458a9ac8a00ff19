package solo

import (
	"sync"

	k "dsol/internal/klondike"
	"dsol/internal/solver"
	"dsol/internal/solver/tally"
)

// FinishBudget bounds the search that decides whether a finish is legal: the
// solver visits at most this many positions. It is a count of positions, not
// a time, so that the same position always gets the same answer (replaying a
// game's log must give the same game). With every card face up and the stock
// empty the search usually ends after a few positions; a position it cannot
// decide within the budget is not finished.
const FinishBudget = 20000

// finishPlan is what a finish does from one position: the solver's winning
// line, or why there is none.
type finishPlan struct {
	line []k.Action
	err  error
}

// The plans of the positions a finish is refused in without a search.
var (
	planOver  = &finishPlan{err: errOver}
	planDown  = &finishPlan{err: &k.Error{Code: k.IllegalMove, Msg: "finish needs every card face up: cards are still face down in the columns"}}
	planStock = &finishPlan{err: &k.Error{Code: k.IllegalMove, Msg: "finish needs an empty stock: draw the rest of the stock first"}}
	errNoWin  = &k.Error{Code: k.IllegalMove, Msg: "finish plays only a game that can be won, and no win was found from here"}
)

// solvers keeps solvers (each holds tables of about a megabyte) for reuse by
// the games of every goroutine.
var solvers = sync.Pool{New: func() any { return solver.New() }}

// plan decides a finish from the current position: legal when no card is
// face down in the columns, the stock is empty and the solver wins the
// position within FinishBudget positions. Only a position that meets the
// first two conditions is searched, once: the answer is kept until the game
// changes.
func (g *Game) plan() *finishPlan {
	switch {
	case g.status == Won:
		return planOver
	case g.board.FaceDown() > 0:
		return planDown
	case g.board.NStock > 0:
		return planStock
	}
	if g.finishAt == nil {
		s := solvers.Get().(*solver.Solver)
		res := s.Solve(&g.board, &g.found, solver.Options{MaxPositions: FinishBudget})
		solvers.Put(s)
		if res.Verdict == solver.Won {
			g.finishAt = &finishPlan{line: res.Moves}
		} else {
			g.finishAt = &finishPlan{err: errNoWin}
		}
	}
	return g.finishAt
}

// CanFinish reports whether a finish is legal now.
func (g *Game) CanFinish() bool { return g.plan().err == nil }

// finish plays the solver's line from the current position, each action as
// Apply would play it (scored and counted one by one), as one undo step.
func (g *Game) finish() (Outcome, error) {
	p := g.plan()
	if p.err != nil {
		return Outcome{}, p.err
	}
	g.beforeFinish = position{board: g.board, found: g.found}
	var delta int32
	for _, a := range p.line {
		st, err := g.do(a)
		if err != nil {
			panic("solo: the solver's finishing line is refused: " + err.Error())
		}
		delta += g.score1(st)
	}
	g.record(undoEntry{step: k.Step{Type: k.Finish}, delta: int16(delta)})
	return Outcome{Action: k.Simple(k.Finish), Delta: int(delta), Won: g.checkWon()}, nil
}

// CheckBudget bounds the live check ("still winnable?", StillWinnable): the
// solver visits at most this many positions, a count and not a time, so the
// same position always gets the same answer on any machine.
const CheckBudget = 50000

// StillWinnable decides with full information, within budget positions,
// whether the position b, f can still be won: true (the solver won it),
// false (it proved it lost), or nil (the budget ran out, or yield, called
// every 1024 positions, returned false). Only this one answer leaves the
// search: nothing of the cards it saw.
func StillWinnable(b *k.Board, f *k.Foundations, budget int64, yield func() bool) *bool {
	var stop func() bool
	if yield != nil {
		stop = func() bool { return !yield() }
	}
	s := tally.Get()
	res := s.SolvePosition(b, f, tally.Options{MaxPositions: budget, Spent: tally.Until(stop)})
	tally.Put(s)
	var v bool
	switch res.Verdict {
	case tally.Won:
		v = true
	case tally.Unwinnable:
		v = false
	default:
		return nil
	}
	return &v
}
