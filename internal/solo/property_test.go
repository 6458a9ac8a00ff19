package solo

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// propertyGames is how many random and greedy games the property tests
// play: DSOL_PROPERTY_GAMES overrides the default (10,000; 2,000 with -short).
// The random games are of 60 actions by default, 200 when the variable is
// set; a tenth as many greedy games are played to their end.
func propertyGames(tb testing.TB) int {
	tb.Helper()
	if s := os.Getenv("DSOL_PROPERTY_GAMES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			tb.Fatalf("DSOL_PROPERTY_GAMES=%q is not a positive number", s)
		}
		return n
	}
	if testing.Short() {
		return 2000
	}
	return 10000
}

// randomCode returns the code of a random deal with random options.
func randomCode(r *rand.Rand) cards.Code {
	return cards.Code{Kind: cards.Solo, Draw: 1 + 2*r.IntN(2), Vegas: r.IntN(2) == 0, Deal: r.Uint64N(cards.DealCount)}
}

// checkCards fails unless each of the 104 card ids is on the table once.
func checkCards(tb testing.TB, g *Game) {
	tb.Helper()
	var seen [TotalCards]int
	n := 0
	add := func(cs []cards.Card) {
		for _, c := range cs {
			if int(c) < TotalCards {
				seen[c]++
			}
			n++
		}
	}
	b := &g.board
	for i := 0; i < Columns; i++ {
		add(b.Cols[i].Cards[:b.Cols[i].N])
	}
	add(b.Stock[:b.NStock])
	add(b.Waste[:b.NWaste])
	for i := range g.found.N {
		add(g.found.Piles[i][:g.found.N[i]])
	}
	if n != TotalCards {
		tb.Fatalf("%d cards on the table, want %d\n%s", n, TotalCards, formatPosition(g))
	}
	for c, m := range seen {
		if m != 1 {
			tb.Fatalf("card id %d (%s) appears %d times\n%s", c, cards.Card(c), m, formatPosition(g))
		}
	}
	for i := 0; i < Columns; i++ {
		col := &b.Cols[i]
		if col.Down > 0 && col.Down >= col.N {
			tb.Fatalf("c%d has face-down cards and no face-up card", i+1)
		}
		for j := int(col.Down) + 1; j < int(col.N); j++ {
			if !cards.Builds(col.Cards[j], col.Cards[j-1]) {
				tb.Fatalf("c%d: face-up part is not a run\n%s", i+1, formatPosition(g))
			}
		}
	}
	if !g.code.Vegas && g.score < 0 {
		tb.Fatalf("normal score %d below 0", g.score)
	}
	if (g.status == Won) != (g.found.Total() == TotalCards) {
		tb.Fatalf("status %s with %d foundation cards", g.status, g.found.Total())
	}
}

// snapshot is the part of a game that undo must restore exactly.
type snapshot struct {
	board  k.Board
	found  k.Foundations
	score  int32
	status Status
}

// snap takes the snapshot of g, with the unused tails of the fixed arrays
// (which keep whatever was there last) cleared so that == compares only what
// is on the table.
func snap(g *Game) snapshot {
	s := snapshot{g.board, g.found, g.score, g.status}
	b := &s.board
	for i := range b.Cols {
		clear(b.Cols[i].Cards[b.Cols[i].N:])
	}
	clear(b.Stock[b.NStock:])
	clear(b.Waste[b.NWaste:])
	for i := range s.found.Piles {
		clear(s.found.Piles[i][s.found.N[i]:])
	}
	return s
}

// randomGame plays up to maxActions random actions (undo and refused actions
// included) on a random deal and checks every invariant after each one.
func randomGame(tb testing.TB, r *rand.Rand, maxActions int) {
	tb.Helper()
	code := randomCode(r)
	g, err := New(code)
	if err != nil {
		tb.Fatal(err)
	}
	start := g.Score()
	sum := 0
	var hist []snapshot // states before each undoable action, oldest first
	var buf []k.Action
	var log []k.Action
	for i := 0; i < maxActions; i++ {
		var a k.Action
		a, buf = randomAction(g, r, buf)
		if a.Type == 0 {
			break
		}
		before, moves, histI := snap(g), g.Moves(), g.histI
		out, err := g.Apply(a)
		if err != nil {
			if snap(g) != before || g.moves != int32(moves) || g.histI != histI || g.histN != len(hist) {
				tb.Fatalf("%s: refused %s (%v) but changed the game", code, a, err)
			}
			continue
		}
		sum += out.Delta
		log = append(log, a)
		if a.Type == k.Undo {
			want := hist[len(hist)-1]
			hist = hist[:len(hist)-1]
			if got := snap(g); got != want {
				tb.Fatalf("%s: undo did not restore the earlier state after %v:\n%s\nwant:\n%s", code, log, formatPosition(g),
					formatPosition(&Game{code: code, board: want.board, found: want.found, score: want.score}))
			}
			if g.Moves() != moves {
				tb.Fatalf("undo changed the move counter")
			}
		} else {
			hist = append(hist, before)
			if len(hist) > UndoLimit {
				hist = hist[1:]
			}
			if g.Moves() != moves+1 {
				tb.Fatalf("an action did not count one move")
			}
		}
		if g.UndoAvailable() != len(hist) {
			tb.Fatalf("undo available %d, want %d", g.UndoAvailable(), len(hist))
		}
		if g.Score() != start+sum {
			tb.Fatalf("%s: score %d, want start %d + deltas %d", code, g.Score(), start, sum)
		}
		checkCards(tb, g)
	}
}

