// Package solver decides solo Double Klondike deals with full information: it
// sees every face-down card and the whole stock, and searches for a line of
// play that moves all the cards to the foundations under the solo engine's
// rules (draw 1 or 3, unlimited recycles or a single pass, every move of the
// engine including recovery from the foundations).
//
// The search is depth-first with a transposition table of 128-bit position
// keys. Positions that differ only by which copy of a duplicate card sits
// where, by the order of the columns, by which of a suit's two foundation
// slots holds which pile, or by where the waste boundary is among the
// boundaries that draws and recycles reach from each other, count as one.
// Foundation plays that can never hurt are made at once (see safeSlot). The
// stock and waste are handled as a list of the waste tops that draws and
// recycles can reach, so one move plays any reachable talon card; the line
// that comes out is spelt in the engine's own actions. A short full pass,
// then a pass over a narrow move set (no recoveries, no runs that only trade
// places) look for a win on a quarter of the budget; the last full pass does
// the rest.
//
// Every pruning is sound: an Unwinnable verdict means no sequence of legal
// actions wins. Options.Exact switches the prunings off for checking.
package solver

import (
	"math"
	"time"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solver/visited"
)

// Verdict is the outcome of a search.
type Verdict uint8

// The three verdicts.
const (
	// Unknown: the budget ran out before the search found a win or proved
	// there is none.
	Unknown Verdict = iota
	// Won: Result.Moves wins the game.
	Won
	// Unwinnable: the search went through every reachable position (up to
	// the sound equivalences and dominances) and none is won.
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

// Options bound and tune a search. The zero value searches without a bound.
type Options struct {
	// MaxPositions stops the search after this many distinct positions
	// (0: no bound).
	MaxPositions int64
	// MaxTime stops the search after this much time (0: no bound).
	MaxTime time.Duration
	// Exact switches off every pruning: positions are told apart exactly
	// (card copies, column order, foundation slots, waste boundary), no
	// foundation play is made automatically and every target is tried. It
	// is for checking the prunings; it is much slower.
	Exact bool
	// Short spells the winning line as the shortest one through the
	// positions of the search's path (shorten), for a line that is played
	// to the end: the search's own path can run to hundreds of thousands
	// of actions. It costs about as much as the search again.
	Short bool
	// Yield, when set, is called every 1024 positions by the goroutine
	// that searches, which waits for it to return: a search in the
	// background pauses there while the machine has other work. When it
	// returns false the search stops at once with Unknown. Pausing changes
	// nothing else: with a position budget the result is the same.
	Yield func() bool
}

// Result is what a search found.
type Result struct {
	Verdict Verdict
	// Moves is the winning line when Verdict is Won: move, draw and recycle
	// actions that the engine accepts in order from the searched position.
	Moves []k.Action
	// Left is the fewest cards left on the board in a position the search
	// visited (the searched position's own count, less its safe foundation
	// plays, when it went no further).
	Left int
	// Positions counts the distinct positions the search visited.
	Positions int64
	// Elapsed is the time the search took.
	Elapsed time.Duration
}

// Solver holds the tables of a search so that they are reused from one search
// to the next. A Solver is not safe for concurrent use; give each goroutine
// its own.
type Solver struct {
	st     state
	keys   *keySet
	tt     visited.Set
	moves  []move
	frames []frame
	log    []rec
	tops   [k.MaxStock + 1]uint8

	opt       Options
	start     time.Time
	visited   int64         // positions visited by earlier phases and this one
	limit     int64         // the current phase stops after this many (0: no bound)
	phaseTime time.Duration // … or at this time from the start (0: no bound)
	narrow    bool          // the current phase searches the narrow move set
	bestLeft  int           // the fewest cards left in a visited position
	stopped   bool          // Options.Yield returned false
	byTop     [28][4]int8   // columns by the cardKey of their top: up to four columns share one
	nByTop    [28]uint8
	empties   [k.MaxColumns]int8
	nEmpties  int
}

// New returns a Solver with empty tables.
func New() *Solver {
	return &Solver{
		moves:  make([]move, 0, 1<<14),
		frames: make([]frame, 0, 1<<10),
		log:    make([]rec, 0, 1<<10),
	}
}

// SolveCode deals the game of a solo code and solves it.
func (s *Solver) SolveCode(code cards.Code, opt Options) Result {
	var b k.Board
	deck := cards.SoloDeck(code)
	b.Deal(deck[:], k.MaxColumns, code.Draw, !code.Vegas)
	var f k.Foundations
	return s.Solve(&b, &f, opt)
}

// Solve searches the position of a board (its DrawCount and CanRecycle give
// the rules: CanRecycle is Normal scoring's unlimited recycles) and its
// foundations, with recovery from the foundations allowed as in solo games.
// Neither is changed. Columns must have a
// face-up top card when not empty.
func (s *Solver) Solve(b *k.Board, f *k.Foundations, opt Options) Result {
	s.opt = opt
	s.start = time.Now()
	s.keys = &symmetric
	if opt.Exact {
		s.keys = &exact
	}
	s.visited, s.stopped = 0, false
	s.bestLeft = math.MaxInt
	res := Result{Verdict: Unknown}
	for i, ph := range phases {
		if opt.Exact && i < len(phases)-1 {
			continue
		}
		s.narrow = ph.narrow
		s.limit, s.phaseTime = 0, 0 // no bound
		if opt.MaxPositions > 0 {
			s.limit = max(1, int64(float64(opt.MaxPositions)*ph.end))
		}
		if opt.MaxTime > 0 {
			s.phaseTime = max(1, time.Duration(float64(opt.MaxTime)*ph.end))
		}
		s.st.load(b, f, s.keys)
		s.tt.Reset()
		v := s.search()
		if v == Won || (v == Unwinnable && !ph.narrow) {
			res.Verdict = v
			break
		}
		if s.stopped || s.outOfTime() || (opt.MaxPositions > 0 && s.visited >= opt.MaxPositions) {
			break
		}
	}
	res.Positions, res.Left = s.visited, s.bestLeft
	if res.Verdict == Won {
		log := s.log
		if opt.Short {
			log = s.shorten(b, f, log)
		}
		res.Moves = line(b, f, log)
	}
	res.Elapsed = time.Since(s.start)
	return res
}

// phase is one pass of a search. Each pass starts afresh; only a pass over
// every move can prove a deal unwinnable, and only the last has the whole
// budget. A short full pass first finds the easy wins; the narrow pass then
// looks for a win
// where it usually is: the full move set hides the line among countless
// shuffles of runs between columns and recoveries, and a depth-first search
// follows them down chains of hundreds of thousands of moves.
type phase struct {
	narrow bool // the narrow move set (see gen)
	// end is the share of the budget (positions and time) at which the pass
	// stops, counted from the start of the search.
	end float64
}

var phases = []phase{
	{end: 1.0 / 32},
	{narrow: true, end: 1.0 / 4},
	{end: 1},
}
