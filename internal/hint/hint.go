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
// is the first candidate of least search (see scoreSolo). When no
// arrangement is won within the budget, the hint is the ranked move choice
// of the race bot (klondike.UsefulMove), then the way out that
// klondike.Path finds, then a draw. The arrangements come from a seed, so
// the same position and seed always give the same hint.
//
// ForSeat is the method for a seat of a race: the seat's own cards only,
// the race rules, the whole-board solver (internal/solver), a candidate
// scoring the arrangements still won after it (the first with the most),
// and no fallback of its own.
package hint

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"sync"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solver"
	"dsol/internal/solver/tally"
)

// Options size a hint's work.
type Options struct {
	// Samples is how many arrangements of the unseen cards are solved
	// (one when the player has seen every card).
	Samples int
	// Positions is the solver's budget for each arrangement (the tally
	// solver's positions for a solo hint, the whole-board solver's for a
	// race seat): a number of positions, not a time, so that the hint does
	// not depend on the machine or its load.
	Positions int64
}

// Default is the work of a hint served to players: 32 arrangements, each
// solved within 2,000 positions of the tally solver; its p95 answer time
// stays within 300 ms on a 2-core machine (BenchmarkHint).
var Default = Options{Samples: 32, Positions: 2000}

// Hint is a recommended action, or none.
type Hint struct {
	// Action is legal in the position; meaningful only when OK.
	Action k.Action
	OK     bool
	// Reason says in a short sentence why: "wins 5 of 6 samples",
	// "heuristic", "no move helps".
	Reason string
	// Wins of Samples arrangements were won after Action (0 of n for a
	// heuristic hint or none); for a race seat (ForSeat), reached after
	// Action the most the solver put up in them.
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

var solvers = sync.Pool{New: func() any { return solver.New() }}

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

// ForSeat recommends an action to the player of a race seat from what they
// have seen of their own board (own, masked) and the shared foundations f:
// the method of For on the seat's own 52 cards, those of deck (the seat's
// number less one), under the race rules: no card comes back from the
// foundations, which keep the opponent's cards where they are; the
// opponent's board is no part of it, hidden cards and all. A race is
// rarely won by clearing a board: both seats mostly end blocked, each
// waiting for the other's cards, and the one with more cards up wins. So an
// arrangement counts when the solver puts up at least one more of the
// seat's cards in it, and its target is the most the solver put up (every
// card the foundations as they are can take, at best: see leave); a
// candidate scores the arrangements in which the solver still reaches the
// target after it ("does best in 5 of 8 samples"). When no arrangement lets
// a card go up there is no hint (OK false, "no sample won"): the caller
// needs moves of its own for that. It is deterministic in (own, f, deck, seed,
// opt).
func ForSeat(own k.Seen, f *k.Foundations, deck int, seed uint64, opt Options) Hint {
	h := newSeatPosition(own, f, deck).sampled(seed, opt)
	if !h.OK {
		h.Reason = "no sample won"
	}
	return h
}

// sampled is the hint that the arrangements give (OK false when the solver
// won none of them), with the number of arrangements dealt: scored by
// scoreSolo in a solo game, by score for a race seat.
func (p *position) sampled(seed uint64, opt Options) Hint {
	n := max(1, opt.Samples)
	if len(p.holes) == 0 {
		n = 1
	}
	if !p.ok {
		return Hint{Samples: n}
	}
	var c k.Action
	var wins int
	if p.race {
		sv := solvers.Get().(*solver.Solver)
		c, wins = p.score(sv, cards.NewSplitMix64(seed), n, opt.Positions)
		solvers.Put(sv)
	} else {
		sv := tallies.Get().(*tally.Solver)
		c, wins = p.scoreSolo(sv, cards.NewSplitMix64(seed), n, opt.Positions)
		tallies.Put(sv)
	}
	if wins == 0 {
		return Hint{Samples: n}
	}
	reason := "wins %d of %d samples"
	if p.race {
		reason = "does best in %d of %d samples"
	}
	return Hint{Action: c, OK: true, Wins: wins, Samples: n, Reason: fmt.Sprintf(reason, wins, n)}
}

// arrangement is one deal of the unseen cards into the holes that the
// solver won from the position, the first action of the winning line, and
// the cards the win may leave on the board (solver.Options.Leave). For a
// race seat, winning is reaching the fewest cards left that the first
// solve reached, so long as that put up a card at all.
type arrangement struct {
	b     k.Board
	first k.Action
	leave int
}

// score is the scoring of a race seat's hint, with the whole-board solver
// (a solo hint's is scoreSolo). It deals n arrangements of the unseen cards
// from r and solves each from the position; then it takes the candidate actions (candidates) in
// order and counts, over the arrangements won, those the solver still wins
// after the candidate. An arrangement whose winning line starts with the
// candidate counts without a search; once the scoring has spent as many
// positions as the first solves had, only those count. Every candidate is
// scored on the same arrangements. The first candidate with the most wins
// is the answer; the scoring stops at a candidate that keeps every won
// arrangement, and gives up on one as soon as it can no longer beat the
// best so far. It returns the action and its wins, 0 when no arrangement
// was won.
func (p *position) score(sv *solver.Solver, r *cards.SplitMix64, n int, budget int64) (k.Action, int) {
	opt := solver.Options{MaxPositions: budget, NoRecovery: p.race, Leave: p.leave(&p.found), Best: p.race}
	arr := make([]arrangement, 0, n)
	deal := make([]cards.Card, len(p.unseen))
	var firsts []k.Action
	for range n {
		copy(deal, p.unseen)
		r.Shuffle(deal)
		a := arrangement{b: p.board, leave: opt.Leave}
		for i, h := range p.holes {
			*h.place(&a.b) = deal[i]
		}
		res := sv.Solve(&a.b, &p.found, opt)
		line := res.Moves
		switch {
		case res.Verdict == solver.Won:
		case p.race && res.Left < a.b.CardsLeft():
			a.leave, line = res.Left, res.Best
		default:
			continue
		}
		if len(line) > 0 {
			a.first = p.canonical(line[0])
			firsts = append(firsts, a.first)
		}
		arr = append(arr, a)
	}
	if len(arr) == 0 {
		return k.Action{}, 0
	}
	var best k.Action
	most := 0
	left := int64(n) * budget // the positions the scoring may spend
	for _, c := range p.candidates(firsts) {
		wins := 0
		for i := range arr {
			if wins+len(arr)-i <= most {
				break // cannot beat the best so far
			}
			if arr[i].first == c {
				wins++ // the line starting with c wins it
			} else if left >= budget {
				won, spent := p.winsAfter(sv, &arr[i], c, opt)
				left -= spent
				if won {
					wins++
				}
			}
		}
		if wins > most {
			best, most = c, wins
		}
		if most == len(arr) {
			break
		}
	}
	return best, most
}

// winsAfter reports whether the solver wins an arrangement after the
// action c, and the positions it searched.
func (p *position) winsAfter(sv *solver.Solver, a *arrangement, c k.Action, opt solver.Options) (bool, int64) {
	b, f := a.b, p.found
	switch c.Type {
	case k.Draw:
		b.DrawCards()
	case k.Recycle:
		b.RecycleWaste()
	case k.Move:
		t := k.Table{B: &b, F: &f, AllowRecovery: !p.race}
		from, to, count, err := t.Resolve(c)
		if err != nil {
			return false, 0
		}
		t.DoMove(from, to, count)
	}
	opt.Leave, opt.Best = a.leave, false
	res := sv.Solve(&b, &f, opt)
	return res.Verdict == solver.Won, res.Positions
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
		add(a)
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

// resolved names a foundation play's slot (a klondike.AnyF target).
func (p *position) resolved(a k.Action) k.Action {
	if a.Type == k.Move && a.To == k.AnyF {
		if _, to, _, err := p.table().Resolve(a); err == nil {
			a.To = to
		}
	}
	return a
}
