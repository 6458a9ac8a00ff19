package race

import (
	"math/rand/v2"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// restored returns a race of r's code and options that loaded r's state.
func restored(tb testing.TB, r *Race) *Race {
	tb.Helper()
	h, err := New(r.code, r.opts)
	if err != nil {
		tb.Fatal(err)
	}
	if err := h.LoadState(r.AppendState(nil)); err != nil {
		tb.Fatalf("%s: %v", r.code, err)
	}
	return h
}

// same reports whether two races are in the same state (it holds no
// pointers: == compares it whole), their caches of whether a seat is
// blocked aside, which only remember an answer.
func same(a, b *Race) bool {
	x, y := *a, *b
	x.blocked, y.blocked = [Seats]int8{}, [Seats]int8{}
	return x == y
}

// TestStateRoundTrip: at every step of bot races over random codes, in
// both turn modes, a race that loads the state is the same race, and plays
// on as the original does.
func TestStateRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range propertyRaces(t) / 50 {
		code := cards.Code{Kind: cards.Race, Draw: 1 + 2*rng.IntN(2), Single: rng.IntN(3) == 0,
			Mirrored: rng.IntN(2) == 0, Deal: rng.Uint64N(cards.DealCount)}
		opts := Options{Turns: Turns(i % 2), First: FirstRandom, SoloOutBonus: rng.IntN(2) == 0}
		opts.FirstSeat = opts.First.Seat(func() int { return rng.IntN(2) })
		r, err := New(code, opts)
		if err != nil {
			t.Fatal(err)
		}
		h := restored(t, r)
		n := 0
		botGame(t, r, rng, 20000, func(seat int, a k.Action, _ Outcome) {
			if _, err := h.Apply(seat, a); err != nil {
				t.Fatalf("%s: the restored race refused %s of seat %d: %v", code, a, seat, err)
			}
			if !same(h, r) {
				t.Fatalf("%s: the restored race differs after %s of seat %d", code, a, seat)
			}
			if n++; n%29 == 0 {
				h = restored(t, r)
			}
		})
		if !same(restored(t, r), r) {
			t.Fatalf("%s: the restored race differs at its end", code)
		}
	}
}

// TestStateRefused: a state that cannot be the race's is refused, and the
// race stays as it was.
func TestStateRefused(t *testing.T) {
	r := mustRace(t, "DR1-D1UI-QWERTYU", Options{})
	good := r.AppendState(nil)
	for _, c := range []struct {
		name string
		code string
		edit func(b []byte) []byte
	}{
		{"short", "DR1-D1UI-QWERTYU", func(b []byte) []byte { return b[:len(b)-1] }},
		{"another draw", "DR1-D3UI-QWERTYU", func(b []byte) []byte { return b }},
		{"single pass", "DR1-D1SI-QWERTYU", func(b []byte) []byte { return b }},
		{"a card twice", "DR1-D1UI-QWERTYU", func(b []byte) []byte { b[157] = b[156]; return b }}, // column 7's first two
		{"a turn of seat 3", "DR1-D1UI-QWERTYU", func(b []byte) []byte { b[len(b)-19] = 3; return b }},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := mustRace(t, c.code, Options{})
			before := *h
			if err := h.LoadState(c.edit(append([]byte(nil), good...))); err == nil {
				t.Fatal("loaded")
			}
			if *h != before {
				t.Fatal("a refused state changed the race")
			}
		})
	}
}
