package klondike

import "testing"

// TestTalonDraws: the counts agree with drawing card by card: forward when
// the draws land on q, else to the end, a recycle and from the start (for
// every q draws can land on).
func TestTalonDraws(t *testing.T) {
	for _, d := range []int{1, 3} {
		for n := 0; n <= MaxStock; n++ {
			for w := 0; w <= n; w++ {
				for q := 0; q <= n; q++ {
					before, recycle, after := TalonDraws(w, n, d, q)
					at, draws := w, 0
					forward := false
					for at < q {
						at, draws = min(at+d, n), draws+1
					}
					forward = at == q
					switch {
					case forward && (recycle || before != 0 || after != draws):
						t.Fatalf("d %d n %d w %d q %d: %d, %v, %d; want %d forward", d, n, w, q, before, recycle, after, draws)
					case !forward:
						back, rest := 0, 0
						for at = w; at < n; at = min(at+d, n) {
							back++
						}
						for at = 0; at < q; at = min(at+d, n) {
							rest++
						}
						if at != q {
							continue // no draws land on q: out of reach (BringUp refuses it)
						}
						if !recycle || before != back || after != rest {
							t.Fatalf("d %d n %d w %d q %d: %d, %v, %d; want %d, a recycle, %d", d, n, w, q, before, recycle, after, back, rest)
						}
					}
				}
			}
		}
	}
}

// TestReachable: a boundary is reachable when draws from the waste land on
// it, or, with recycles, draws from the start do.
func TestReachable(t *testing.T) {
	lands := func(from, q, n, d int) bool {
		at := from
		for at < q {
			at = min(at+d, n)
		}
		return at == q
	}
	for _, d := range []int{1, 3} {
		for _, recycle := range []bool{false, true} {
			for n := 0; n <= MaxStock; n++ {
				for w := 0; w <= n; w++ {
					var out [MaxStock + 1]uint8
					got := map[int]bool{}
					for _, q := range out[:Reachable(w, n, d, recycle, &out)] {
						got[int(q)] = true
					}
					for q := 1; q <= n; q++ {
						if want := (q >= w && lands(w, q, n, d)) || (recycle && lands(0, q, n, d)); got[q] != want {
							t.Fatalf("d %d recycle %v n %d w %d: q %d reachable %v, want %v", d, recycle, n, w, q, got[q], want)
						}
					}
				}
			}
		}
	}
}
