package hint

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solo"
	"dsol/internal/solver"
)

// small is a cheap budget for the property tests; few enough positions that
// the fallback is taken now and then too.
var small = Options{Samples: 3, Positions: 3000}

// TestHintIsLegal: over random deals of every mode and random positions in
// them, the hint (sampled or heuristic) is an action the engine accepts, and
// it is spelt as a concrete move, draw or recycle.
func TestHintIsLegal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	reasons := map[string]int{}
	for i := range 48 {
		m := modes[i%len(modes)]
		g, played := midGame(t, r, m.draw, m.vegas, r.IntN(160))
		opt := small
		if i%3 == 0 {
			opt = Options{Samples: 2, Positions: 1} // never wins: the heuristic
		}
		h := For(g.Seen(), g.Foundations(), uint64(i), opt)
		reasons[reasonKind(h)]++
		if !h.OK {
			if len(legalActions(g)) > 0 && h.Reason != "no move helps" {
				t.Fatalf("position %d (%s after %v): no hint (%q)", i, g.Code(), played, h.Reason)
			}
			continue
		}
		switch h.Action.Type {
		case k.Move:
			if h.Action.To == k.AnyF {
				t.Fatalf("position %d: the hint %s names no slot", i, h.Action)
			}
		case k.Draw, k.Recycle:
		default:
			t.Fatalf("position %d: the hint is a %s", i, h.Action.Type)
		}
		cp := *g
		out, err := cp.Apply(h.Action)
		if err != nil {
			t.Fatalf("position %d (%s after %v): the hint %s (%s) is refused: %v", i, g.Code(), played, h.Action, h.Reason, err)
		}
		if out.Action != h.Action {
			t.Fatalf("position %d: the hint %s resolves to %s", i, h.Action, out.Action)
		}
	}
	if reasons["samples"] == 0 || reasons["heuristic"] == 0 {
		t.Fatalf("hints by kind: %v; want both sampled and heuristic ones", reasons)
	}
	t.Logf("hints by kind: %v", reasons)
}

func reasonKind(h Hint) string {
	switch {
	case h.Wins > 0:
		return "samples"
	case h.OK:
		return "heuristic"
	}
	return "none"
}

// TestHintIgnoresHiddenCards: two positions that show the same — the same
// faces in the same places, the same counts — get the same hint, however
// their hidden cards lie. The second board permutes the face-down cards
// (and the stock, while it is not known) among their places, and swaps the
// two copies of some faces everywhere (a view shows faces, not copies).
func TestHintIgnoresHiddenCards(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	differed := 0
	for i := range 32 {
		m := modes[i%len(modes)]
		g, _ := midGame(t, r, m.draw, m.vegas, 10+r.IntN(120))
		s := g.Seen()
		b, f := *g.Board(), *g.Foundations()
		b2, f2 := hideOtherwise(r, b, f, s.StockKnown)
		s2 := b2.Seen(s.StockKnown)
		if b2 == b {
			continue
		}
		differed++
		if texts(s) != texts(s2) {
			t.Fatalf("position %d: the boards do not show the same", i)
		}
		seed := Seed("game", int64(i))
		h1, h2 := For(s, &f, seed, small), For(s2, &f2, seed, small)
		if h1 != h2 {
			t.Fatalf("position %d (%s): the hint depends on hidden cards: %+v, then %+v", i, g.Code(), h1, h2)
		}
	}
	if differed < 16 {
		t.Fatalf("only %d positions had hidden cards to move", differed)
	}
}

// hideOtherwise returns a board and foundations that show what b and f
// show, with the hidden cards permuted among the hidden places and the two
// copies of every other face swapped.
func hideOtherwise(r *rand.Rand, b k.Board, f k.Foundations, stockKnown bool) (k.Board, k.Foundations) {
	var places []*cards.Card
	for i := range b.Cols {
		col := &b.Cols[i]
		for j := range int(col.Down) {
			places = append(places, &col.Cards[j])
		}
	}
	if !stockKnown {
		for j := range int(b.NStock) {
			places = append(places, &b.Stock[j])
		}
	}
	hidden := make([]cards.Card, len(places))
	for i, p := range places {
		hidden[i] = *p
	}
	r.Shuffle(len(hidden), func(i, j int) { hidden[i], hidden[j] = hidden[j], hidden[i] })
	for i, p := range places {
		*p = hidden[i]
	}
	swap := func(c *cards.Card) {
		if *c != cards.None && c.Face()%2 == 0 {
			*c = (*c + 52) % 104
		}
	}
	for i := range b.Cols {
		for j := range b.Cols[i].N {
			swap(&b.Cols[i].Cards[j])
		}
	}
	for j := range b.NStock {
		swap(&b.Stock[j])
	}
	for j := range b.NWaste {
		swap(&b.Waste[j])
	}
	for i := range f.Piles {
		for j := range f.N[i] {
			swap(&f.Piles[i][j])
		}
	}
	return b, f
}

