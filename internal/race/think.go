package race

import (
	"fmt"
	"slices"

	"dsol/internal/cards"
	"dsol/internal/hint"
	k "dsol/internal/klondike"
)

// ThinkOptions size one decision of the StrongBot (Think): in arrangements
// and actions, not in time, so that its play does not depend on the
// machine or its load.
type ThinkOptions struct {
	// Samples is how many arrangements of the cards the seat has not seen
	// every candidate is played out on.
	Samples int
	// Steps bounds one playout, in actions after the candidate.
	Steps int
}

// WinWeight is what a won playout adds to its value (a lost one takes it
// away), beside one for every card the seat is ahead at its end: a win
// counts for more than any margin, and the margin still tells two
// candidates that win as often apart.
const WinWeight = 20

// refused is the value of a candidate the race refuses (none is, as they
// are worked out from the seat's own board): less than any playout's.
const refused = -1 << 20

// Think works out the StrongBot's action for the seat of s from s and seed
// alone; it changes nothing, so it may run on any goroutine. A server
// seeds it as hints are seeded (hint.Seed of the game and its seq), so
// that the same race history gives the same play.
//
// The candidates are the plain Bot's useful moves (klondike.UsefulMoves)
// and the stock's turn, a draw or a recycle. The cards the seat has not
// seen — the face-down cards of both boards, and a stock whose order is
// not known yet, each seat's from the cards of its own deck that nothing
// shows — are dealt at random into their places opt.Samples times (once
// when nothing is unseen), and on
// each arrangement every candidate is played out to the end of the race:
// the seat plays the candidate, then both seats are played by plain Bots
// acting in turn, the opponent first (as two bots with the same think time
// race), for at most opt.Steps actions or until neither has anything to
// do. A playout is worth the seat's cards up less the opponent's, and
// WinWeight more for a win (less for a loss), by the race's rules on the
// counts. The answer is the candidate with the most value over all the
// arrangements, the first in the Bot's order on a tie. So the bot plays
// the race, not its own board: a card up that lets the opponent's go up,
// the foundation slot both seats want, the card that is worth putting up
// now rather than later all show in the playouts' counts.
//
// It reads nothing but s (TestPropertyStrongBotSeesOnlySeen). The hint has
// no action (OK false) when the seat may not act or has no candidate: no
// useful move and no stock or waste to turn.
func Think(s Seen, seed uint64, opt ThinkOptions) hint.Hint {
	if s.Status == Over || (s.Options.Turns == Alternating && s.Turn != s.Seat) {
		return hint.Hint{Reason: "not its turn"}
	}
	cs := candidates(&s)
	if len(cs) == 0 {
		return hint.Hint{Reason: "no move helps"}
	}
	sm := newSampler(&s)
	if !sm.ok {
		return hint.Hint{Reason: "no arrangement"}
	}
	n := max(1, opt.Samples)
	if len(sm.holes[0])+len(sm.holes[1]) == 0 {
		n = 1 // nothing unseen: every arrangement is the same
	}
	rng := cards.NewSplitMix64(seed)
	value := make([]int, len(cs))
	wins := make([]int, len(cs))
	buf := make([]cards.Card, 0, CardsPerSeat)
	var arr, r Race
	for range n {
		sm.deal(&arr, rng, buf)
		for i, a := range cs {
			r = arr
			v, won := playout(&r, s.Seat, a, opt.Steps)
			value[i] += v
			if won {
				wins[i]++
			}
		}
	}
	best := 0
	for i := range cs {
		if value[i] > value[best] {
			best = i
		}
	}
	if value[best] <= refused {
		return hint.Hint{Reason: "no move helps"}
	}
	return hint.Hint{Action: cs[best], OK: true, Wins: wins[best], Samples: n,
		Reason: fmt.Sprintf("wins %d of %d playouts", wins[best], n)}
}

