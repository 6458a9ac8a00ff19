package race

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// TestNextView: the view built after the one before is the race's View at
// every action of bot races, leaves the view before as it was, and shares
// the piles that did not change (most of them, one action apart).
func TestNextView(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	shared, piles := 0, 0
	for i := range 8 {
		code := cards.Code{Kind: cards.Race, Draw: 1 + 2*rng.IntN(2), Single: rng.IntN(3) == 0,
			Mirrored: rng.IntN(2) == 0, Deal: rng.Uint64N(cards.DealCount)}
		opts := Options{}
		if i%2 == 1 {
			opts = Options{Turns: Alternating, First: FirstCreator, FirstSeat: 1}
		}
		r, err := New(code, opts)
		if err != nil {
			t.Fatal(err)
		}
		prev := r.NextView(&View{}) // no piles to share: a whole view
		if !reflect.DeepEqual(prev, r.View(0)) {
			t.Fatalf("%s: the first view differs from View", code)
		}
		botGame(t, r, rng, 5000, func(seat int, a k.Action, _ Outcome) {
			before, _ := json.Marshal(prev)
			next := r.NextView(&prev)
			if want := r.View(0); !reflect.DeepEqual(next, want) {
				t.Fatalf("%s after seat %d's %v:\n%+v\nwant\n%+v", code, seat, a, next, want)
			}
			if after, _ := json.Marshal(prev); string(after) != string(before) {
				t.Fatalf("%s: building the next view changed the one before", code)
			}
			for f := range next.Foundations {
				piles++
				if sameArray(next.Foundations[f], prev.Foundations[f]) {
					shared++
				}
			}
			for s := range next.Seats {
				piles += 2
				if sameArray(next.Seats[s].Waste, prev.Seats[s].Waste) {
					shared++
				}
				if sameArray(next.Seats[s].Columns, prev.Seats[s].Columns) {
					shared++
				}
			}
			prev = next
		})
	}
	if shared*2 < piles {
		t.Errorf("%d of %d piles shared with the view before: want most", shared, piles)
	}
}

// sameArray reports whether a and b are the same array, not equal copies.
func sameArray[T any](a, b []T) bool {
	return len(a) > 0 && len(b) > 0 && &a[0] == &b[0]
}