// texts is what a seen board shows, in text.
func texts(s k.Seen) string {
	b := &s.Board
	out := fmt.Sprintf("known %v stock %d waste %v", s.StockKnown, b.NStock, solo.Texts(b.Waste[:b.NWaste]))
	if s.StockKnown {
		out += fmt.Sprint(solo.Texts(b.Stock[:b.NStock]))
	}
	for i := range b.NCols {
		col := &b.Cols[i]
		out += fmt.Sprintf(" %d:%v", col.Down, solo.Texts(col.Up()))
	}
	return out
}

// TestHintDeterministic: the same history gives the same hint, replayed in
// a new game and asked again; the seed is the game id and seq.
func TestHintDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 8 {
		m := modes[i%len(modes)]
		g, played := midGame(t, r, m.draw, m.vegas, r.IntN(100))
		again, err := solo.New(g.Code())
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range played {
			if _, err := again.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
		seed := Seed(fmt.Sprint("g", i), int64(len(played)))
		h1 := For(g.Seen(), g.Foundations(), seed, small)
		h2 := For(again.Seen(), again.Foundations(), seed, small)
		h3 := For(g.Seen(), g.Foundations(), seed, small)
		if h1 != h2 || h1 != h3 {
			t.Fatalf("position %d: hints %+v, %+v, %+v", i, h1, h2, h3)
		}
	}
	if Seed("a", 1) == Seed("a", 2) || Seed("a", 1) == Seed("b", 1) {
		t.Fatal("Seed ignores the game id or the seq")
	}
}

// TestHintWins: in a position the player has seen whole (no face-down
// card, no stock) the hint is the first move of a win, found in the one
// sample: every suit up to its jacks, and eight columns of a king under a
// queen of the other colour.
func TestHintWins(t *testing.T) {
	b := k.Board{NCols: 9, DrawCount: 3, CanRecycle: true}
	var f k.Foundations
	for slot := range 8 {
		for rank := 1; rank <= 11; rank++ {
			f.Piles[slot][rank-1] = cards.New(slot%2, cards.Suit(slot/2), rank)
		}
		f.N[slot] = 11
		col := &b.Cols[slot]
		s := cards.Suit(slot / 2)
		col.Cards[0] = cards.New(slot%2, s, 13)
		col.Cards[1] = cards.New(slot%2, s^1, 12) // spades and hearts, diamonds and clubs
		col.N = 2
	}
	h := For(b.Seen(false), &f, 1, Options{Samples: 4, Positions: 10000})
	if !h.OK || h.Wins != 1 || h.Samples != 1 || h.Reason != "wins 1 of 1 samples" {
		t.Fatalf("hint %+v; want a win in the single sample", h)
	}
	if h.Action.Type != k.Move || !h.Action.From.IsColumn() || !h.Action.To.IsSlot() {
		t.Fatalf("hint %s; want a queen to a foundation", h.Action)
	}
}

