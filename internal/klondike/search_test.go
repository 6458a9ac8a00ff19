package klondike

import (
	"math/rand/v2"
	"testing"

	"dsol/internal/cards"
)

// plainLimit bounds PlainBlocked in the tests; positions that need more are
// not compared.
const plainLimit = 40000

// randomPosition deals a race (7 columns, 24-card stock) or solo (9 columns,
// 59-card stock) board with a random draw and recycle rule, plays random
// legal moves (foundation plays included) and then thins it so that
// PlainBlocked can finish: parts of the talon and of the columns' face-up
// runs leave the game.
func randomPosition(r *rand.Rand) (Board, Foundations) {
	var b Board
	var f Foundations
	draw, recycle := 1+2*r.IntN(2), r.IntN(3) != 0
	if r.IntN(2) == 0 {
		deck := cards.RaceDecks(cards.Code{Kind: cards.Race, Deal: r.Uint64N(cards.DealCount), Mirrored: r.IntN(2) == 0})[r.IntN(2)]
		b.Deal(deck[:], 7, draw, recycle)
	} else {
		deck := cards.SoloDeck(cards.Code{Deal: r.Uint64N(cards.DealCount)})
		b.Deal(deck[:], 9, draw, recycle)
	}
	t := Table{B: &b, F: &f}
	steps := r.IntN(400)
	for s := 0; s < steps; s++ {
		randomMove(t, r)
	}
	switch r.IntN(5) {
	case 0:
		b.NStock = 0
	case 1:
		b.NStock, b.NWaste = 0, uint8(min(int(b.NWaste), 4))
	case 2:
		b.NStock = uint8(min(int(b.NStock), 6))
	case 3:
		b.NWaste = uint8(min(int(b.NWaste), 6))
	}
	for i := 0; i < int(b.NCols); i++ {
		col := &b.Cols[i]
		if col.N > col.Down+1 && r.IntN(3) == 0 {
			col.N = col.Down + 1 + uint8(r.IntN(int(col.N-col.Down)))
		}
	}
	return b, f
}

// randomMove makes one random legal move, preferring foundation plays and
// flips now and then so that games get somewhere.
func randomMove(t Table, r *rand.Rand) {
	b := t.B
	n := int(b.NCols)
	if r.IntN(2) == 0 {
		for _, from := range append([]Pile{Waste}, colPiles(n)...) {
			if to, err := t.CheckMove(from, AnyF, 1); err == nil {
				t.DoMove(from, to, 1)
				return
			}
		}
	}
	for try := 0; try < 20; try++ {
		switch k := r.IntN(8); {
		case k == 0:
			if b.NStock > 0 {
				b.DrawCards()
				return
			}
			if b.NWaste > 0 && b.CanRecycle {
				b.RecycleWaste()
				return
			}
		case k < 3:
			to := Pile(r.IntN(n))
			if _, err := t.CheckMove(Waste, to, 1); err == nil {
				t.DoMove(Waste, to, 1)
				return
			}
		default:
			from, to := Pile(r.IntN(n)), Pile(r.IntN(n))
			count := 1 + r.IntN(int(b.Cols[from].N-b.Cols[from].Down)+1)
			if _, err := t.CheckMove(from, to, count); err == nil {
				t.DoMove(from, to, count)
				return
			}
		}
	}
}

func colPiles(n int) []Pile {
	ps := make([]Pile, n)
	for i := range ps {
		ps[i] = Pile(i)
	}
	return ps
}

// TestBlockedMatchesPlainSearch compares Blocked and Path with PlainBlocked on
// random race and solo positions, draw 1 and 3, with and without recycling.
// Whenever the plain search finishes, Blocked must agree, and Path must find
// a way out exactly when there is one; following it must reach a position
// where a foundation play or a flip is available.
func TestBlockedMatchesPlainSearch(t *testing.T) {
	positions := 1500
	if testing.Short() {
		positions = 300
	}
	r := rand.New(rand.NewPCG(21, 22))
	compared, blocked, far := 0, 0, 0
	var kinds [2][2][2]int // solo, draw 3, recycle: blocked positions
	var buf []Step
	for p := 0; p < positions; p++ {
		b, f := randomPosition(r)
		want, complete := PlainBlocked(&b, &f, plainLimit)
		if !complete {
			continue
		}
		compared++
		before := canonical(&b)
		if got := Blocked(&b, &f); got != want {
			t.Fatalf("position %d: Blocked = %v, the plain search says %v\n%+v", p, got, want, b)
		}
		if canonical(&b) != before {
			t.Fatalf("position %d: Blocked changed the board", p)
		}
		path, found := Path(&b, &f, buf)
		buf = path
		if found == want {
			t.Fatalf("position %d: Path found = %v, the plain search says blocked = %v", p, found, want)
		}
		if want {
			blocked++
			solo, d3, rc := 0, 0, 0
			if b.NCols == 9 {
				solo = 1
			}
			if b.DrawCount == 3 {
				d3 = 1
			}
			if b.CanRecycle {
				rc = 1
			}
			kinds[solo][d3][rc]++
			continue
		}
		if len(path) > 0 {
			far++
		}
		followPath(t, &b, &f, path)
	}
	t.Logf("%d positions compared, %d blocked (solo/race × draw 1/3 × Vegas/recycle: %v), %d ways out of one step or more", compared, blocked, kinds, far)
	if blocked < compared/10 || blocked > compared*9/10 || far < compared/20 {
		t.Fatalf("%d of %d compared positions blocked, %d with a path: the comparison needs all kinds", blocked, compared, far)
	}
}

// followPath applies a path to a copy of b and checks that every step is
// legal and that it ends where a foundation play or a flip is available.
func followPath(t *testing.T, start *Board, f *Foundations, path []Step) {
	t.Helper()
	b := *start
	tb := Table{B: &b, F: f}
	for i, st := range path {
		switch st.Type {
		case Draw:
			if b.NStock == 0 {
				t.Fatalf("step %d: draw on an empty stock", i)
			}
			if n := b.DrawCards(); n != int(st.Count) {
				t.Fatalf("step %d: drew %d, the step says %d", i, n, st.Count)
			}
		case Recycle:
			if b.NStock != 0 || !b.CanRecycle {
				t.Fatalf("step %d: recycle not allowed", i)
			}
			b.RecycleWaste()
		default:
			if !st.From.IsColumn() && st.From != Waste || !st.To.IsColumn() {
				t.Fatalf("step %d: %+v is not a column or waste-to-column move", i, st)
			}
			if _, err := tb.CheckMove(st.From, st.To, int(st.Count)); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			if got := tb.DoMove(st.From, st.To, int(st.Count)); got != st {
				t.Fatalf("step %d: the move gives %+v, the path says %+v", i, got, st)
			}
		}
	}
	if !directGoal(&b, f) {
		t.Fatalf("the path of %d steps ends where nothing useful is available", len(path))
	}
}