// greedyResult is what a greedy game did.
type greedyResult struct {
	won                 bool
	wasteToCol, recycle int // waste cards played to columns; points recycles cost
	finishes            int // positions where a finish was offered (and tried on a copy)
}

// greedyGame plays a game of code with the greedy player, checking the
// invariants and the score accounting.
func greedyGame(tb testing.TB, code cards.Code, seed uint64) greedyResult {
	tb.Helper()
	g, err := New(code)
	if err != nil {
		tb.Fatal(err)
	}
	p := &greedy{r: rand.New(rand.NewPCG(seed, 1))}
	var res greedyResult
	start, sum := g.Score(), 0
	for g.Status() == Playing {
		a, ok := p.next(g)
		if !ok {
			break
		}
		out, err := g.Apply(a)
		if err != nil {
			tb.Fatalf("%s: greedy action %s refused: %v\n%s", code, a, err, formatPosition(g))
		}
		p.played(a)
		sum += out.Delta
		if a.From == k.Waste && out.Action.To.IsColumn() {
			res.wasteToCol++
		}
		if a.Type == k.Recycle {
			res.recycle -= out.Delta
		}
		if g.Score() != start+sum {
			tb.Fatalf("%s: score %d, want %d", code, g.Score(), start+sum)
		}
		checkCards(tb, g)
		if g.CanFinish() {
			tryFinish(tb, g)
			res.finishes++
		}
	}
	res.won = g.Status() == Won
	if res.won {
		want := 1220 + 5*res.wasteToCol - res.recycle
		if code.Vegas {
			want = 416
		}
		if g.Score() != want {
			tb.Fatalf("%s: won with %d, want %d (waste to columns %d, recycles cost %d)",
				code, g.Score(), want, res.wasteToCol, res.recycle)
		}
		if g.Stuck() {
			tb.Fatalf("%s: a won game is stuck", code)
		}
		if _, err := g.Apply(k.Simple(k.Undo)); err == nil {
			tb.Fatalf("%s: undo accepted after the win", code)
		}
	}
	return res
}

// tryFinish finishes a copy of g, which must win it with the points the
// outcome reports.
func tryFinish(tb testing.TB, g *Game) {
	tb.Helper()
	h := *g
	out, err := h.Apply(k.Simple(k.Finish))
	if err != nil {
		tb.Fatalf("%s: finish offered but refused: %v\n%s", g.code, err, formatPosition(g))
	}
	checkCards(tb, &h)
	if !out.Won || h.Score() != g.Score()+out.Delta || h.Moves() <= g.Moves() {
		tb.Fatalf("%s: finish gives %+v, score %d (before %d), moves %d (before %d)", g.code, out, h.Score(), g.Score(), h.Moves(), g.Moves())
	}
}

func TestPropertyRandomGames(t *testing.T) {
	n := propertyGames(t)
	actions := 60
	if os.Getenv("DSOL_PROPERTY_GAMES") != "" {
		actions = 200
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < n; i++ {
		randomGame(t, r, actions)
	}
	t.Logf("%d random games of up to %d actions", n, actions)
}

func TestPropertyGreedyGames(t *testing.T) {
	n := propertyGames(t) / 10
	r := rand.New(rand.NewPCG(3, 4))
	wins := map[string]int{}
	finishes := map[string]int{}
	for i := 0; i < n; i++ {
		code := randomCode(r)
		res := greedyGame(t, code, uint64(i))
		mode := fmt.Sprintf("D%d %s", code.Draw, Scoring(code))
		if res.won {
			wins[mode]++
		}
		finishes[mode] += res.finishes
	}
	t.Logf("finishes offered and tried: %v", finishes)
	total := 0
	for _, w := range wins {
		total += w
	}
	t.Logf("%d greedy games, %d won: %v", n, total, wins)
	if total == 0 {
		t.Fatalf("the greedy player won none of %d games: the win checks were never exercised", n)
	}
}
