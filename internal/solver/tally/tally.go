// Package tally decides solo Double Klondike deals with full information, in
// every mode (draw 1 or 3, Normal's recycles or Vegas's single pass), by a
// search over abstract positions in which the tableau is tallied rather
// than laid out.
//
// # The abstraction
//
// Call a column's face-down cards and the lowest face-up card above them
// "in place": they have never left the column. Every other face-up card of
// the tableau is in the "pool": it sits on a card one rank higher of the
// other colour (its host), or, a king, at the foot of a column with nothing
// in place. An abstract position keeps the cards in place (how many are
// left of each column), the talon (stock and waste, in order), the heights
// of the foundation slots, and only the number of pool cards of each face;
// which host each pool card sits on is forgotten. It is valid when every
// kind (rank and colour) has no more pool cards than there are face-up
// tableau cards of its host kind, and there are no more pool kings than
// columns with nothing in place.
//
// The abstraction is exact: a position of the game is won exactly when its
// abstract position is. Every move of the game is an abstract move or
// changes nothing abstract (a run moved from one host to another). Every
// abstract move can be made in the game from any layout of its position,
// with at most one run moved first: a card joining the pool needs a host
// of its kind with nothing on it, and one exists because the counts say a
// host is free (a face-up card with nothing on it is a column's top, never
// in the run being moved, whose cards are all lower); a card leaving the
// tableau first has the run on it moved to another free card of its kind,
// which the counts after the move promise. So every layout of an abstract
// position can play every abstract line, and the search never looks at
// layouts: the countless ways of shuffling runs between columns, which
// make whole-board searches of Vegas deals run out of budget, are gone.
//
// # The search
//
// Depth first, with a transposition table of 128-bit keys, over abstract
// moves: a card in place, on the talon (any card the draws can bring to the
// top, as the solver package's search does) or in the pool to a
// foundation; a card in place or on the talon to the pool; a foundation's
// top back to the pool. Moves are forced or left out when that provably
// keeps every win (see autoPlay and gen); Options.Exact switches that off
// for checking. A won line is spelt in the engine's actions (see line), and
// replays to a win.
//
// The package is pure: no clock, no I/O. Time budgets are the caller's,
// through Options.Stop.
package tally