// TestHintPrefersProgress: when the solver's own line begins by turning the
// stock but a move that makes progress wins as well, the hint is the move.
// Every suit is up to its nines, eight columns hold a king under a queen of
// the other colour, the waste a jack that goes on a red queen, and the stock
// the tens and the other jacks: the solver's line starts with draws to a
// ten, which a vote on first actions would recommend.
func TestHintPrefersProgress(t *testing.T) {
	b := k.Board{NCols: 9, DrawCount: 1, CanRecycle: true}
	var f k.Foundations
	for slot := range 8 {
		deck, s := slot%2, cards.Suit(slot/2)
		for rank := 1; rank <= 9; rank++ {
			f.Piles[slot][rank-1] = cards.New(deck, s, rank)
		}
		f.N[slot] = 9
		col := &b.Cols[slot]
		col.Cards[0], col.Cards[1], col.N = cards.New(deck, s, 13), cards.New(deck, s^1, 12), 2
		b.Stock[b.NStock] = cards.New(deck, s, 10)
		b.NStock++
		if slot > 0 {
			b.Stock[b.NStock] = cards.New(deck, s, 11)
			b.NStock++
		}
	}
	b.Waste[0], b.NWaste = cards.New(0, cards.Spades, 11), 1
	res := solver.New().Solve(&b, &f, solver.Options{MaxPositions: Default.Positions})
	if res.Verdict != solver.Won || res.Moves[0].Type != k.Draw {
		t.Fatalf("the solver's line is %s %v; the test wants one that starts with a draw", res.Verdict, res.Moves)
	}
	h := For(b.Seen(true), &f, 1, Default)
	if !h.OK || h.Wins != 1 || h.Action.Type != k.Move || h.Action.From != k.Waste || !h.Action.To.IsColumn() {
		t.Fatalf("hint %+v; want the jack from the waste to a queen", h)
	}
}

// TestHintNothingHelps: a board where no card can move anywhere (every top
// black, no ace up, no empty column, no talon) gets no hint.
func TestHintNothingHelps(t *testing.T) {
	tops := []cards.Card{
		cards.New(0, cards.Spades, 5), cards.New(1, cards.Spades, 5), cards.New(0, cards.Clubs, 5), cards.New(1, cards.Clubs, 5),
		cards.New(0, cards.Spades, 9), cards.New(1, cards.Spades, 9), cards.New(0, cards.Clubs, 9), cards.New(1, cards.Clubs, 9),
		cards.New(0, cards.Spades, 7),
	}
	var rest []cards.Card
	for c := range cards.Card(104) {
		if !slices.Contains(tops, c) {
			rest = append(rest, c)
		}
	}
	b := k.Board{NCols: 9, DrawCount: 1}
	for i := range 9 {
		col := &b.Cols[i]
		n := min(11, len(rest))
		copy(col.Cards[:], rest[:n])
		rest = rest[n:]
		col.Cards[n] = tops[i]
		col.N, col.Down = uint8(n+1), uint8(n)
	}
	var f k.Foundations
	h := For(b.Seen(false), &f, 1, small)
	if h.OK || h.Reason != "no move helps" {
		t.Fatalf("hint %+v; want none", h)
	}
}

// BenchmarkHint times the default hint over many mid-game positions of
// random deals of each mode and reports the median and the 95th percentile
// of one hint's time: the budget of a served hint (hint.Default) is set so
// that p95 stays within 300 ms on the 2-core development machine.
func BenchmarkHint(b *testing.B) {
	benchMidGames(b, func(i int, g *solo.Game) { For(g.Seen(), g.Foundations(), uint64(i), Default) })
}

// BenchmarkStillWinnable times one live check (solo.StillWinnable with
// solo.CheckBudget positions, full information) over the same mid-game
// positions, with its median and 95th percentile.
func BenchmarkStillWinnable(b *testing.B) {
	benchMidGames(b, func(_ int, g *solo.Game) {
		solo.StillWinnable(g.Board(), g.Foundations(), solo.CheckBudget, nil)
	})
}

// benchMidGames runs f on 64 mid-game positions of random deals of each
// mode in turn and reports the median and the 95th percentile of one run.
func benchMidGames(b *testing.B, f func(i int, g *solo.Game)) {
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(11, uint64(m.draw)))
			var gs []*solo.Game
			for len(gs) < 64 {
				g, _ := midGame(b, r, m.draw, m.vegas, 20+r.IntN(140))
				if g.Status() == solo.Playing {
					gs = append(gs, g)
				}
			}
			var times []time.Duration
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				f(i, gs[i%len(gs)])
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			at := func(q float64) float64 {
				return float64(times[min(len(times)-1, int(q*float64(len(times))))]) / float64(time.Millisecond)
			}
			b.ReportMetric(at(0.5), "p50-ms")
			b.ReportMetric(at(0.95), "p95-ms")
		})
	}
}
