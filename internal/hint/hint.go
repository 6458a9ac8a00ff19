// Package hint recommends a move in a solo game from what its player has
// seen, and nothing else: the face-up cards, the whole waste, the counts of
// every pile, the foundations, and the stock once it is known
// (klondike.Seen). The face-down cards and an unknown stock are not in a
// Seen at all, so a hint cannot depend on them.
//
// The method: deal the cards the player has not seen at random into the
// face-down places (and the stock, while its order is unknown), solve each
// such arrangement with a full-information solver within a budget of
// positions, then score the candidate actions on the arrangements won: the
// race bot's useful moves (klondike.UsefulMoves), the other first moves of
// the winning lines, and a draw or recycle last. A solo hint solves its
// arrangements with the tally solver (internal/solver/tally), which wins
// nearly every Normal arrangement after nearly any action; so a candidate
// scores how hard the solver has to search to win after it, and the hint
// is the first candidate of least search (see scoreSolo). A single pass
// (Vegas) seldom leaves the solver a win within the budget; there a few
// more arrangements are solved by the tally solver's beam search, and the
// hint is the move most of their winning lines begin with (beamVote).
// When no arrangement is won, the hint is the ranked move choice
// of the race bot (klondike.UsefulMove), then the way out that
// klondike.Path finds, then a draw. The arrangements come from a seed, so
// the same position and seed always give the same hint.
package hint

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solver/tally"
)

// Options size a hint's work.
type Options struct {
	// Samples is how many arrangements of the unseen cards are solved
	// (one when the player has seen every card).
	Samples int
	// Positions is the tally solver's budget for each arrangement: a
	// number of positions, not a time, so that the hint does not depend on
	// the machine or its load.
	Positions int64
	// Beam, BeamSamples and BeamPositions are a second try in a
	// single-pass (Vegas) game whose arrangements the solver won none of:
	// BeamSamples more arrangements, each solved with the tally solver's
	// beam search of width Beam (tally.Options.Beam) within BeamPositions
	// positions, and the hint is the action that most of their winning
	// lines begin with (see beamVote), while some card is unseen. Beam 0:
	// no second try.
	Beam, BeamSamples int
	BeamPositions     int64
}

// TriesBeam reports whether a Vegas hint has the second try with a beam
// (Beam and BeamSamples above 0).
func (o Options) TriesBeam() bool { return o.Beam > 0 && o.BeamSamples > 0 }

// Default is the work of a hint served to players: 32 arrangements, each
// solved within 2,000 positions of the tally solver, and in a Vegas game
// that none of them wins, 4 more solved by a beam of 50 within 50,000
// positions each; its p95 answer time stays within 300 ms on a 2-core
// machine (BenchmarkHint).
var Default = Options{Samples: 32, Positions: 2000, Beam: 50, BeamSamples: 4, BeamPositions: 50_000}

// Hint is a recommended action, or none.
type Hint struct {
	// Action is legal in the position; meaningful only when OK.
	Action k.Action
	OK     bool
	// Reason says in a short sentence why: "wins 5 of 6 samples", "a beam
	// wins 2 of 4 samples", "heuristic", "no move helps".
	Reason string
	// Wins of Samples arrangements were won after Action (by the beam:
	// won by lines that begin with it; 0 of n for a heuristic hint or
	// none).
	Wins, Samples int
}

// Seed is the seed of the hint of a game at a seq: a hash of both, so that
// asking again at the same point of the same game gives the same hint.
func Seed(gameID string, seq int64) uint64 {
	h := fnv.New64a()
	h.Write([]byte(gameID))
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(seq))
	h.Write(b[:])
	return h.Sum64()
}

// For recommends an action in the solo position a player sees: s (their
// board, masked) and the foundations. It is deterministic in (s, f, seed,
// opt).
func For(s k.Seen, f *k.Foundations, seed uint64, opt Options) Hint {
	p := newPosition(s, f)
	h := p.sampled(seed, opt)
	if h.OK {
		return h
	}
	if a, ok := p.heuristic(); ok {
		return Hint{Action: a, OK: true, Samples: h.Samples, Reason: "heuristic"}
	}
	return Hint{Samples: h.Samples, Reason: "no move helps"}
}

