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
// through Options.Spent.
package tally

import (
	"sync"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solver"
	"dsol/internal/solver/visited"
)

// Verdict is the outcome of a search, the whole-board solver's: Unknown
// (the budget ran out), Won (Result.Moves wins the game), Unwinnable (no
// line of legal actions wins it).
type Verdict = solver.Verdict

// The three verdicts.
const (
	Unknown    = solver.Unknown
	Won        = solver.Won
	Unwinnable = solver.Unwinnable
)

// Options bound and tune a search. The zero value searches without bound.
type Options struct {
	// MaxPositions stops the search with Unknown after this many distinct
	// abstract positions (0: no bound).
	MaxPositions int64
	// Spent, when set, is called every 1024 positions and returns the
	// share of the caller's own budget used so far (a time budget: the time
	// since the start over the time allowed). A pass of SolveCode's
	// schedule stops at its share, and the search stops with Unknown at 1;
	// a caller that gives up returns 1.
	Spent func() float64
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
	// Beam, when above 0, searches the position once with a beam search of
	// this width instead of the depth-first search (see beam): it finds
	// single-pass wins the depth-first search misses on the same budget,
	// and proves no loss itself (the check for dead cards before any search
	// still does). Not with Free.
	Beam int
	// Beams, for a single-pass position and a budget (MaxPositions or
	// Spent), puts beams of growing width before the depth-first passes of
	// SolvePosition's schedule (see ladder): the beams win most single-pass
	// deals that are won, and the depth-first search proves the losses.
	// Normal positions, and Exact, Free or Beam searches, are unchanged.
	Beams bool

	// keep, set by SolveCode's first pass of Normal deals, makes no
	// reversible foundation play (see reversible) at once, nor prefers one
	// to a move to the pool.
	keep bool
	// end, set by SolveCode, is the share of Spent at which a pass stops
	// (0: 1).
	end float64
}

// Until returns an Options.Spent that ends the search as soon as stop
// returns true (asked every 1024 positions), or nil when stop is nil.
func Until(stop func() bool) func() float64 {
	if stop == nil {
		return nil
	}
	return func() float64 {
		if stop() {
			return 1
		}
		return 0
	}
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
	tt     visited.Set
	moves  []move
	frames []frame
	log    []rec
	tops   tops

	beamCur, beamNext []beamNode
	beamSteps         []beamStep
	beamRecs          []rec
	beamKids          []beamChild
	beamBest          []beamChild // the children kept, see best
	beamAt            []int32     // best's places by score

	opt     Options
	visited int64
	left    int
	stopped bool    // the search stopped on its budget or Options.Spent
	halted  bool    // Options.Spent reached 1
	end     float64 // the share of Options.Spent at which this pass stops
}

// New returns a Solver with empty tables.
func New() *Solver {
	return &Solver{
		moves:  make([]move, 0, 1<<12),
		frames: make([]frame, 0, 1<<9),
		log:    make([]rec, 0, 1<<9),
	}
}

// solvers keeps the Solvers of Get for reuse.
var solvers = sync.Pool{New: func() any { return New() }}

// Get returns a Solver from a pool that every caller shares, so that a
// search reuses the tables an earlier one grew; Put gives it back.
func Get() *Solver { return solvers.Get().(*Solver) }

// Put returns a Solver of Get to the pool.
func Put(s *Solver) { solvers.Put(s) }

// pass is one search of SolveCode's schedule for a mode.
type pass struct {
	three  bool    // search the deal at draw 3 (a draw-1 Vegas deal)
	keep   bool    // Options.keep
	ladder bool    // beams of growing width (see ladder)
	end    float64 // the share of the budget at which it stops, counted from the start
}

// Schedules of SolveCode, by mode.
var (
	// normal: without the reversible foundation plays first, on three
	// quarters of the budget; the last pass, with them, has the rest.
	normal = []pass{{keep: true, end: 0.75}, {end: 1}}
	// vegas1: the draw-3 game first, on three quarters of the budget.
	vegas1 = []pass{{three: true, end: 0.75}, {end: 1}}
	// vegas3: one search.
	vegas3 = []pass{{end: 1}}
	// With Options.Beams, the beams first: at draw 1 on nine tenths of the
	// budget, as the depth-first search seldom decides a draw-1 deal, then
	// the draw-1 game depth first; at draw 3 on half, then depth first.
	beams1 = []pass{{ladder: true, end: 0.9}, {end: 1}}
	beams3 = []pass{{ladder: true, end: 0.5}, {end: 1}}
)

// The ladder's beams: the first width, the factor from one to the next,
// and the widest.
const (
	ladderFirst  = 500
	ladderFactor = 3
	ladderMost   = 40500
)

