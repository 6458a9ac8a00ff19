package race

import (
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// TestScanBlocked looks for slow positions for the blocked search: it plays
// DSOL_SCAN_BLOCKED races, the bot's moves mixed with random ones, and times
// klondike.Blocked on each seat's board at every position (best of three for
// the slow ones), then logs the slowest. It is a tool for finding benchmark
// positions, skipped unless the variable is set.
func TestScanBlocked(t *testing.T) {
	races, _ := strconv.Atoi(os.Getenv("DSOL_SCAN_BLOCKED"))
	if races <= 0 {
		t.Skip("set DSOL_SCAN_BLOCKED to a number of races")
	}
	type found struct {
		d    time.Duration
		seat int
		pos  string
	}
	var top []found
	timeIt := func(r *Race, seat int) time.Duration {
		best := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			k.Blocked(r.Board(seat), r.Foundations())
			best = min(best, time.Since(start))
			if best < 20*time.Microsecond {
				break
			}
		}
		return best
	}
	rng := rand.New(rand.NewPCG(uint64(races), 98))
	for n := 0; n < races; n++ {
		code := cards.Code{Kind: cards.Race, Draw: 1 + 2*rng.IntN(2), Single: rng.IntN(2) == 0,
			Mirrored: rng.IntN(2) == 0, Deal: rng.Uint64N(cards.DealCount)}
		r, err := New(code, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var bot Bot
		randomness := 2 + rng.IntN(6)
		for step := 0; step < 2000 && r.Status() == Playing; step++ {
			for seat := 1; seat <= 2; seat++ {
				if d := timeIt(r, seat); len(top) < 8 || d > top[len(top)-1].d {
					top = append(top, found{d, seat, code.String() + "\n" + r.Diagram()})
					sort.Slice(top, func(i, j int) bool { return top[i].d > top[j].d })
					top = top[:min(len(top), 8)]
				}
			}
			seat := 1 + rng.IntN(2)
			acted := false
			if rng.IntN(randomness) == 0 {
				for try := 0; try < 30 && !acted; try++ {
					var a k.Action
					switch rng.IntN(6) {
					case 0:
						a = k.Simple(k.Draw)
					case 1:
						a = k.NewMove(k.Waste, k.Pile(rng.IntN(Columns)), 1)
					default:
						a = k.NewMove(k.Pile(rng.IntN(Columns)), k.Pile(rng.IntN(Columns)), 1+rng.IntN(6))
					}
					_, err := r.Apply(seat, a)
					acted = err == nil
				}
			}
			if !acted {
				for _, s := range [2]int{seat, 3 - seat} {
					if a, ok := bot.Next(r.Seen(s)); ok {
						if _, err := r.Apply(s, a); err == nil {
							acted = true
							break
						}
					}
				}
			}
			if !acted {
				break
			}
		}
	}
	for _, f := range top {
		t.Logf("%v seat %d\n%s", f.d, f.seat, f.pos)
	}
}
