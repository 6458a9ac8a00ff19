package solver

import (
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// position is a whole position for the plain search.
type position struct {
	b k.Board
	f k.Foundations
}

// plainWinnable is the reference: a breadth-first search over whole
// positions with every action the engine has (each count of each column's
// face-up cards to each column, tops and the waste to each slot, recoveries
// from each slot, draws and recycles), exact positions, no pruning. It
// reports whether some position has every card on the foundations, and
// complete = false when it gave up after limit positions; fewest is the
// fewest cards left off the foundations in a position it reached.
func plainWinnable(b *k.Board, f *k.Foundations, limit int) (won, complete bool, fewest int) {
	start := position{canonicalBoard(b), canonicalFound(f)}
	seen := map[position]bool{start: true}
	queue := []position{start}
	fewest = b.CardsLeft()
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		fewest = min(fewest, p.b.CardsLeft())
		if p.b.CardsLeft() == 0 {
			return true, true, fewest
		}
		var next []position
		// try makes a move that CheckMove accepts; the cheap test before it
		// only spares the refusals' error messages.
		try := func(from, to k.Pile, count int) {
			var c cards.Card
			switch {
			case from.IsColumn():
				col := &p.b.Cols[from]
				c = col.Cards[int(col.N)-count]
			case from == k.Waste:
				c = p.b.WasteTop()
			default:
				c = p.f.Top(int(from - k.F1))
			}
			if c == cards.None || (to.IsColumn() && !p.b.Cols[to].Accepts(c)) || (to.IsSlot() && !p.f.Accepts(int(to-k.F1), c)) {
				return
			}
			q := p
			t := k.Table{B: &q.b, F: &q.f, AllowRecovery: true}
			if r, err := t.CheckMove(from, to, count); err == nil {
				t.DoMove(from, r, count)
				next = append(next, q)
			}
		}
		for i := 0; i < int(p.b.NCols); i++ {
			col := &p.b.Cols[i]
			for n := 1; n <= int(col.N-col.Down); n++ {
				for j := 0; j < int(p.b.NCols); j++ {
					try(k.ColPile(i), k.ColPile(j), n)
				}
			}
			for sl := 0; col.N > 0 && sl < 8; sl++ {
				try(k.ColPile(i), k.Slot(sl), 1)
			}
		}
		for j := 0; j < int(p.b.NCols); j++ {
			try(k.Waste, k.ColPile(j), 1)
			for sl := 0; sl < 8; sl++ {
				try(k.Slot(sl), k.ColPile(j), 1)
			}
		}
		for sl := 0; sl < 8; sl++ {
			try(k.Waste, k.Slot(sl), 1)
		}
		if p.b.NStock > 0 {
			q := p
			q.b.DrawCards()
			next = append(next, q)
		} else if p.b.NWaste > 0 && p.b.CanRecycle {
			q := p
			q.b.RecycleWaste()
			next = append(next, q)
		}
		for _, q := range next {
			q = position{canonicalBoard(&q.b), canonicalFound(&q.f)}
			if !seen[q] {
				if len(seen) >= limit {
					return false, false, fewest
				}
				seen[q] = true
				queue = append(queue, q)
			}
		}
	}
	return false, true, fewest
}

func canonicalBoard(b *k.Board) k.Board {
	c := *b
	for i := range c.Cols {
		clear(c.Cols[i].Cards[c.Cols[i].N:])
	}
	clear(c.Stock[c.NStock:])
	clear(c.Waste[c.NWaste:])
	return c
}

func canonicalFound(f *k.Foundations) k.Foundations {
	c := *f
	for i := range c.Piles {
		clear(c.Piles[i][c.N[i]:])
	}
	return c
}

// smallPosition builds a small game: each slot gets its suit's cards from
// the ace up to a random rank (copy 0 of each suit on its first slot, copy 1
// on its second; the cards above are not in the game), then n cards taken
// off random slot tops are dealt at random to the talon (stock and waste)
// and to a few columns, with a random number of face-down cards under a
// face-up top. Winning is clearing the board, as ever.
func smallPosition(r *cards.SplitMix64, n int) (k.Board, k.Foundations) {
	var f k.Foundations
	for sl := 0; sl < 8; sl++ {
		f.N[sl] = uint8(r.Uniform(14))
		for rank := 1; rank <= int(f.N[sl]); rank++ {
			f.Piles[sl][rank-1] = cards.New(sl%2, cards.Suit(sl/2), rank)
		}
	}
	var loose []cards.Card
	for len(loose) < n && f.Total() > 0 {
		sl := int(r.Uniform(8))
		if f.N[sl] > 0 {
			f.N[sl]--
			loose = append(loose, f.Piles[sl][f.N[sl]])
		}
	}
	cards.Shuffle(r, loose)
	b := k.Board{NCols: k.MaxColumns, DrawCount: uint8(1 + 2*r.Uniform(2)), CanRecycle: r.Uniform(2) == 0}
	nt := int(r.Uniform(uint64(min(n, 9)) + 1))
	talon := loose[:nt]
	nw := int(r.Uniform(uint64(nt) + 1))
	for _, c := range talon[:nw] {
		b.Waste[b.NWaste] = c
		b.NWaste++
	}
	for i := len(talon) - 1; i >= nw; i-- {
		b.Stock[b.NStock] = talon[i]
		b.NStock++
	}
	ncols := 1 + int(r.Uniform(4))
	for _, c := range loose[nt:] {
		col := &b.Cols[r.Uniform(uint64(ncols))]
		col.Cards[col.N] = c
		col.N++
	}
	for i := range b.Cols {
		col := &b.Cols[i]
		if col.N > 1 {
			col.Down = uint8(r.Uniform(uint64(col.N)))
		}
	}
	return b, f
}

