package hint

import (
	"math"
	"slices"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solver/tally"
)

// scoreSolo is the scoring of a solo hint, with the tally solver
// (internal/solver/tally). It deals n arrangements of the unseen cards from
// r and solves each within budget positions; the candidates are those of
// score (candidates), with the first actions of the winning lines read
// past the solver's habits (effectiveFirst), less the foundation plays of
// cards that most winning lines put up only to take back. The tally solver
// wins nearly every Normal arrangement after nearly every action, so a
// count of wins tells the candidates apart no better than chance; what
// does is how hard the solver has to search to win after each: a
// candidate's cost is, over the arrangements won, the base-2 logarithm of
// the positions the solver searched to win after it (of twice the budget
// when it did not), plus talonBits for a draw or a recycle, and the hint is
// the first candidate of least cost. A
// candidate is given up as soon as its cost reaches the least so far. It
// returns the action and the arrangements won after it, 0 when none was
// won.
func (p *position) scoreSolo(sv *tally.Solver, r *cards.SplitMix64, n int, budget int64) (k.Action, int) {
	opt := tally.Options{MaxPositions: budget}
	arr := make([]arrangement, 0, n)
	deal := make([]cards.Card, len(p.unseen))
	var firsts []k.Action
	var bounced [52]int // lines that put a card of the face up at once and take it back later
	for range n {
		a := arrangement{b: p.arrange(r, deal)}
		res := sv.Solve(&a.b, &p.found, opt)
		if res.Verdict != tally.Won {
			continue
		}
		if len(res.Moves) > 0 {
			first, bounce := p.effectiveFirst(&a.b, res.Moves)
			a.first = p.canonical(first)
			firsts = append(firsts, a.first)
			for _, c := range bounce {
				bounced[c.Face()]++
			}
		}
		arr = append(arr, a)
	}
	if len(arr) == 0 {
		return k.Action{}, 0
	}
	cands := p.candidates(firsts)
	if kept := slices.DeleteFunc(slices.Clone(cands), func(c k.Action) bool {
		x, ok := p.playsUp(c)
		return ok && 2*bounced[x.Face()] >= len(arr)
	}); len(kept) > 0 {
		cands = kept
	}
	lost := math.Log2(float64(2*budget) + 1) // the cost of an arrangement not won
	least, best, most := math.Inf(1), k.Action{}, 0
	for _, c := range cands {
		cost, wins := 0.0, 0
		if c.Type != k.Move {
			cost = talonBits * float64(len(arr))
		}
		for i := range arr {
			won, spent := p.tallyWinsAfter(sv, &arr[i], c, opt)
			if won {
				wins++
				cost += math.Log2(float64(spent) + 1)
			} else {
				cost += lost
			}
			if cost >= least {
				break
			}
		}
		if cost < least {
			least, best, most = cost, c, wins
		}
	}
	return best, most
}

// talonBits is what a draw or a recycle costs beyond the search after it,
// in bits per arrangement won: the talon is chosen only when the solver
// wins after it with half the search that any move needs. The solver
// reaches any waste card from the talon in one step, so a turn of the
// stock leaves it as easy a search as before, and a hint that chose the
// least search alone would often go round the stock for ever instead of
// making a move that wins just as surely (hint-rate: draw 3 Normal 138 to
// 153 of 200 deals, seed 1).
const talonBits = 1.0

// tallyWinsAfter reports whether the tally solver wins an arrangement
// after the action c, and the positions it searched.
func (p *position) tallyWinsAfter(sv *tally.Solver, a *arrangement, c k.Action, opt tally.Options) (bool, int64) {
	b, f := a.b, p.found
	switch c.Type {
	case k.Draw:
		b.DrawCards()
	case k.Recycle:
		b.RecycleWaste()
	case k.Move:
		t := k.Table{B: &b, F: &f, AllowRecovery: true}
		from, to, count, err := t.Resolve(c)
		if err != nil {
			return false, 0
		}
		t.DoMove(from, to, count)
	}
	res := sv.Solve(&b, &f, opt)
	return res.Verdict == tally.Won, res.Positions
}

