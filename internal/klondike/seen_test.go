package klondike

import (
	"math/rand/v2"
	"slices"
	"testing"

	"dsol/internal/cards"
)

// TestBoardSeen checks on random positions that a masked board holds the
// shown cards where the board has them and cards.None everywhere else, and
// that Blocked and Path answer on it what they answer on the whole board
// when its stock is known: they never read a face-down card.
func TestBoardSeen(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var buf, mbuf []Step
	panics := 0
	for i := 0; i < 200; i++ {
		b, f := randomPosition(r)
		recycled := r.IntN(2) == 0
		s := b.Seen(recycled)
		if s.StockKnown != (recycled || b.NStock == 0) {
			t.Fatalf("position %d: StockKnown %v, recycled %v, %d stock cards", i, s.StockKnown, recycled, b.NStock)
		}
		m := &s.Board
		if m.NCols != b.NCols || m.DrawCount != b.DrawCount || m.CanRecycle != b.CanRecycle || m.NStock != b.NStock || m.NWaste != b.NWaste {
			t.Fatalf("position %d: the masked board's counts or rules differ", i)
		}
		shown := func(what string, got, want []cards.Card, from, to int) {
			t.Helper()
			for j := range got {
				w := cards.None
				if j >= from && j < to {
					w = want[j]
				}
				if got[j] != w {
					t.Fatalf("position %d: %s place %d holds %s, want %s", i, what, j, got[j], w)
				}
			}
		}
		for c := range m.Cols {
			col, real := &m.Cols[c], &b.Cols[c]
			if col.N != real.N || col.Down != real.Down {
				t.Fatalf("position %d: column %d counts differ", i, c)
			}
			shown("a column", col.Cards[:], real.Cards[:], int(real.Down), int(real.N))
		}
		stockTo := 0
		if s.StockKnown {
			stockTo = int(b.NStock)
		}
		shown("the stock", m.Stock[:], b.Stock[:], 0, stockTo)
		shown("the waste", m.Waste[:], b.Waste[:], 0, int(b.NWaste))

		if !s.StockKnown {
			func() {
				defer func() {
					if recover() != nil {
						panics++
					}
				}()
				Path(m, &f, mbuf)
				t.Fatalf("position %d: Path searched a masked stock", i)
			}()
			continue
		}
		if Blocked(&b, &f) != Blocked(m, &f) {
			t.Fatalf("position %d: Blocked differs on the masked board", i)
		}
		var found, mfound bool
		buf, found = Path(&b, &f, buf)
		mbuf, mfound = Path(m, &f, mbuf)
		if found != mfound || (found && !slices.Equal(buf, mbuf)) {
			t.Fatalf("position %d: Path differs on the masked board: %v %v vs %v %v", i, found, buf, mfound, mbuf)
		}
	}
	if panics == 0 {
		t.Fatal("no position had a masked stock")
	}
}

// TestSeenScan: on random positions, Scan shows every seen card once and
// no other, and its places are exactly those the mask hides, in order, each
// holding cards.None on the masked board and a card on the whole one.
func TestSeenScan(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 200; i++ {
		b, _ := randomPosition(r)
		s := b.Seen(r.IntN(2) == 0)
		var got int
		holes := s.Scan(func(c *cards.Card) {
			if *c == cards.None {
				t.Fatalf("position %d: Scan shows a hidden card", i)
			}
			got++
		})
		want := int(b.NWaste)
		hidden := 0
		for c := range int(b.NCols) {
			want += int(b.Cols[c].N - b.Cols[c].Down)
			hidden += int(b.Cols[c].Down)
		}
		if s.StockKnown {
			want += int(b.NStock)
		} else {
			hidden += int(b.NStock)
		}
		if got != want || len(holes) != hidden {
			t.Fatalf("position %d: %d cards shown, want %d; %d places hidden, want %d", i, got, want, len(holes), hidden)
		}
		for j, h := range holes {
			if *h.Of(&s.Board) != cards.None || *h.Of(&b) == cards.None {
				t.Fatalf("position %d: place %d %+v is not a hidden card", i, j, h)
			}
			if j > 0 && (h.Col < holes[j-1].Col && h.Col >= 0 || h.Col == holes[j-1].Col && h.I <= holes[j-1].I) {
				t.Fatalf("position %d: places out of order at %d", i, j)
			}
		}
	}
}
