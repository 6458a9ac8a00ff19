package tally

import "dsol/internal/cards"

// doomed reports whether some card can never leave its place, whatever is
// played: a proof that the position is lost, found without a search. It
// asks a relaxed game in which every face-up card hosts any number of cards
// (cards are free to stack), a card on a foundation still hosts, and a card
// may go up once a copy of the card below it has left its place; so leaving
// a place only ever opens more, and playing everything that can be played
// as soon as it can is the best line. In it a card leaves a column once it
// is the top in place and a card of its host kind is face up or has left
// its place (a king: once a column has nothing left in place), or a copy
// of its suit's rank below has left (an ace: always). The waste gives up
// its top the same way, and the stock is drawn in order only when nothing
// else moves (with recycles every talon card is in reach). A card that
// still has not left when nothing moves any more never leaves in the game
// either: dead cards under the cards that need them, and tops of the waste
// that the stacking order buries for good.
func (st *state) doomed() bool {
	var left [52]uint8 // copies of each face out of their place: pool, foundation or released
	var vis [kinds]bool
	for f, n := range st.pool {
		left[f] = n
		if n > 0 {
			vis[kindOf[f]] = true
		}
	}
	for f, n := range st.rel {
		left[f] += n
	}
	for s := 0; s < 4; s++ {
		for _, h := range st.slot[s] {
			for r := 1; r <= int(h); r++ {
				if st.free == 0 || r >= int(st.free) {
					left[13*s+r-1]++
				}
				vis[kindOf[cards.New(0, cards.Suit(s), r)]] = true
			}
		}
	}
	e := st.e
	empty := st.empty > 0
	for i := 0; i < st.ncols; i++ {
		if e[i] > 0 {
			vis[kindOf[st.col[i][e[i]-1]]] = true
		}
	}
	tal := st.tal
	tn, tw := st.tn, st.tw
	free := func(c cards.Card) bool {
		switch {
		case st.isFree(c), c.Rank() == 1:
			return true
		case left[13*int(suitOf[c])+int(rankOf[c])-2] > 0:
			return true
		case c.Rank() == 13:
			return empty
		}
		return vis[hostOf[c]]
	}
	out := func(c cards.Card) {
		left[c.Face()]++
		vis[kindOf[c]] = true
	}
	for {
		moved := false
		for i := 0; i < st.ncols; i++ {
			for e[i] > 0 && free(st.col[i][e[i]-1]) {
				out(st.col[i][e[i]-1])
				if e[i]--; e[i] > 0 {
					vis[kindOf[st.col[i][e[i]-1]]] = true
				} else {
					empty = true
				}
				moved = true
			}
		}
		if st.recycle {
			for j := 0; j < tn; j++ {
				if c := tal[j]; c != cards.None && free(c) {
					out(c)
					tal[j] = cards.None
					moved = true
				}
			}
		} else {
			for tw > 0 && free(tal[tw-1]) {
				out(tal[tw-1])
				copy(tal[tw-1:tn-1], tal[tw:tn])
				tw, tn = tw-1, tn-1
				moved = true
			}
		}
		if moved {
			continue
		}
		if st.recycle || tw == tn {
			break
		}
		tw = min(tw+st.draw, tn) // nothing else moves: draw
	}
	for i := 0; i < st.ncols; i++ {
		if e[i] > 0 {
			return true
		}
	}
	if st.recycle {
		for _, c := range tal[:tn] {
			if c != cards.None {
				return true
			}
		}
		return false
	}
	return tn > 0
}
