package solo

import (
	"math/rand/v2"
	"os"
	"testing"

	k "dsol/internal/klondike"
)

// TestStuckMatchesNaiveSearch compares the stuck search with naiveSearch on
// positions of random and greedy games, thinned out to small ones: late
// positions where few cards remain, and positions with parts of the board
// removed. Whenever the naive search finishes, both must agree.
func TestStuckMatchesNaiveSearch(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 4
	}
	if os.Getenv("DSOL_PROPERTY_GAMES") != "" {
		games = propertyGames(t) / 50
	}
	r := rand.New(rand.NewPCG(11, 12))
	var buf []k.Action
	compared, blocked := 0, 0
	for game := 0; game < games; game++ {
		g, err := New(randomCode(r))
		if err != nil {
			t.Fatal(err)
		}
		p := &greedy{r: r}
		for step := 0; step < 500 && g.Status() == Playing; step++ {
			a, ok := p.next(g)
			if !ok || r.IntN(4) == 0 {
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
			if r.IntN(40) != 0 {
				continue
			}
			pos := *g
			thin(&pos, r)
			want, complete := naiveSearch(&pos)
			if !complete {
				continue
			}
			compared++
			if want {
				blocked++
			}
			if got := pos.Stuck(); got != want {
				t.Fatalf("Stuck() = %v, the naive search says %v:\n%s", got, want, formatPosition(&pos))
			}
		}
	}
	t.Logf("%d positions compared, %d blocked", compared, blocked)
	if blocked == 0 || blocked == compared {
		t.Fatalf("%d of %d compared positions blocked: the comparison needs both kinds", blocked, compared)
	}
}

// thin removes random parts of a position so that the naive search can
// finish: the stock, the waste, or the face-up cards above a random point of
// some columns (columns keep their face-down cards under at least one
// face-up card). Removed cards simply leave the game.
func thin(g *Game, r *rand.Rand) {
	b := &g.board
	switch r.IntN(4) {
	case 0:
		b.NStock = 0
	case 1:
		b.NStock, b.NWaste = 0, uint8(min(int(b.NWaste), 3))
	case 2:
		b.NStock = uint8(min(int(b.NStock), 4))
	}
	for i := 0; i < Columns; i++ {
		col := &b.Cols[i]
		if col.N > col.Down+1 && r.IntN(2) == 0 {
			col.N = col.Down + 1 + uint8(r.IntN(int(col.N-col.Down)))
		}
	}
}