// TestAgainstPlainSearch: on small positions the solver's verdict, with and
// without its prunings, is the plain exhaustive search's, and its lines
// replay through the klondike rules to a win. A search that does not win
// reports the plain search's fewest cards left (Result.Left).
func TestAgainstPlainSearch(t *testing.T) {
	positions := 120
	if testing.Short() {
		positions = 40
	}
	r := cards.NewSplitMix64(42)
	s := New()
	var tally [3]int
	later := 0 // positions decided on a small budget after the short first pass
	for i := 0; i < positions; i++ {
		b, f := smallPosition(r, 5+int(r.Uniform(6)))
		want, complete, fewest := plainWinnable(&b, &f, 50000)
		if !complete {
			continue
		}
		// (a small budget stops the first passes early, so that the later
		// passes search too; it may leave the verdict unknown, never a
		// wrong one)
		for _, opt := range []Options{{}, {Exact: true}, {MaxPositions: 320}, {MaxPositions: 1600}} {
			res := s.Solve(&b, &f, opt)
			if small := opt.MaxPositions > 0; small {
				if res.Verdict == Unknown {
					continue
				}
				if res.Positions > opt.MaxPositions/32 {
					later++
				}
			}
			if expect := wantV(want); res.Verdict != expect {
				t.Fatalf("position %d (%+v): solver %s, plain search %s\n%s",
					i, opt, res.Verdict, expect, describe(&b, &f))
			}
			if res.Verdict == Won {
				playLine(t, &b, &f, res.Moves)
			} else if res.Left != fewest {
				t.Fatalf("position %d (%+v): the solver's fewest cards left %d, the plain search's %d\n%s",
					i, opt, res.Left, fewest, describe(&b, &f))
			}
		}
		tally[wantV(want)]++
	}
	t.Logf("won %d, unwinnable %d, too large for the plain search %d; decided on a small budget after the first pass %d", tally[Won], tally[Unwinnable], positions-tally[Won]-tally[Unwinnable], later)
	if later == 0 {
		t.Fatal("no position was decided after the short first pass: the later passes were not checked")
	}
	if tally[Won] == 0 || tally[Unwinnable] == 0 {
		t.Fatalf("the positions should include won and unwinnable ones: won %d, unwinnable %d", tally[Won], tally[Unwinnable])
	}
}

func wantV(won bool) Verdict {
	if won {
		return Won
	}
	return Unwinnable
}

// playLine plays a line on a copy of a position with the klondike rules, as
// the solo engine does, and fails unless it ends with every card on the
// foundations.
func playLine(t *testing.T, b *k.Board, f *k.Foundations, moves []k.Action) {
	t.Helper()
	bb, ff := *b, *f
	tab := k.Table{B: &bb, F: &ff, AllowRecovery: true}
	for i, a := range moves {
		switch a.Type {
		case k.Draw:
			if bb.NStock == 0 {
				t.Fatalf("action %d: draw from an empty stock", i)
			}
			bb.DrawCards()
		case k.Recycle:
			if !bb.CanRecycle || bb.NStock > 0 || bb.NWaste == 0 {
				t.Fatalf("action %d: recycle not allowed", i)
			}
			bb.RecycleWaste()
		default:
			from, to, count, err := tab.Resolve(a)
			if err != nil {
				t.Fatalf("action %d, %s: %v", i, a, err)
			}
			tab.DoMove(from, to, count)
		}
	}
	if bb.CardsLeft() > 0 {
		t.Fatalf("the line leaves %d cards off the foundations", bb.CardsLeft())
	}
}

func describe(b *k.Board, f *k.Foundations) string {
	s := ""
	for i := 0; i < int(b.NCols); i++ {
		col := &b.Cols[i]
		if col.N == 0 {
			continue
		}
		s += "c" + string(rune('1'+i)) + ":"
		for p := 0; p < int(col.N); p++ {
			if p < int(col.Down) {
				s += " #" + col.Cards[p].String()
			} else {
				s += " " + col.Cards[p].String()
			}
		}
		s += "\n"
	}
	s += "w:"
	for _, c := range b.Waste[:b.NWaste] {
		s += " " + c.String()
	}
	s += "\ns:"
	for _, c := range b.StockCards() {
		s += " " + c.String()
	}
	s += "\nf:"
	for sl := 0; sl < 8; sl++ {
		s += " " + f.Top(sl).String()
	}
	if b.CanRecycle {
		s += "\nrecycle"
	}
	return s + "\ndraw " + string(rune('0'+b.DrawCount))
}