import (
	"fmt"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// Verdict is the outcome of a search.
type Verdict uint8

// The three verdicts.
const (
	// Unknown: the budget ran out, or Options.Stop stopped the search.
	Unknown Verdict = iota
	// Won: Result.Moves wins the game.
	Won
	// Unwinnable: no line of legal actions wins the game.
	Unwinnable
)

// String returns "unknown", "won" or "unwinnable".
func (v Verdict) String() string {
	switch v {
	case Won:
		return "won"
	case Unwinnable:
		return "unwinnable"
	}
	return "unknown"
}

// Options bound and tune a search. The zero value searches without bound.
type Options struct {
	// MaxPositions stops the search with Unknown after this many distinct
	// abstract positions (0: no bound).
	MaxPositions int64
	// Stop, when set, is called every 1024 positions; when it returns true
	// the search stops at once with Unknown (a time budget, or a caller
	// that gives up).
	Stop func() bool
	// Exact searches every abstract move: no forced moves, no moves left
	// out, no recovery waiting for its use. It is for checking the others.
	Exact bool
	// Free, when above 1, searches a relaxed game instead: the cards below
	// that rank are free. They still hold back what lies under them in the
	// columns and on the waste, and a suit's cards of rank Free go up only
	// once every lower card of the suit has left its place; but they never
	// need a host, leave a column or the waste as soon as they are its top
	// (with draw 1, the stock as soon as they are drawn), and count as up
	// once they have left. Every line of the game is a line of the relaxed
	// game, so a relaxed Unwinnable proves the game unwinnable; a relaxed
	// Won proves nothing and comes with no moves. Not with draw 3 and
	// recycles (there taking the waste top changes later draws): Free is
	// then ignored.
	Free int
}

// Result is what a search found.
type Result struct {
	Verdict Verdict
	// Moves, when Verdict is Won, is the winning line: actions the engine
	// accepts in order from the searched position.
	Moves []k.Action
	// Positions counts the distinct abstract positions visited.
	Positions int64
	// Left is the fewest cards off the foundations in a position visited.
	Left int
}

// Solver holds a search's tables so that they are reused from one search
// to the next. It is not safe for concurrent use.
type Solver struct {
	st     state
	tt     table
	moves  []move
	frames []frame
	log    []rec
	tops   tops

	opt     Options
	visited int64
	left    int
	stopped bool // the search stopped on its budget or Options.Stop
	halted  bool // Options.Stop stopped it
}

// New returns a Solver with empty tables.
func New() *Solver {
	return &Solver{
		moves:  make([]move, 0, 1<<12),
		frames: make([]frame, 0, 1<<9),
		log:    make([]rec, 0, 1<<9),
	}
}

// SolveCode deals the game of a solo code and solves it, within the budget
// of opt for all its passes. Draw-1 Vegas deals are first searched as
// draw-3 Vegas deals, with three quarters of the position budget: a draw-3
// game has far fewer positions, its wins are wins at draw 1 too (see
// Transfer; the line is rewritten for draw 1), and the draw-1 search
// rarely finds the wins it has (none in 300 deals at 500,000 positions).
// The rest of the budget searches the game itself.
func (s *Solver) SolveCode(code cards.Code, opt Options) Result {
	var b k.Board
	deck := cards.SoloDeck(code)
	b.Deal(deck[:], k.MaxColumns, code.Draw, !code.Vegas)
	var f k.Foundations
	if !code.Vegas || code.Draw != 1 || opt.Exact || opt.Free > 1 {
		return s.Solve(&b, &f, opt)
	}
	three := b
	three.DrawCount = 3
	first := opt
	if opt.MaxPositions > 0 {
		first.MaxPositions = max(1, opt.MaxPositions*3/4)
	}
	res := s.Solve(&three, &f, first)
	spent := res.Positions
	if res.Verdict == Won {
		res.Moves = drawOne(&three, res.Moves)
		return res
	}
	if s.halted || (opt.MaxPositions > 0 && spent >= opt.MaxPositions) {
		return Result{Verdict: Unknown, Positions: spent, Left: res.Left}
	}
	rest := opt
	if opt.MaxPositions > 0 {
		rest.MaxPositions = opt.MaxPositions - spent
	}
	res = s.Solve(&b, &f, rest)
	res.Positions += spent
	return res
}

// Solve searches a position of a solo game: its board (DrawCount and
// CanRecycle give the rules) and foundations, with recovery from the
// foundations allowed. Neither is changed. Every column's face-up cards
// must be built down in alternating colours, with a face-up top, as in
// every position of a game; Solve panics otherwise.
func (s *Solver) Solve(b *k.Board, f *k.Foundations, opt Options) Result {
	if err := check(b); err != nil {
		panic(err)
	}
	if b.DrawCount == 3 && b.CanRecycle {
		opt.Free = 0
	}
	s.opt = opt
	s.visited, s.stopped, s.halted = 0, false, false
	s.st.load(b, f, opt.Free)
	s.left = s.st.left
	if !opt.Exact && s.st.doomed() {
		return Result{Verdict: Unwinnable, Left: s.left}
	}
	s.tt.reset()
	res := Result{Verdict: s.search()}
	res.Positions, res.Left = s.visited, s.left
	if res.Verdict == Won && s.st.free == 0 {
		res.Moves = line(b, f, s.log)
	}
	return res
}

// Doomed reports whether the check without search (see doomed) proves a
// position lost: a card that can never leave its place.
func Doomed(b *k.Board, f *k.Foundations) bool {
	var st state
	st.load(b, f, 0)
	return st.doomed()
}

// describe writes an abstract position for test failures.
func (st *state) describe() string {
	out := ""
	for i := 0; i < st.ncols; i++ {
		out += fmt.Sprintf("c%d:%v ", i+1, st.col[i][:st.e[i]])
	}
	out += fmt.Sprintf("\ntalon %v boundary %d\nslots %v\npool", st.tal[:st.tn], st.tw, st.slot)
	for f, n := range st.pool {
		if n > 0 {
			out += fmt.Sprintf(" %d×%s", n, cards.Card(f))
		}
	}
	return out
}
