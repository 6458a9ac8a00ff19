package arena

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestPair: nearest score first, the odd one out of the last round first,
// no rematch when another opponent is free, a rematch when none is.
func TestPair(t *testing.T) {
	f := func(id string, score int, last string) Free { return Free{ID: id, Score: score, Last: last} }
	tests := []struct {
		name string
		free []Free
		want string
	}{
		{"nearest score", []Free{f("a", 10, ""), f("b", 0, ""), f("c", 9, ""), f("d", 1, "")}, "a-c d-b |"},
		{"rating breaks a tie", []Free{{ID: "a", Rating: 1500}, {ID: "b", Rating: 1900}, {ID: "c", Rating: 1550}}, "b-c | a"},
		{"the odd one out first", []Free{f("a", 10, ""), f("b", 9, ""), {ID: "c", Odd: true}}, "c-b | a"},
		{"no rematch", []Free{f("a", 10, "b"), f("b", 9, "a"), f("c", 0, "")}, "a-c | b"},
		{"no rematch, swapped", []Free{f("a", 10, ""), f("b", 9, ""), f("c", 5, "d"), f("d", 4, "c")}, "d-b c-a |"},
		{"a rematch when nobody else is free", []Free{f("a", 1, "b"), f("b", 1, "a")}, "a-b |"},
		{"alone", []Free{f("a", 1, "")}, "| a"},
		{"never two who blocked", []Free{{ID: "a", Score: 3, Avoid: []string{"b"}}, {ID: "b", Score: 3}, {ID: "c"}}, "a-c | b"},
		{"not even alone", []Free{{ID: "a", Avoid: []string{"b"}}, {ID: "b"}}, "| a b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := pairText(Pair(tc.free)); got != tc.want {
				t.Fatalf("Pair = %q, want %q", got, tc.want)
			}
		})
	}
}

func pairText(pairs [][2]Free, left []Free) string {
	s := ""
	for _, p := range pairs {
		s += p[0].ID + "-" + p[1].ID + " "
	}
	s += "|"
	for _, l := range left {
		s += " " + l.ID
	}
	return s
}

// TestPairProperty: over random sets of free players (their last
// opponents left by a random history of races), everyone is paired
// but at most one (the odd one out, never the one who was left out last
// time when another is there), no one twice, and a rematch only when every
// pairing of the same players would have one (checked by exhaustive
// search).
func TestPairProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 3000 {
		k := 1 + rng.IntN(8)
		free := make([]Free, k)
		for i := range free {
			free[i] = Free{ID: fmt.Sprint("p", i), Score: rng.IntN(6), Rating: float64(1400 + rng.IntN(200)), Joined: i}
		}
		// Last opponents as races played one after the other leave them
		// (players outside this set are free too: they keep no one here).
		for range rng.IntN(2 * k) {
			i, j := rng.IntN(k), rng.IntN(k+2)
			if j >= k {
				free[i].Last = fmt.Sprint("elsewhere", j)
				continue
			}
			if i != j {
				free[i].Last, free[j].Last = free[j].ID, free[i].ID
			}
		}
		odd := -1
		if k%2 == 1 && rng.IntN(2) == 0 {
			odd = rng.IntN(k)
			free[odd].Odd = true
		}
		pairs, left := Pair(free)
		seen := map[string]bool{}
		rematches := 0
		for _, p := range pairs {
			for _, x := range p {
				if seen[x.ID] {
					t.Fatalf("case %d: %s paired twice: %s", n, x.ID, pairText(pairs, left))
				}
				seen[x.ID] = true
			}
			if rematch(p[0], p[1]) {
				rematches++
			}
		}
		if len(pairs) != k/2 || len(left) != k%2 {
			t.Fatalf("case %d: %d players, %s", n, k, pairText(pairs, left))
		}
		if odd >= 0 && k > 1 && len(left) > 0 && left[0].ID == free[odd].ID {
			t.Fatalf("case %d: the odd one out left out again: %s", n, pairText(pairs, left))
		}
		if rematches > 0 && fewestRematches(free, left) < rematches {
			t.Fatalf("case %d: %d rematches where %d would do: %+v -> %s", n, rematches, fewestRematches(free, left), free, pairText(pairs, left))
		}
	}
}

// TestPairBlocks: over random sets of free players with random blocks
// between them, no two who may not meet are ever paired, and no one is
// paired twice or lost.
func TestPairBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 3000 {
		k := 2 + rng.IntN(10)
		free := make([]Free, k)
		for i := range free {
			free[i] = Free{ID: fmt.Sprint("p", i), Score: rng.IntN(4)}
		}
		for range rng.IntN(k) {
			i, j := rng.IntN(k), rng.IntN(k)
			free[i].Avoid = append(free[i].Avoid, free[j].ID)
			free[rng.IntN(k)].Last = free[rng.IntN(k)].ID
		}
		pairs, left := Pair(free)
		seen := map[string]bool{}
		for _, p := range pairs {
			if blocked(p[0], p[1]) {
				t.Fatalf("case %d: %s and %s paired: %+v", n, p[0].ID, p[1].ID, free)
			}
			seen[p[0].ID], seen[p[1].ID] = true, true
		}
		for _, l := range left {
			seen[l.ID] = true
		}
		if len(seen) != k || 2*len(pairs)+len(left) != k {
			t.Fatalf("case %d: %s for %d players", n, pairText(pairs, left), k)
		}
	}
}

// fewestRematches is the fewest rematches of any pairing of the players but
// left.
func fewestRematches(free []Free, left []Free) int {
	var ps []Free
	for _, f := range free {
		if len(left) == 0 || f.ID != left[0].ID {
			ps = append(ps, f)
		}
	}
	var best func(ps []Free) int
	best = func(ps []Free) int {
		if len(ps) < 2 {
			return 0
		}
		m := len(ps)
		for j := 1; j < len(ps); j++ {
			rest := append(append([]Free{}, ps[1:j]...), ps[j+1:]...)
			r := best(rest)
			if rematch(ps[0], ps[j]) {
				r++
			}
			m = min(m, r)
		}
		return m
	}
	return best(ps)
}
