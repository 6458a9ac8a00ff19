package solo

import (
	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// naiveLimit bounds naiveSearch; positions that need more are not compared.
const naiveLimit = 30000

// naiveSearch is the stuck rule written as plainly as possible: a breadth
// first search over whole boards (no equivalences, no pruning), trying every
// column-to-column move of every run, every waste-to-column move, draws and
// recycles, until some position allows a foundation play or a flip. It
// reports blocked, and complete = false when it gave up at naiveLimit.
func naiveSearch(g *Game) (blocked, complete bool) {
	f := g.found
	seen := map[k.Board]bool{g.board: true}
	queue := []k.Board{g.board}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		if w := b.WasteTop(); w != cards.None && f.FirstSlot(w) >= 0 {
			return false, true
		}
		var next []k.Board
		for i := 0; i < int(b.NCols); i++ {
			col := b.Cols[i]
			if col.N > 0 && f.FirstSlot(col.Top()) >= 0 {
				return false, true
			}
			for n := 1; n <= int(col.N-col.Down); n++ {
				for j := 0; j < int(b.NCols); j++ {
					if j == i || !b.Cols[j].Accepts(col.Cards[int(col.N)-n]) {
						continue
					}
					nb := b
					if st := (k.Table{B: &nb, F: &f}).DoMove(k.Pile(i), k.Pile(j), n); st.Flipped {
						return false, true
					}
					next = append(next, nb)
				}
			}
		}
		for j := 0; j < int(b.NCols); j++ {
			if b.NWaste > 0 && b.Cols[j].Accepts(b.WasteTop()) {
				nb := b
				(k.Table{B: &nb, F: &f}).DoMove(k.Waste, k.Pile(j), 1)
				next = append(next, nb)
			}
		}
		if b.NStock > 0 {
			nb := b
			nb.DrawCards()
			next = append(next, nb)
		} else if b.NWaste > 0 && b.CanRecycle {
			nb := b
			nb.RecycleWaste()
			next = append(next, nb)
		}
		for _, nb := range next {
			if !seen[nb] {
				if len(seen) >= naiveLimit {
					return false, false
				}
				seen[nb] = true
				queue = append(queue, nb)
			}
		}
	}
	return true, true
}

// naiveBlocked is naiveSearch for positions known to be small.
func naiveBlocked(g *Game) bool {
	if g.status == Won {
		return false
	}
	blocked, complete := naiveSearch(g)
	if !complete {
		panic("naiveBlocked: position too large")
	}
	return blocked
}