// candidates are the actions the seat of s chooses among, in the plain
// Bot's order: its useful moves (klondike.UsefulMoves) with a foundation
// play's slot named, then a draw, or a recycle when the stock is empty.
func candidates(s *Seen) []k.Action {
	own := &s.Boards[s.Seat-1].Board
	f := s.Found
	t := k.Table{B: own, F: &f}
	var out []k.Action
	for a := range k.UsefulMoves(own, &f) {
		if from, to, count, err := t.Resolve(a); err == nil {
			if a = k.NewMove(from, to, count); !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	switch {
	case own.NStock > 0:
		out = append(out, k.Simple(k.Draw))
	case own.NWaste > 0 && own.CanRecycle:
		out = append(out, k.Simple(k.Recycle))
	}
	return out
}

// sampler deals arrangements of what the seat of a Seen has not seen into
// races: base is the race as the seat sees it, with the places it has not
// seen (holes) left as the Seen has them; cards are each seat's cards of
// its own deck that nothing shows.
type sampler struct {
	base  Race
	cards [Seats][]cards.Card
	holes [Seats][]k.Place
	ok    bool // there are cards enough for the holes
}

func newSampler(s *Seen) *sampler {
	sm := &sampler{ok: true}
	r := &sm.base
	r.opts, r.status, r.found, r.turn = s.Options, Playing, s.Found, int8(s.Turn)
	own := &s.Boards[s.Seat-1].Board
	r.code = cards.Code{Kind: cards.Race, Draw: int(own.DrawCount), Single: !own.CanRecycle}
	for i := range r.found.Piles {
		for _, c := range r.found.Piles[i][:r.found.N[i]] {
			r.counts[c.Deck()]++
		}
	}
	for i := range Seats {
		r.boards[i], r.recycled[i] = s.Boards[i].Board, s.Boards[i].StockKnown
		sm.cards[i], sm.holes[i] = unseen(&s.Boards[i], &s.Found, i)
		sm.ok = sm.ok && len(sm.cards[i]) >= len(sm.holes[i])
	}
	return sm
}

// unseen lists the cards of deck that the board s (masked) and the
// foundations f do not show, and the places of s the seat has not seen
// (klondike.Seen.Scan).
func unseen(s *k.Seen, f *k.Foundations, deck int) (cs []cards.Card, holes []k.Place) {
	var shown [CardsPerSeat]bool
	for i := range f.Piles {
		for _, c := range f.Piles[i][:f.N[i]] {
			if c.Deck() == deck {
				shown[c.Face()] = true
			}
		}
	}
	holes = s.Scan(func(c *cards.Card) { shown[c.Face()] = true })
	for face, ok := range shown {
		if !ok {
			cs = append(cs, cards.Card(CardsPerSeat*deck+face))
		}
	}
	return cs, holes
}

// deal sets r to the next arrangement from rng: each seat's unseen cards
// shuffled into its holes (buf is scratch space).
func (sm *sampler) deal(r *Race, rng *cards.SplitMix64, buf []cards.Card) {
	*r = sm.base
	for i := range Seats {
		buf = append(buf[:0], sm.cards[i]...)
		rng.Shuffle(buf)
		for j, h := range sm.holes[i] {
			*h.Of(&r.boards[i]) = buf[j]
		}
	}
}

// playout plays the race r on from the seat me's action a: then plain
// Bots play both seats in turn, the other seat first, for at most steps
// actions, until the race is over, neither seat has anything to do, or a
// Bot would resign. It returns the value of the end for me (see Think)
// and whether me wins by the counts (the race's winner rule, Race.winner).
func playout(r *Race, me int, a k.Action, steps int) (int, bool) {
	if _, err := r.Apply(me, a); err != nil {
		return refused, false
	}
	var bot Bot
	seat, idle := 3-me, 0
	for range steps {
		if r.status != Playing || idle >= Seats {
			break
		}
		if r.opts.Turns == Alternating {
			seat = r.Turn()
		}
		a, ok := bot.Next(r.Seen(seat))
		if !ok && r.opts.Turns == Simultaneous {
			seat = 3 - seat
			a, ok = bot.Next(r.Seen(seat))
		}
		switch {
		case ok && a.Type == k.Resign:
			idle = Seats
		case ok:
			idle = 0
			if _, err := r.Apply(seat, a); err != nil {
				idle = Seats // cannot happen: the Bot plays by the rules
			}
		default:
			idle++
		}
		if r.opts.Turns == Simultaneous {
			seat = 3 - seat
		}
	}
	v, w := int(r.counts[me-1])-int(r.counts[2-me]), r.winner(0)
	switch w {
	case me:
		v += WinWeight
	case 3 - me:
		v -= WinWeight
	}
	return v, w == me
}
