package winnable

import (
	"bufio"
	"cmp"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solo"
	"dsol/internal/solver"
	"dsol/internal/solver/tally"
)

// List is a list of deals of one mode that a solver won, each within
// Budget positions: the first wins among the first Searched deal numbers of
// the mode's stream for Seed (see Stream). Positions are deterministic, so
// solving a listed deal again with the same solver, beam and budget wins it
// again, after the same number of positions, on any machine.
type List struct {
	Mode Mode
	// Solver names the solver: Tally (the tally package's SolveCode), or
	// Whole (the solver package's whole-board search, in which the first
	// lists were made).
	Solver string
	// Beam is the width of the tally solver's beam search when it searched
	// with one (tally.Options.Beam), 0 for its depth-first search.
	Beam     int
	Budget   int64  // the solver's position budget for each deal
	Seed     uint64 // the seed of the stream the deal numbers come from
	Searched int64  // how many deals of the stream were solved
	Deals    []Deal // the won ones, in stream order
}

// Deal is a deal the solver won: DS1-<Mode>-<Number>, after Positions
// positions of a search with a budget of Budget, depth first (Beam 0) or
// with a beam of width Beam.
type Deal struct {
	Mode      Mode
	Number    uint64
	Budget    int64
	Positions int64
	Beam      int
}

// Code returns the deal's game code.
func (d Deal) Code() cards.Code { return d.Mode.Code(d.Number) }

// Stream returns the deal numbers a list of mode m with seed draws from: a
// SplitMix64 stream seeded with 4·seed + m (so that the modes do not share
// their deals), each number uniform below cards.DealCount.
func Stream(m Mode, seed uint64) func() uint64 {
	r := cards.NewSplitMix64(seed*uint64(len(Modes)) + uint64(m))
	return func() uint64 { return r.Uniform(cards.DealCount) }
}

// The solvers a list may name.
const (
	Whole = "whole"
	Tally = "tally"
)

// SolveTally is Solve with the tally solver (its SolveCode; with a beam of
// width beam when above 0); when stop returns true the search stops with
// Unknown (nil: never). A win is played through the engine of every mode
// that carries m's deals too (see carries), its line rewritten for that
// mode.
func SolveTally(s *tally.Solver, m Mode, deal uint64, budget int64, beam int, stop func() bool) (res tally.Result, won bool, err error) {
	res, won, err = solveIn(s, m, m, deal, budget, beam, stop)
	for to, from := range carries {
		if won && from == m {
			var moves []k.Action
			if moves, err = tally.Carry(m.Code(deal), res.Moves, to.Code(deal)); err == nil {
				err = replay(to.Code(deal), moves)
			}
			won = err == nil
		}
	}
	return res, won, err
}

// solveIn is SolveTally with the deal solved in mode in and its winning
// line carried to mode m (tally.Carry) before the engine of m plays it.
func solveIn(s *tally.Solver, in, m Mode, deal uint64, budget int64, beam int, stop func() bool) (res tally.Result, won bool, err error) {
	from, code := in.Code(deal), m.Code(deal)
	res = s.SolveCode(from, tally.Options{MaxPositions: budget, Beam: beam, Spent: tally.Until(stop)})
	if res.Verdict != tally.Won {
		return res, false, nil
	}
	if res.Moves, err = tally.Carry(from, res.Moves, code); err != nil {
		return res, false, err
	}
	err = replay(code, res.Moves)
	return res, err == nil, err
}

// replay plays a winning line through the solo engine: nil when the game
// ends won, else what went wrong (a fault of the solver).
func replay(code cards.Code, moves []k.Action) error {
	g, err := solo.New(code)
	if err != nil {
		return err
	}
	for i, a := range moves {
		if _, err := g.Apply(a); err != nil {
			return fmt.Errorf("winnable: %s: the solver's action %d of %d, %s, is refused: %w", code, i+1, len(moves), a, err)
		}
	}
	if g.Status() != solo.Won {
		return fmt.Errorf("winnable: %s: the solver's line of %d actions leaves the game %s", code, len(moves), g.Status())
	}
	return nil
}

