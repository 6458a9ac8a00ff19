package tally

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBest: a level's cut keeps the same children, in the same order, as
// a stable sort by score cut to the width: lowest score first, ties in
// their order in the level, those past the width dropped.
func TestBest(t *testing.T) {
	s := New()
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 500 {
		n, w := r.IntN(60), 1+r.IntN(40)
		kids := make([]beamChild, n)
		for i := range kids {
			kids[i] = beamChild{parent: int32(i), score: int32(r.IntN(1 + round%12))}
		}
		want := slices.Clone(kids)
		slices.SortStableFunc(want, func(a, b beamChild) int { return int(a.score - b.score) })
		want = want[:min(w, n)]
		if got := s.best(kids, w); !slices.Equal(got, want) {
			t.Fatalf("round %d, %d children, width %d: kept %v, want %v", round, n, w, got, want)
		}
	}
}
