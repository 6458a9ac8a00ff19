package solo

import (
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	k "dsol/internal/klondike"
)

// TestScanStuck looks for slow positions for the stuck search: it plays
// DSOL_SCAN_STUCK mixed greedy and random games and times Stuck on every
// position (best of three for the slow ones), then logs the slowest. It is a
// tool for finding benchmark positions, skipped unless the variable is set.
func TestScanStuck(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("DSOL_SCAN_STUCK"))
	if games <= 0 {
		t.Skip("set DSOL_SCAN_STUCK to a number of games")
	}
	type found struct {
		d   time.Duration
		pos string
	}
	var top []found
	timeIt := func(g *Game) time.Duration {
		best := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			g.Stuck()
			best = min(best, time.Since(start))
			if best < 50*time.Microsecond {
				break
			}
		}
		return best
	}
	r := rand.New(rand.NewPCG(uint64(games), 99))
	var buf []k.Action
	for game := 0; game < games; game++ {
		g, err := New(randomCode(r))
		if err != nil {
			t.Fatal(err)
		}
		p := &greedy{r: r}
		randomness := 2 + r.IntN(8)
		for step := 0; step < 800 && g.Status() == Playing; step++ {
			if d := timeIt(g); len(top) < 8 || d > top[len(top)-1].d {
				top = append(top, found{d, formatPosition(g)})
				sort.Slice(top, func(i, j int) bool { return top[i].d > top[j].d })
				top = top[:min(len(top), 8)]
			}
			a, ok := p.next(g)
			if !ok || r.IntN(randomness) == 0 {
				buf = legalActions(g, buf)
				if len(buf) == 0 {
					break
				}
				a = buf[r.IntN(len(buf))]
			}
			if _, err := g.Apply(a); err != nil {
				t.Fatal(err)
			}
			p.played(a)
		}
	}
	for _, f := range top {
		t.Logf("%v\n%s", f.d, f.pos)
	}
}
