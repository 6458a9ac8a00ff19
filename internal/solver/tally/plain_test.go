package tally

import (
	"os"
	"strconv"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// whole is a whole position of the game for the plain search.
type whole struct {
	b k.Board
	f k.Foundations
}

// plainWinnable is the reference: a breadth-first search over whole
// positions with every action of the engine (each count of each column's
// face-up cards to each column, tops and the waste to each slot, recoveries
// from each slot to each column, draws and recycles), positions told apart
// exactly, nothing pruned. complete is false when it gave up after limit
// positions.
func plainWinnable(b *k.Board, f *k.Foundations, limit int) (won, complete bool) {
	start := whole{tidyBoard(b), tidyFound(f)}
	seen := map[whole]bool{start: true}
	queue := []whole{start}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p.b.CardsLeft() == 0 {
			return true, true
		}
		var next []whole
		try := func(from, to k.Pile, count int) {
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
			if p.b.NWaste > 0 {
				try(k.Waste, k.ColPile(j), 1)
			}
			for sl := 0; sl < 8; sl++ {
				if p.f.N[sl] > 0 {
					try(k.Slot(sl), k.ColPile(j), 1)
				}
			}
		}
		for sl := 0; p.b.NWaste > 0 && sl < 8; sl++ {
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
			q = whole{tidyBoard(&q.b), tidyFound(&q.f)}
			if !seen[q] {
				if len(seen) >= limit {
					return false, false
				}
				seen[q] = true
				queue = append(queue, q)
			}
		}
	}
	return false, true
}

func tidyBoard(b *k.Board) k.Board {
	c := *b
	for i := range c.Cols {
		clear(c.Cols[i].Cards[c.Cols[i].N:])
	}
	clear(c.Stock[c.NStock:])
	clear(c.Waste[c.NWaste:])
	return c
}

func tidyFound(f *k.Foundations) k.Foundations {
	c := *f
	for i := range c.Piles {
		clear(c.Piles[i][c.N[i]:])
	}
	return c
}

// smallPosition builds a small position of a game: each slot holds its
// suit's cards from the ace up to a random rank (copy 0 on a suit's first
// slot, copy 1 on its second), then n cards taken off random slot tops are
// dealt to the talon (stock and waste) and to a few columns: face-down
// cards under a face-up card, on which the loose cards that build on the
// top are sometimes stacked, as a game would have them.
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
	b := k.Board{NCols: uint8(2 + r.Uniform(4)), DrawCount: uint8(1 + 2*r.Uniform(2)), CanRecycle: r.Uniform(2) == 0}
	nt := int(r.Uniform(uint64(min(len(loose), 8)) + 1))
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
	rest := loose[nt:]
	for len(rest) > 0 {
		col := &b.Cols[r.Uniform(uint64(b.NCols))]
		c := rest[0]
		rest = rest[1:]
		switch {
		case col.N > 0 && cards.Builds(c, col.Cards[col.N-1]) && r.Uniform(2) == 0:
			// a run built on the top
		case col.N > 0:
			col.Down = col.N // the column so far goes face down
		}
		col.Cards[col.N] = c
		col.N++
	}
	return b, f
}