// SolveCode deals the game of a solo code and solves it, in passes that
// share the position budget of opt (each pass starts afresh, and stops at
// its share of the budget, counted from the start; the last pass has what
// the others left):
//
//   - Normal deals are first searched without the reversible foundation
//     plays (see reversible), on three quarters of the budget. Those plays
//     shrink the search but put up cards that Normal wins mostly keep as
//     hosts, so that with them the search finds such wins only after long
//     runs of recoveries (11 of 300 draw-1 deals were unknown at 200,000
//     positions, 1 without). The last pass has the plays, for proofs.
//   - Draw-1 Vegas deals are first searched as draw-3 Vegas deals, on three
//     quarters of the budget: a draw-3 game has far fewer positions, its
//     wins are wins at draw 1 too (see Transfer; the line is rewritten for
//     draw 1), and the draw-1 search rarely finds the wins it has (none of
//     300 deals at 500,000 positions). The last pass searches the draw-1
//     game.
//   - Draw-3 Vegas deals are searched once.
//
// With Options.Beams and a budget, a single-pass deal is searched first by
// beams of growing width (see ladder), on nine tenths of the budget at draw
// 1 and half at draw 3, and then depth first, in one pass, with the rest:
// the beams win most of the deals that are won, far sooner than the
// depth-first search, which is left the proofs of loss (at draw 1 the
// draw-1 game itself, which alone can prove a draw-1 deal lost).
//
// Options.Exact, Options.Free and Options.Beam search the deal once, as asked.
func (s *Solver) SolveCode(code cards.Code, opt Options) Result {
	var b k.Board
	deck := cards.SoloDeck(code)
	b.Deal(deck[:], k.MaxColumns, code.Draw, !code.Vegas)
	var f k.Foundations
	return s.SolvePosition(&b, &f, opt)
}

// SolvePosition solves a position of a solo game (see Solve) in the passes
// of SolveCode's schedule for its mode: with recycles, without the
// reversible foundation plays first; at draw 1 without recycles, at draw 3
// first; at draw 3 without recycles, once; without recycles and with
// Options.Beams, beams first. Options.Exact, Options.Free and Options.Beam
// search it once, as asked. Neither b nor f is changed.
func (s *Solver) SolvePosition(b *k.Board, f *k.Foundations, opt Options) Result {
	schedule := normal
	switch {
	case opt.Exact || opt.Free > 1 || opt.Beam > 0:
		return s.Solve(b, f, opt)
	case !b.CanRecycle && b.DrawCount == 1:
		schedule = vegas1
		if opt.Beams && budgeted(opt) {
			schedule = beams1
		}
	case !b.CanRecycle:
		schedule = vegas3
		if opt.Beams && budgeted(opt) {
			schedule = beams3
		}
	}
	three := *b
	three.DrawCount = 3
	var spent int64
	left := b.CardsLeft()
	for i, ps := range schedule {
		last := i == len(schedule)-1
		po := opt
		po.keep, po.end = ps.keep, ps.end
		if opt.MaxPositions > 0 {
			po.MaxPositions = max(1, int64(float64(opt.MaxPositions)*ps.end)-spent)
		}
		board := b
		if ps.three {
			board = &three
		}
		var res Result
		if ps.ladder {
			res = s.ladder(board, f, po, opt.MaxPositions, spent)
		} else {
			res = s.Solve(board, f, po)
		}
		spent += res.Positions
		left = min(left, res.Left)
		// A proof counts only from a search of the game itself; a draw-3
		// win is a draw-1 win.
		if res.Verdict == Won || (res.Verdict == Unwinnable && !ps.three) {
			if ps.three {
				res.Moves = drawOne(board, res.Moves)
			}
			res.Positions, res.Left = spent, left
			return res
		}
		if last || s.halted || (opt.MaxPositions > 0 && spent >= opt.MaxPositions) {
			break
		}
	}
	return Result{Verdict: Unknown, Positions: spent, Left: left}
}

// budgeted reports whether opt bounds a search.
func budgeted(opt Options) bool { return opt.MaxPositions > 0 || opt.Spent != nil }

// ladder searches a single-pass position with beams of growing width: the
// first ladderFirst wide, each next one ladderFactor times as wide, up to
// ladderMost, until one wins, the check for dead cards proves the position
// lost, or the pass's share of the budget (opt.end) would not hold the next
// beam. The first is always started, and each next one only when the share
// used so far and ladderFactor times what the last beam used still fit, as
// a beam cut short wins nothing. opt is the pass's options (MaxPositions
// what is left of its share), total the whole position budget and spent
// the positions of the passes before.
func (s *Solver) ladder(b *k.Board, f *k.Foundations, opt Options, total, spent int64) Result {
	used := func(n int64) float64 { // the share of the budget used after n positions of the ladder
		u := 0.0
		if total > 0 {
			u = float64(spent+n) / float64(total)
		}
		if opt.Spent != nil {
			u = max(u, opt.Spent())
		}
		return u
	}
	var n int64
	left := b.CardsLeft()
	before := used(0)
	for w := ladderFirst; w <= ladderMost; w *= ladderFactor {
		po := opt
		po.Beam = w
		if opt.MaxPositions > 0 {
			po.MaxPositions = opt.MaxPositions - n
		}
		res := s.Solve(b, f, po)
		n += res.Positions
		left = min(left, res.Left)
		if res.Verdict != Unknown {
			res.Positions, res.Left = n, left
			return res
		}
		now := used(n)
		if s.halted || now+ladderFactor*(now-before) > opt.end || (opt.MaxPositions > 0 && n >= opt.MaxPositions) {
			break
		}
		before = now
	}
	return Result{Verdict: Unknown, Positions: n, Left: left}
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
	if s.end = opt.end; s.end == 0 {
		s.end = 1
	}
	s.visited, s.stopped, s.halted = 0, false, false
	s.st.load(b, f, opt.Free)
	s.left = s.st.left
	if !opt.Exact && s.st.doomed() {
		return Result{Verdict: Unwinnable, Left: s.left}
	}
	s.tt.Reset()
	var res Result
	if opt.Beam > 0 && s.st.free == 0 {
		res.Verdict = s.beam(opt.Beam)
	} else {
		res.Verdict = s.search()
	}
	res.Positions, res.Left = s.visited, s.left
	if res.Verdict == Won && s.st.free == 0 {
		res.Moves = line(b, f, s.log)
	}
	return res
}
