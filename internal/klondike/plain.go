package klondike

import "dsol/internal/cards"

// PlainBlocked is the blocked rule of docs/rules.md §4 written as plainly as
// possible, as a reference for testing Blocked: a breadth-first search over
// whole boards (no equivalences, no pruning), trying every column-to-column
// move of every run, every waste-to-column move, draws and recycles, until
// some position allows a foundation play or a flip. It is slow and allocates;
// it reports blocked, and complete = false when it gave up after limit
// positions.
func PlainBlocked(start *Board, f *Foundations, limit int) (blocked, complete bool) {
	seen := map[Board]bool{canonical(start): true}
	queue := []Board{*start}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		if directGoal(&b, f) {
			return false, true
		}
		var next []Board
		for i := 0; i < int(b.NCols); i++ {
			col := &b.Cols[i]
			for n := 1; n <= int(col.N-col.Down); n++ {
				for j := 0; j < int(b.NCols); j++ {
					if j == i || !b.Cols[j].Accepts(col.Cards[int(col.N)-n]) {
						continue
					}
					nb := b
					(Table{B: &nb, F: f}).DoMove(Pile(i), Pile(j), n)
					next = append(next, nb)
				}
			}
		}
		for j := 0; j < int(b.NCols); j++ {
			if b.NWaste > 0 && b.Cols[j].Accepts(b.WasteTop()) {
				nb := b
				(Table{B: &nb, F: f}).DoMove(Waste, Pile(j), 1)
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
			key := canonical(&nb)
			if !seen[key] {
				if len(seen) >= limit {
					return false, false
				}
				seen[key] = true
				queue = append(queue, nb)
			}
		}
	}
	return true, true
}

// canonical clears the unused ends of a board's arrays.
func canonical(b *Board) Board {
	c := *b
	for i := range c.Cols {
		col := &c.Cols[i]
		clear(col.Cards[col.N:])
	}
	clear(c.Stock[c.NStock:])
	clear(c.Waste[c.NWaste:])
	return c
}

// directGoal reports whether a foundation play or a flip is available on b
// as it stands.
func directGoal(b *Board, f *Foundations) bool {
	if w := b.WasteTop(); w != cards.None && f.FirstSlot(w) >= 0 {
		return true
	}
	for i := 0; i < int(b.NCols); i++ {
		col := &b.Cols[i]
		if col.N == 0 {
			continue
		}
		if f.FirstSlot(col.Top()) >= 0 {
			return true
		}
		if col.Down > 0 {
			for j := 0; j < int(b.NCols); j++ {
				if j != i && b.Cols[j].Accepts(col.Cards[col.Down]) {
					return true
				}
			}
		}
	}
	return false
}
