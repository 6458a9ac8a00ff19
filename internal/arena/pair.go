package arena

import (
	"cmp"
	"math"
	"slices"
)

// Free is a player free to be paired: their arena score, their rating, the
// opponent of their last race in the arena ("" none), whether they were
// the odd one out of the last pairing, and the order they joined in.
type Free struct {
	ID     string
	Score  int
	Rating float64
	Last   string
	Odd    bool
	Joined int
	// Avoid lists the players this one blocked or was blocked by: they are
	// never paired.
	Avoid []string
}

// Pair pairs free players: the odd one out of the last pairing first, then
// those barred from more than one of the others, then by score, best first; each with the player nearest in score, then in
// rating, other than their last opponent whenever another is free, and
// never one they blocked or were blocked by. It returns the pairs and the
// players left over (the odd one out, and those nobody free may meet).
func Pair(free []Free) (pairs [][2]Free, left []Free) {
	order := slices.Clone(free)
	// Who may not meet more than one of the others (the last opponent of
	// several) chooses first, before their few opponents are taken.
	barred := map[string]int{}
	for _, p := range order {
		for _, q := range order {
			if p.ID != q.ID && (rematch(p, q) || blocked(p, q)) {
				barred[p.ID]++
			}
		}
	}
	slices.SortStableFunc(order, func(a, b Free) int {
		if a.Odd != b.Odd {
			if a.Odd {
				return -1
			}
			return 1
		}
		if ba, bb := max(barred[a.ID], 1), max(barred[b.ID], 1); ba != bb {
			return cmp.Compare(bb, ba)
		}
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.Joined, b.Joined))
	})
	taken := make([]bool, len(order))
	for i := range order {
		if taken[i] {
			continue
		}
		p := order[i]
		best := -1
		for j := i + 1; j < len(order); j++ {
			if !taken[j] && !blocked(p, order[j]) && (best < 0 || nearer(p, order[j], order[best])) {
				best = j
			}
		}
		if best < 0 {
			left = append(left, p)
			continue
		}
		taken[i], taken[best] = true, true
		pairs = append(pairs, [2]Free{p, order[best]})
	}
	unrematch(pairs, left)
	return pairs, left
}

// blocked reports whether p and q may never meet.
func blocked(p, q Free) bool { return slices.Contains(p.Avoid, q.ID) || slices.Contains(q.Avoid, p.ID) }

// nearer reports whether q is a better opponent for p than r: not a
// rematch, then nearer in score, then in rating (the earlier in order on a
// tie).
func nearer(p, q, r Free) bool {
	if rq, rr := rematch(p, q), rematch(p, r); rq != rr {
		return rr
	}
	if dq, dr := abs(p.Score-q.Score), abs(p.Score-r.Score); dq != dr {
		return dq < dr
	}
	return math.Abs(p.Rating-q.Rating) < math.Abs(p.Rating-r.Rating)
}

// rematch reports whether p and q just played each other.
func rematch(p, q Free) bool { return p.Last == q.ID || q.Last == p.ID }

// unrematch swaps opponents between pairs, and with a player left over
// (unless the swap would leave out the odd one out of the last pairing),
// while a swap leaves fewer rematches and pairs no one who may not meet.
func unrematch(pairs [][2]Free, left []Free) {
	cost := func(ps ...[2]Free) int {
		n := 0
		for _, p := range ps {
			switch {
			case blocked(p[0], p[1]):
				n += 1 << 20
			case rematch(p[0], p[1]):
				n++
			}
		}
		return n
	}
	for better := true; better; {
		better = false
		for i := range pairs {
			if !rematch(pairs[i][0], pairs[i][1]) {
				continue
			}
			for j := range pairs {
				a, b := pairs[i], pairs[j]
				if j == i {
					continue
				}
				now := cost(a, b)
				if x, y := [2]Free{a[0], b[0]}, [2]Free{a[1], b[1]}; cost(x, y) < now {
					pairs[i], pairs[j], better = x, y, true
					break
				}
				if x, y := [2]Free{a[0], b[1]}, [2]Free{a[1], b[0]}; cost(x, y) < now {
					pairs[i], pairs[j], better = x, y, true
					break
				}
			}
			for l := range left {
				if !rematch(pairs[i][0], pairs[i][1]) {
					break
				}
				for k, p := range pairs[i] {
					if o := pairs[i][1-k]; !p.Odd && !rematch(o, left[l]) && !blocked(o, left[l]) {
						pairs[i][k], left[l], better = left[l], p, true
						break
					}
				}
			}
		}
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
