package tally

import (
	"fmt"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// line spells the logged abstract moves from the position (b, f) as engine
// actions, on a copy: a talon move becomes the draws (and the recycle) that
// bring its card to the top of the waste, then the move from the waste; a
// card joining the pool moves, with the run on it, onto the first column
// whose top can host it (a king into the first empty column); a card
// leaving the tableau first has the run on it moved to the first other
// column whose top can host that run. The package comment says why such
// columns exist. Every action is played with the klondike rules; line
// panics if one is refused or moves another card than the search did: that
// would be a bug of this package.
func line(b *k.Board, f *k.Foundations, log []rec) []k.Action {
	bb, ff := *b, *f
	l := liner{t: k.Table{B: &bb, F: &ff, AllowRecovery: true}}
	for i := 0; i < int(bb.NCols); i++ {
		if col := &bb.Cols[i]; col.N > 0 {
			l.place[i] = int(col.Down) + 1
		}
	}
	for _, r := range log {
		m := r.m
		switch m.kind {
		case placeToF, placeToPool:
			i := int(m.from)
			col := &bb.Cols[i]
			p := l.place[i] - 1
			l.place[i] = p
			if m.kind == placeToPool {
				l.play(k.NewMove(k.ColPile(i), l.host(col.Cards[p], i), int(col.N)-p), r.card)
				continue
			}
			l.clear(i, p)
			l.play(k.NewMove(k.ColPile(i), k.Slot(2*int(r.card.Suit())+int(m.to)), 1), r.card)
		case talonToF, talonToPool:
			var err error
			if l.out, err = k.BringUp(&bb, int(m.from), l.out); err != nil {
				panic("tally: " + err.Error())
			}
			to := k.Slot(2*int(r.card.Suit()) + int(m.to))
			if m.kind == talonToPool {
				to = l.host(r.card, -1)
			}
			l.play(k.NewMove(k.Waste, to, 1), r.card)
		case poolToF:
			i, p := l.find(r.card)
			l.clear(i, p)
			l.play(k.NewMove(k.ColPile(i), k.Slot(2*int(r.card.Suit())+int(m.to)), 1), bb.Cols[i].Cards[p])
		case recover:
			sl := 2*int(m.from) + int(m.to)
			l.play(k.NewMove(k.Slot(sl), l.host(ff.Top(sl), -1), 1), ff.Top(sl))
		}
	}
	return l.out
}

// liner is the board a line is spelt on: the table, how many cards of each
// column are in place, and the actions so far.
type liner struct {
	t     k.Table
	place [k.MaxColumns]int
	out   []k.Action
}

// play resolves and makes an action that moves card c (its first card).
func (l *liner) play(a k.Action, c cards.Card) {
	from, to, count, err := l.t.Resolve(a)
	if err != nil {
		panic(fmt.Sprintf("tally: the line's move %s is refused: %v", a, err))
	}
	if st := l.t.DoMove(from, to, count); st.Card != c {
		panic(fmt.Sprintf("tally: the line's move %s moves %s, not %s", a, st.Card, c))
	}
	l.out = append(l.out, a)
}

// host returns the first column other than not whose top can take a run
// starting with c (a king: the first empty column).
func (l *liner) host(c cards.Card, not int) k.Pile {
	b := l.t.B
	for j := 0; j < int(b.NCols); j++ {
		if j != not && b.Cols[j].Accepts(c) {
			return k.ColPile(j)
		}
	}
	panic(fmt.Sprintf("tally: no column takes %s", c))
}

// clear moves the run on the card at index p of column i, if any, to
// another column, so that the card is the top.
func (l *liner) clear(i, p int) {
	col := &l.t.B.Cols[i]
	if n := int(col.N) - p - 1; n > 0 {
		g := col.Cards[p+1]
		l.play(k.NewMove(k.ColPile(i), l.host(g, i), n), g)
	}
}

// find returns where a pool card of c's face is: its column and index,
// preferring one with nothing on it.
func (l *liner) find(c cards.Card) (int, int) {
	b := l.t.B
	bi, bp := -1, -1
	for i := 0; i < int(b.NCols); i++ {
		col := &b.Cols[i]
		for p := l.place[i]; p < int(col.N); p++ {
			if col.Cards[p].Face() != c.Face() {
				continue
			}
			if p == int(col.N)-1 {
				return i, p
			}
			if bi < 0 {
				bi, bp = i, p
			}
		}
	}
	if bi < 0 {
		panic(fmt.Sprintf("tally: no %s in the pool", c))
	}
	return bi, bp
}

// drawOne rewrites a line won with draw 3 for the same deal dealt with draw
// 1 (every other rule the same): each draw of three becomes as many draws
// of one as it turned up. The waste then holds the same cards in the same
// order after each action, so every move plays as before; a recycle turns
// the same waste over.
func drawOne(b *k.Board, moves []k.Action) []k.Action {
	stock, waste := int(b.NStock), int(b.NWaste)
	out := make([]k.Action, 0, len(moves)+len(moves)/2)
	for _, a := range moves {
		switch a.Type {
		case k.Draw:
			n := min(3, stock)
			for range n {
				out = append(out, a)
			}
			stock, waste = stock-n, waste+n
			continue
		case k.Recycle:
			stock, waste = waste, 0
		case k.Move:
			if a.From == k.Waste {
				waste--
			}
		}
		out = append(out, a)
	}
	return out
}