// sampled is the hint that the arrangements give (OK false when the solver
// won none of them), with the number of arrangements dealt (see
// scoreSolo).
func (p *position) sampled(seed uint64, opt Options) Hint {
	n := max(1, opt.Samples)
	if len(p.holes) == 0 {
		n = 1
	}
	if !p.ok {
		return Hint{Samples: n}
	}
	sv := tally.Get()
	r := cards.NewSplitMix64(seed)
	c, wins := p.scoreSolo(sv, r, n, opt.Positions)
	reason := "wins %d of %d samples"
	if wins == 0 && opt.TriesBeam() && !p.board.CanRecycle && len(p.holes) > 0 {
		n = opt.BeamSamples
		c, wins = p.beamVote(sv, r, n, opt.Beam, opt.BeamPositions)
		reason = "a beam wins %d of %d samples"
	}
	tally.Put(sv)
	if wins == 0 {
		return Hint{Samples: n}
	}
	return Hint{Action: c, OK: true, Wins: wins, Samples: n, Reason: fmt.Sprintf(reason, wins, n)}
}

// arrangement is one deal of the unseen cards into the holes that the
// solver won from the position, and the first action of the winning line.
type arrangement struct {
	b     k.Board
	first k.Action
}

// candidates are the actions a hint chooses among, legal and canonical,
// best first by the race bot's ranking: the useful moves
// (klondike.UsefulMoves), then the other moves that begin winning lines
// (firsts), most often first, then a draw or a recycle. The talon comes
// last so that a move that wins as often is preferred to turning the
// stock: the solver reaches every waste card from the talon in one step,
// so a draw keeps nearly every line open and would win the vote whether or
// not it makes progress.
func (p *position) candidates(firsts []k.Action) []k.Action {
	var out []k.Action
	add := func(a k.Action) {
		a = p.canonical(p.resolved(a))
		if p.legal(a) && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	for a := range k.UsefulMoves(&p.board, &p.found) {
		if !p.regroups(a) {
			add(a)
		}
	}
	counts := map[k.Action]int{}
	var moves []k.Action
	for _, a := range firsts {
		if a.Type == k.Move {
			if counts[a] == 0 {
				moves = append(moves, a)
			}
			counts[a]++
		}
	}
	slices.SortStableFunc(moves, func(a, b k.Action) int { return counts[b] - counts[a] })
	for _, a := range moves {
		add(a)
	}
	add(k.Simple(k.Draw))
	add(k.Simple(k.Recycle))
	return out
}

// regroups reports whether a moves a run that sits on a face-up card to
// another column, or a king's run from the foot of a column to an empty
// one (see regroup). Such a move is a candidate only when it begins
// winning lines (the run is moved to make way for a card); among the race
// bot's useful moves (a run moved off a card that may go up) it would tie
// with the best candidate, come first, and be undone by the next hint for
// ever.
func (p *position) regroups(a k.Action) bool {
	return a.Type == k.Move && regroup(&p.board, a.From, a.To, int(a.Count))
}

// regroup reports whether moving count cards from the pile from to the
// pile to on b moves a run from one host to another of the same face (or
// a king's run from one foot to another): a change that the tally solver
// does not tell apart, so that it wins as easily after it as before.
func regroup(b *k.Board, from, to k.Pile, count int) bool {
	if !from.IsColumn() || !to.IsColumn() {
		return false
	}
	col := &b.Cols[from]
	j := int(col.N) - count
	return j > int(col.Down) || (j == 0 && b.Cols[to].N == 0)
}

// resolved names a foundation play's slot (a klondike.AnyF target).
func (p *position) resolved(a k.Action) k.Action {
	if a.Type == k.Move && a.To == k.AnyF {
		if _, to, _, err := p.table().Resolve(a); err == nil {
			a.To = to
		}
	}
	return a
}
