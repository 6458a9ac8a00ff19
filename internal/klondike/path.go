package klondike

import "dsol/internal/cards"

// Path is Blocked's search run to give a way out instead of a verdict: the
// player's own non-foundation steps (column and waste-to-column moves, draws,
// recycles) that lead from this board to a position where a card can go to a
// foundation or a face-down card can be turned over. The steps are appended to
// buf[:0]. An empty path with found true means such a play is available now.
// found is false when the board is blocked or when the search reached
// SearchLimit without a goal. Board and foundations are not changed.
// Applying the steps in order with Table.DoMove, Board.DrawCards and
// Board.RecycleWaste reaches the goal position. The search draws through the
// stock, so the stock must hold real cards: Path panics on the masked stock
// of a Seen whose StockKnown is false.
func Path(b *Board, f *Foundations, buf []Step) (path []Step, found bool) {
	for _, c := range b.Stock[:b.NStock] {
		if c == cards.None {
			panic("klondike: Path over a stock that was never shown")
		}
	}
	s := searchPool.Get().(*search)
	s.want = true
	blocked := s.run(b, f)
	found = !blocked && (len(s.path) > 0 || s.rootGoal(b, f))
	path = append(buf[:0], s.path...)
	s.want = false
	searchPool.Put(s)
	return path, found
}

// rootGoal reports whether the board itself allows a foundation play or a flip.
func (s *search) rootGoal(b *Board, f *Foundations) bool {
	s.prepare(b, f)
	s.moves = s.moves[:0]
	return s.expand()
}