// TestAgainstPlainSearch: on small positions of every mode the search's
// verdict, with its prunings and with Options.Exact, is the plain search's
// over whole positions (so the abstraction is exact and the prunings keep
// every win), and won lines replay to a win. A beam search (Options.Beam)
// wins only what the plain search wins, and most of it with a beam of 3.
func TestAgainstPlainSearch(t *testing.T) {
	positions, seed := 400, uint64(42)
	if testing.Short() {
		positions = 100
	}
	if v, err := strconv.Atoi(os.Getenv("DSOL_TALLY_POSITIONS")); err == nil {
		positions, seed = v, uint64(v)
	}
	r := cards.NewSplitMix64(seed)
	s := New()
	var tally [3]int
	beamWon := 0
	for i := 0; i < positions; i++ {
		b, f := smallPosition(r, 5+int(r.Uniform(7)))
		want, complete := plainWinnable(&b, &f, 60000)
		if !complete {
			tally[Unknown]++
			continue
		}
		expect := Unwinnable
		if want {
			expect = Won
		}
		tally[expect]++
		for _, opt := range []Options{{}, {Exact: true}, {keep: true}} {
			res := s.Solve(&b, &f, opt)
			if res.Verdict != expect {
				t.Fatalf("position %d (exact %v): %s, the plain search %s\n%s", i, opt.Exact, res.Verdict, expect, describe(&b, &f))
			}
			if res.Verdict == Won {
				playLine(t, &b, &f, res.Moves)
			}
		}
		res := s.Solve(&b, &f, Options{Beam: 3})
		if res.Verdict != Unknown && res.Verdict != expect {
			t.Fatalf("position %d (beam): %s, the plain search %s\n%s", i, res.Verdict, expect, describe(&b, &f))
		}
		if res.Verdict == Won {
			playLine(t, &b, &f, res.Moves)
			beamWon++
		}
	}
	t.Logf("won %d (by the beam %d), unwinnable %d, too large for the plain search %d", tally[Won], beamWon, tally[Unwinnable], tally[Unknown])
	if 2*beamWon < tally[Won] {
		t.Fatalf("the beam won %d of the %d won positions", beamWon, tally[Won])
	}
	if tally[Won] < positions/10 || tally[Unwinnable] < positions/10 {
		t.Fatalf("want both verdicts often: won %d, unwinnable %d", tally[Won], tally[Unwinnable])
	}
}

// TestFreeRelaxes: a search with free low cards (Options.Free) calls no
// position unwinnable that the plain search wins, and proves some
// unwinnable ones with every Free from 2 to 7.
func TestFreeRelaxes(t *testing.T) {
	positions, seed := 100, uint64(43)
	if testing.Short() {
		positions = 80
	}
	if v, err := strconv.Atoi(os.Getenv("DSOL_TALLY_POSITIONS")); err == nil {
		positions, seed = v, uint64(v)+1
	}
	r := cards.NewSplitMix64(seed)
	s := New()
	proved := 0
	for i := 0; i < positions; i++ {
		b, f := smallPosition(r, 6+int(r.Uniform(7)))
		want, complete := plainWinnable(&b, &f, 60000)
		if !complete {
			continue
		}
		free := 2 + int(r.Uniform(6))
		res := s.Solve(&b, &f, Options{Free: free, MaxPositions: 100000})
		if res.Verdict == Unwinnable {
			if want {
				t.Fatalf("position %d: free below %d calls it unwinnable; the plain search wins\n%s", i, free, describe(&b, &f))
			}
			proved++
		}
		if res.Verdict == Won && len(res.Moves) > 0 && !(b.DrawCount == 3 && b.CanRecycle) {
			t.Fatalf("position %d: a relaxed win with moves", i)
		}
	}
	t.Logf("%d of %d positions proved unwinnable with free low cards", proved, positions)
	if proved < positions/20 {
		t.Fatalf("only %d positions proved unwinnable", proved)
	}
}

// playLine plays a line on a copy of a position with the klondike rules and
// fails unless it ends with every card on the foundations.
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

// TestDoomed: the check without search calls no position lost that the
// plain search wins, and calls some lost.
func TestDoomed(t *testing.T) {
	r := cards.NewSplitMix64(44)
	doomed, lost := 0, 0
	const positions = 1500
	for i := 0; i < positions; i++ {
		b, f := smallPosition(r, 4+int(r.Uniform(9)))
		var st state
		st.load(&b, &f, 0)
		if !st.doomed() {
			continue
		}
		doomed++
		want, complete := plainWinnable(&b, &f, 60000)
		if complete && want {
			t.Fatalf("position %d: doomed, but the plain search wins\n%s", i, describe(&b, &f))
		}
		if complete {
			lost++
		}
	}
	t.Logf("%d of %d positions doomed (%d checked lost)", doomed, positions, lost)
	if lost < 10 {
		t.Fatalf("only %d doomed positions checked", lost)
	}
}
