package hint

import (
	"math/rand/v2"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solo"
)

// modes are the four solo modes: draw 1 or 3, Normal or Vegas.
var modes = []struct {
	name  string
	draw  int
	vegas bool
}{{"D1N", 1, false}, {"D3N", 3, false}, {"D1V", 1, true}, {"D3V", 3, true}}

// candidates lists every action that may be legal in a solo game: draws,
// recycles and moves between any two piles with any count.
func candidates() []k.Action {
	out := []k.Action{k.Simple(k.Draw), k.Simple(k.Recycle)}
	var from []k.Pile
	for i := range solo.Columns {
		from = append(from, k.ColPile(i))
	}
	from = append(from, k.Waste)
	for i := range 8 {
		from = append(from, k.Slot(i))
	}
	for _, f := range from {
		for i := range solo.Columns {
			for n := 1; n <= k.MaxCount; n++ {
				if n == 1 || f.IsColumn() {
					out = append(out, k.NewMove(f, k.ColPile(i), n))
				}
			}
		}
		if !f.IsSlot() {
			out = append(out, k.NewMove(f, k.AnyF, 1))
		}
	}
	return out
}

var allCandidates = candidates()

// legalActions returns the candidates the game accepts now.
func legalActions(g *solo.Game) []k.Action {
	var out []k.Action
	for _, a := range allCandidates {
		cp := *g
		if _, err := cp.Apply(a); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// midGame deals a random game of a mode and plays up to steps actions: the
// bot's useful move most of the time, else a random legal action. It
// returns the game and the actions played.
func midGame(tb testing.TB, r *rand.Rand, draw int, vegas bool, steps int) (*solo.Game, []k.Action) {
	tb.Helper()
	g, err := solo.New(cards.Code{Kind: cards.Solo, Draw: draw, Vegas: vegas, Deal: r.Uint64N(cards.DealCount)})
	if err != nil {
		tb.Fatal(err)
	}
	var played []k.Action
	for range steps {
		if g.Status() == solo.Won {
			break
		}
		s := g.Seen()
		a, ok := k.UsefulMove(&s.Board, g.Foundations())
		if !ok || r.IntN(4) == 0 {
			legal := legalActions(g)
			if len(legal) == 0 {
				break
			}
			a = legal[r.IntN(len(legal))]
		}
		out, err := g.Apply(a)
		if err != nil {
			tb.Fatalf("%s refused: %v", a, err)
		}
		played = append(played, out.Action)
	}
	return g, played
}