// Solve solves a deal with a position budget (yield is the solver's
// Options.Yield, or nil) and, when the solver wins it, plays the winning
// line through the solo engine: won is true only when the engine ends the
// game won. A line the engine refuses is an error (a fault of the solver).
// The solver's tables are s's, reused from one call to the next.
func Solve(s *solver.Solver, m Mode, deal uint64, budget int64, yield func() bool) (res solver.Result, won bool, err error) {
	code := m.Code(deal)
	res = s.SolveCode(code, solver.Options{MaxPositions: budget, Yield: yield})
	if res.Verdict != solver.Won {
		return res, false, nil
	}
	err = replay(code, res.Moves)
	return res, err == nil, err
}

// listHeader opens every list file.
const listHeader = `# Deals of DS1-%s that the solver won within the budget (positions), each
# win checked through the solo engine: "deal LETTERS POSITIONS", in the
# order of the seed's stream, after the first "searched" deals of it.
# Made by make winnable-list; see "Winnable deals" in docs/solver.md.
`

// WriteTo writes the list in its file format.
func (l List) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, listHeader, l.Mode)
	fmt.Fprintf(&b, "mode %s\n", l.Mode)
	if l.Solver != Whole {
		fmt.Fprintf(&b, "solver %s\n", l.Solver)
	}
	if l.Beam > 0 {
		fmt.Fprintf(&b, "beam %d\n", l.Beam)
	}
	fmt.Fprintf(&b, "budget %d\nseed %d\nsearched %d\n", l.Budget, l.Seed, l.Searched)
	for _, d := range l.Deals {
		code := d.Code().String()
		fmt.Fprintf(&b, "deal %s %d\n", code[len(code)-7:], d.Positions)
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// ParseList reads a list file (WriteTo's format) and checks it: every
// field once, deals of the mode, each once, won within the budget.
func ParseList(r io.Reader) (List, error) {
	var l List
	seen := map[string]bool{}
	known := map[uint64]bool{}
	sc := bufio.NewScanner(r)
	line := 0
	bad := func(format string, args ...any) (List, error) {
		return List{}, fmt.Errorf("winnable: list line %d: %s", line, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		key := f[0]
		if key != "deal" {
			if seen[key] {
				return bad("%s given twice", key)
			}
			seen[key] = true
			if len(f) != 2 {
				return bad("want %q and one value", key)
			}
		}
		var err error
		switch key {
		case "mode":
			l.Mode, err = ParseMode(f[1])
		case "solver":
			if l.Solver = f[1]; l.Solver != Tally && l.Solver != Whole {
				err = fmt.Errorf("want %s or %s", Tally, Whole)
			}
		case "beam":
			if l.Beam, err = strconv.Atoi(f[1]); err == nil && l.Beam < 1 {
				err = errors.New("want a width of 1 or more")
			}
		case "budget":
			l.Budget, err = strconv.ParseInt(f[1], 10, 64)
		case "seed":
			l.Seed, err = strconv.ParseUint(f[1], 10, 64)
		case "searched":
			l.Searched, err = strconv.ParseInt(f[1], 10, 64)
		case "deal":
			if !seen["mode"] || !seen["budget"] {
				return bad("a deal before the mode and the budget")
			}
			if len(f) != 3 {
				return bad(`want "deal LETTERS POSITIONS"`)
			}
			c, err := cards.ParseCode("DS1-" + l.Mode.String() + "-" + f[1])
			if err != nil {
				return bad("%v", err)
			}
			p, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil || p < 1 || p > l.Budget {
				return bad("positions %q: want 1 to the budget, %d", f[2], l.Budget)
			}
			if known[c.Deal] {
				return bad("deal %s twice", f[1])
			}
			known[c.Deal] = true
			l.Deals = append(l.Deals, Deal{Mode: l.Mode, Number: c.Deal, Budget: l.Budget, Positions: p, Beam: l.Beam})
		default:
			return bad("unknown field %q", key)
		}
		if err != nil {
			return bad("%s: %v", key, err)
		}
	}
	if err := sc.Err(); err != nil {
		return List{}, fmt.Errorf("winnable: list: %w", err)
	}
	if l.Solver == "" {
		l.Solver = Whole // the lists made before there was a choice
	}
	for _, k := range []string{"mode", "budget", "seed", "searched"} {
		if !seen[k] {
			return List{}, fmt.Errorf("winnable: list: no %s", k)
		}
	}
	if l.Beam > 0 && l.Solver != Tally {
		return List{}, fmt.Errorf("winnable: list: a beam with the %s solver (only the %s solver has one)", l.Solver, Tally)
	}
	if l.Budget < 1 || l.Searched < int64(len(l.Deals)) {
		return List{}, errors.New("winnable: list: the budget must be positive and searched at least the number of deals")
	}
	return l, nil
}

//go:embed deals/*.txt
var dealFiles embed.FS

// FileName is the name of the file of a mode's list with a seed in deals/:
// D3V.txt for seed 1, D3V-2.txt for seed 2. A mode may have lists of
// several seeds (one of each: the deals of a seed are its stream's), with
// budgets of their own.
func FileName(m Mode, seed uint64) string {
	if seed == 1 {
		return m.String() + ".txt"
	}
	return fmt.Sprintf("%s-%d.txt", m, seed)
}

// shipped reads the lists embedded in the binary, once.
var shipped = sync.OnceValues(func() ([][]List, error) { return readLists(dealFiles) })

// readLists reads the lists in fsys's deals/: by mode, in the order of
// their seeds. Every mode must have one, each in its FileName.
func readLists(fsys fs.FS) ([][]List, error) {
	files, err := fs.ReadDir(fsys, "deals")
	if err != nil {
		return nil, err
	}
	lists := make([][]List, len(Modes))
	for _, e := range files {
		f, err := fsys.Open("deals/" + e.Name())
		if err != nil {
			return nil, err
		}
		l, err := ParseList(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("deals/%s: %w", e.Name(), err)
		}
		if want := FileName(l.Mode, l.Seed); e.Name() != want {
			return nil, fmt.Errorf("winnable: deals/%s holds the list of %s with seed %d, whose file is %s", e.Name(), l.Mode, l.Seed, want)
		}
		lists[l.Mode] = append(lists[l.Mode], l)
	}
	for _, m := range Modes {
		if len(lists[m]) == 0 {
			return nil, fmt.Errorf("winnable: no list of %s in deals/", m)
		}
		slices.SortFunc(lists[m], func(a, b List) int { return cmp.Compare(a.Seed, b.Seed) })
	}
	return lists, nil
}

// Shipped returns the lists of a mode shipped in the binary, in the order
// of their seeds. The lists are checked by the tests, so a malformed one is
// a broken build: it panics.
func Shipped(m Mode) []List {
	lists, err := shipped()
	if err != nil {
		panic(err)
	}
	return lists[m]
}

// carries gives the modes that deal another mode's lists too, and which: a
// draw-3 Vegas win is a draw-1 Vegas win of the same deal (tally.Carry), and
// the draw-3 Vegas lists were long before draw 1's (depth first, the draw-1
// search finds as few wins per deal as the draw-3 one, at the same cost).
// Every other win carries too (a Vegas win is a Normal win, a draw-3 win a
// draw-1 win), but the Normal lists hold enough deals of their own.
var carries = map[Mode]Mode{D1V: D3V}

// Listed returns the deals of mode m that the binary ships: its lists',
// then those of the lists of the mode it carries (see carries), dealt in
// m, each with the budget and positions of its own list; a deal once.
func Listed(m Mode) []Deal {
	lists := Shipped(m)
	if from, ok := carries[m]; ok {
		lists = append(slices.Clip(lists), Shipped(from)...)
	}
	var deals []Deal
	known := map[uint64]bool{}
	for _, l := range lists {
		for _, d := range l.Deals {
			if !known[d.Number] {
				known[d.Number] = true
				d.Mode = m
				deals = append(deals, d)
			}
		}
	}
	return deals
}

// DefaultBudget is the solver's budget for each deal, in positions, of the
// shipped lists and of the background search: about 5 s of one core. Normal
// deals that the solver wins it mostly wins within a few thousand; Vegas
// deals it seldom wins depth first at any budget that a server can spend on
// a deal, and a beam (DefaultBeam) stops well within it.
const DefaultBudget = 2_000_000

// DefaultBeam is the beam width of dsol serve's background search of Vegas
// deals: a beam of 500 wins about one random draw-3 Vegas deal in six and
// more than half of the draw-1 ones, in well under a second of a core each,
// where the depth-first search at DefaultBudget wins about one in forty,
// in seconds each (docs/solver.md, "Winnable deals").
const DefaultBeam = 500