// effectiveFirst is the first action of a winning line from the board b
// (an arrangement) and the position's foundations, read past two habits of
// the tally solver. It puts a card on its foundation at once whenever the
// card could come straight back, so a line that needs the card as a host
// starts by putting it up; following that would undo a recovery just made.
// Such foundation plays, and the recoveries that bring their cards back to
// where they were, are passed over (a card brought back to another column
// is a move between the columns), and their cards are returned as bounced.
// And it moves a run from a host to another of the same face to make way
// for a card, which its tallied position does not tell apart; the action
// is then the card's move itself when that is legal now, or to the other
// host (firstOf).
func (p *position) effectiveFirst(b *k.Board, line []k.Action) (k.Action, []cards.Card) {
	var bounce []cards.Card
	bb, f := *b, p.found
	t := k.Table{B: &bb, F: &f, AllowRecovery: true}
	type step struct {
		card     cards.Card
		from, to k.Pile
		up, down bool // to a foundation; from one
		pool     bool // a run moved from a host to another, which the solver's position does not tell apart
		host     cards.Card
	}
	steps := make([]step, 0, len(line))
	for _, a := range line {
		st := step{from: k.Stock}
		switch a.Type {
		case k.Draw:
			bb.DrawCards()
		case k.Recycle:
			bb.RecycleWaste()
		case k.Move:
			from, to, count, err := t.Resolve(a)
			if err != nil {
				return line[0], bounce
			}
			switch {
			case from.IsColumn():
				col := &bb.Cols[from]
				j := int(col.N) - count
				st.card = col.Cards[j]
				st.pool = regroup(&bb, from, to, count)
			case from == k.Waste:
				st.card = bb.WasteTop()
			case from.IsSlot():
				st.card = f.Piles[from-k.F1][f.N[from-k.F1]-1]
				st.down = true
			}
			st.from, st.to, st.up = from, to, to.IsSlot()
			if to.IsColumn() && bb.Cols[to].N > 0 {
				st.host = bb.Cols[to].Top()
			}
			t.DoMove(from, to, count)
		}
		steps = append(steps, st)
	}
	// origin is where a card put up at once came from.
	origin := map[cards.Card]k.Pile{}
	lead := -1 // the first run moved between hosts
	for i, st := range steps {
		switch {
		case st.pool:
			if lead < 0 {
				lead = i
			}
		case st.up && !st.down && st.from.IsColumn():
			back := false
			for _, later := range steps[i+1:] {
				if later.down && later.card == st.card {
					back = true
					break
				}
			}
			if !back {
				return p.firstOf(line, lead, i, st.host), bounce
			}
			origin[st.card] = st.from
			bounce = append(bounce, st.card)
		case st.down:
			o, ok := origin[st.card]
			if !ok {
				return line[i], bounce
			}
			if o != st.to {
				return k.NewMove(o, st.to, 1), bounce // the card moved between columns, by way of its foundation
			}
			delete(origin, st.card)
		default:
			return p.firstOf(line, lead, i, st.host), bounce
		}
	}
	return line[0], bounce
}

// firstOf is the action that begins a line's step i, after the runs moved
// between hosts from step lead (-1: none): the step itself when it is legal
// now, or it to another column whose top is a card of the same face as its
// host; else the line's first action.
func (p *position) firstOf(line []k.Action, lead, i int, host cards.Card) k.Action {
	if lead < 0 {
		return line[i]
	}
	a := p.canonical(p.resolved(line[i]))
	if p.legal(a) {
		return a
	}
	if a.Type == k.Move && a.To.IsColumn() && host != cards.None {
		for c := range int(p.board.NCols) {
			col := &p.board.Cols[c]
			b := a
			b.To = k.ColPile(c)
			if col.N > 0 && col.Top().Face() == host.Face() && p.legal(b) {
				return b
			}
		}
	}
	return line[0]
}

// playsUp is the card that the action a puts on a foundation, if it does.
func (p *position) playsUp(a k.Action) (cards.Card, bool) {
	if a.Type != k.Move || !a.To.IsSlot() {
		return cards.None, false
	}
	switch {
	case a.From.IsColumn() && p.board.Cols[a.From].N > 0:
		return p.board.Cols[a.From].Top(), true
	case a.From == k.Waste && p.board.NWaste > 0:
		return p.board.WasteTop(), true
	}
	return cards.None, false
}

// beamVote is the second try of a Vegas hint (Options.Beam): it deals n
// arrangements of the unseen cards from r and solves each with a beam of
// width w within budget positions, and returns the legal action that most
// of the winning lines begin with (read past the solver's habits:
// effectiveFirst), the first such on a tie, and how many lines begin with
// it; 0 when none was won. A single pass seldom leaves a depth-first
// search of 2,000 positions a win, where a beam, which spreads its budget
// over every choice and drops the positions that bury the waste, finds
// one often enough to steer by.
func (p *position) beamVote(sv *tally.Solver, r *cards.SplitMix64, n, w int, budget int64) (k.Action, int) {
	opt := tally.Options{MaxPositions: budget, Beam: w}
	deal := make([]cards.Card, len(p.unseen))
	votes := map[k.Action]int{}
	var order []k.Action
	for range n {
		b := p.arrange(r, deal)
		res := sv.Solve(&b, &p.found, opt)
		if res.Verdict != tally.Won || len(res.Moves) == 0 {
			continue
		}
		first, _ := p.effectiveFirst(&b, res.Moves)
		first = p.canonical(first)
		if !p.legal(first) {
			continue
		}
		if votes[first] == 0 {
			order = append(order, first)
		}
		votes[first]++
	}
	best, most := k.Action{}, 0
	for _, a := range order {
		if votes[a] > most {
			best, most = a, votes[a]
		}
	}
	return best, most
}

// arrange is the board with the unseen cards dealt into its holes in an
// order drawn from r (deal is the scratch space, as long as p.unseen).
func (p *position) arrange(r *cards.SplitMix64, deal []cards.Card) k.Board {
	copy(deal, p.unseen)
	r.Shuffle(deal)
	b := p.board
	for i, h := range p.holes {
		*h.Of(&b) = deal[i]
	}
	return b
}
