package solo

import (
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// fuzzAction turns two fuzz bytes into an action: mostly one of the legal
// actions (to get deep into games), otherwise any action at all, legal or not.
func fuzzAction(g *Game, x, y byte, buf []k.Action) (k.Action, []k.Action) {
	pile := func(v byte) k.Pile {
		if v%21 == 20 {
			return k.NoPile
		}
		return k.Pile(v % 21) // columns, waste, stock, slots, f and beyond
	}
	switch x % 8 {
	case 0:
		return k.NewMove(pile(y), pile(y/3+x), int(x/8)%15), buf
	case 1:
		return k.Simple(k.Type(y % 12)), buf
	case 2:
		return k.FromPile(k.Type(4+y%2), pile(x/8+y), int(y/2)%15), buf
	case 3:
		return k.Simple(k.Undo), buf
	}
	buf = legalActions(g, buf)
	if len(buf) == 0 {
		return k.Simple(k.Draw), buf
	}
	return buf[int(y)%len(buf)], buf
}

func FuzzSoloActions(f *testing.F) {
	f.Add(uint64(0), byte(0), []byte{4, 0, 5, 1, 6, 2, 7, 3})
	f.Add(uint64(1), byte(3), []byte{1, 2, 1, 2, 1, 2, 1, 3, 3, 3, 3})
	f.Add(uint64(cards.DealCount-1), byte(1), []byte("move draw recycle tap dtap undo"))
	f.Add(uint64(12345), byte(2), make([]byte, 400))
	f.Fuzz(func(t *testing.T, deal uint64, opts byte, data []byte) {
		code := cards.Code{Kind: cards.Solo, Draw: 1 + 2*int(opts&1), Vegas: opts&2 != 0, Deal: deal % cards.DealCount}
		g, err := New(code)
		if err != nil {
			t.Fatal(err)
		}
		start, sum := g.Score(), 0
		var hist []snapshot
		var buf []k.Action
		for i := 0; i+1 < len(data); i += 2 {
			var a k.Action
			a, buf = fuzzAction(g, data[i], data[i+1], buf)
			before, moves := snap(g), g.Moves()
			out, err := g.Apply(a)
			if err != nil {
				if _, ok := err.(*k.Error); !ok {
					t.Fatalf("%s: error %v is not a *klondike.Error", a, err)
				}
				if snap(g) != before || g.Moves() != moves || g.UndoAvailable() != len(hist) {
					t.Fatalf("%s refused (%v) but the game changed", a, err)
				}
				continue
			}
			sum += out.Delta
			if a.Type == k.Undo {
				if snap(g) != hist[len(hist)-1] || g.Moves() != moves {
					t.Fatalf("undo did not restore the state")
				}
				hist = hist[:len(hist)-1]
			} else {
				hist = append(hist, before)
				if len(hist) > UndoLimit {
					hist = hist[1:]
				}
				if g.Moves() != moves+1 {
					t.Fatal("an action did not count one move")
				}
			}
			if g.Score() != start+sum {
				t.Fatalf("score %d, want %d", g.Score(), start+sum)
			}
			checkCards(t, g)
		}
		if len(data)%7 == 0 {
			_ = g.Stuck() // must not panic on any reachable position
			_ = g.View()
		}
	})
}
