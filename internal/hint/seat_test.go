package hint_test

import (
	"math/rand/v2"
	"testing"

	"dsol/internal/cards"
	"dsol/internal/hint"
	k "dsol/internal/klondike"
	"dsol/internal/race"
)

// seatBudget is a cheap budget for the race-seat tests.
var seatBudget = hint.Options{Samples: 3, Positions: 2000}

// midRace deals a random simultaneous race and lets two plain bots play it
// for up to steps actions (the seat to act picked by r), stopping early when
// it ends.
func midRace(tb testing.TB, r *rand.Rand, steps int) *race.Race {
	tb.Helper()
	code := cards.Code{Kind: cards.Race, Draw: 1 + 2*r.IntN(2), Single: r.IntN(4) == 0,
		Mirrored: r.IntN(2) == 0, Deal: r.Uint64N(cards.DealCount)}
	rc, err := race.New(code, race.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	var bot race.Bot
	for range steps {
		if rc.Status() != race.Playing {
			break
		}
		first := 1 + r.IntN(2)
		for _, seat := range [2]int{first, 3 - first} {
			a, ok := bot.Next(rc.Seen(seat))
			if !ok || a.Type == k.Resign {
				continue
			}
			if _, err := rc.Apply(seat, a); err != nil {
				tb.Fatalf("%s refused: %v", a, err)
			}
			break
		}
	}
	return rc
}

// TestSeatHintIsLegal: in random positions of races in play, a race seat's
// hint, when it has one, is a move the race accepts from that seat, spelt
// with a concrete slot, never from a foundation (a race has no recovery);
// many positions have one.
func TestSeatHintIsLegal(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	hinted := 0
	for i := range 40 {
		rc := midRace(t, r, r.IntN(200))
		if rc.Status() != race.Playing {
			continue
		}
		seat := 1 + i%2
		s := rc.Seen(seat)
		h := hint.ForSeat(s.Boards[seat-1], &s.Found, seat-1, uint64(i), seatBudget)
		if !h.OK {
			if h.Reason != "no sample won" || h.Wins != 0 {
				t.Fatalf("position %d: no hint, but %+v", i, h)
			}
			continue
		}
		hinted++
		a := h.Action
		switch a.Type {
		case k.Move:
			if a.To == k.AnyF || a.From.IsFoundation() {
				t.Fatalf("position %d: the hint %s", i, a)
			}
		case k.Draw, k.Recycle:
		default:
			t.Fatalf("position %d: the hint is a %s", i, a.Type)
		}
		cp := *rc
		out, err := cp.Apply(seat, a)
		if err != nil {
			t.Fatalf("position %d (%s): seat %d's hint %s (%s) is refused: %v", i, rc.Code(), seat, a, h.Reason, err)
		}
		if out.Action != a {
			t.Fatalf("position %d: the hint %s resolves to %s", i, a, out.Action)
		}
	}
	if hinted < 15 {
		t.Fatalf("only %d of 40 positions had a hint", hinted)
	}
}

// TestSeatHintIgnoresHiddenCards: a race seat's hint is the same however its
// hidden cards lie (its face-down cards, and its stock while the seat has
// not recycled, permuted among their places); it is never given the
// opponent's board at all.
func TestSeatHintIgnoresHiddenCards(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	differed, hinted := 0, 0
	for i := range 40 {
		rc := midRace(t, r, r.IntN(160))
		seat := 1 + i%2
		s := rc.Seen(seat)
		b := *rc.Board(seat)
		var places []*cards.Card
		for c := range b.Cols[:b.NCols] {
			for j := range int(b.Cols[c].Down) {
				places = append(places, &b.Cols[c].Cards[j])
			}
		}
		if !s.Boards[seat-1].StockKnown {
			for j := range int(b.NStock) {
				places = append(places, &b.Stock[j])
			}
		}
		hidden := make([]cards.Card, len(places))
		for j, p := range places {
			hidden[j] = *p
		}
		r.Shuffle(len(hidden), func(x, y int) { hidden[x], hidden[y] = hidden[y], hidden[x] })
		for j, p := range places {
			*p = hidden[j]
		}
		if b == *rc.Board(seat) {
			continue
		}
		differed++
		other := b.Seen(s.Boards[seat-1].StockKnown)
		if other != s.Boards[seat-1] {
			t.Fatalf("position %d: the permuted board shows something else", i)
		}
		seed := hint.Seed("race", int64(i))
		h1 := hint.ForSeat(s.Boards[seat-1], &s.Found, seat-1, seed, seatBudget)
		h2 := hint.ForSeat(other, &s.Found, seat-1, seed, seatBudget)
		if h1 != h2 {
			t.Fatalf("position %d: the hint depends on hidden cards: %+v, then %+v", i, h1, h2)
		}
		if h1.OK {
			hinted++
		}
	}
	if differed < 20 || hinted < 10 {
		t.Fatalf("only %d positions had hidden cards to move, %d a hint", differed, hinted)
	}
}

// TestSeatHintLeavesStrandedCards: the solver wins a seat that can put up
// every card the foundations can take, though the opponent's cards keep
// one of its cards from ever going up. Seat 1's spades, diamonds and clubs
// are up; of its hearts, AH is up alone on one slot and 2H on the other,
// between the opponent's AH and 3H. That slot takes seat 1's 4H to KH; the
// first can never grow (it needs a 2H: seat 1's is up, the opponent's on
// the opponent's board), so seat 1's 3H never goes up. The hint plays 4H
// up, winning the one arrangement there is (every card is seen).
func TestSeatHintLeavesStrandedCards(t *testing.T) {
	var f k.Foundations
	for sl, su := range map[int]cards.Suit{0: cards.Spades, 4: cards.Diamonds, 6: cards.Clubs} {
		for rank := 1; rank <= 13; rank++ {
			f.Piles[sl][rank-1] = cards.New(0, su, rank)
		}
		f.N[sl] = 13
	}
	f.Piles[2][0], f.Piles[2][1], f.Piles[2][2], f.N[2] = cards.New(1, cards.Hearts, 1), cards.New(0, cards.Hearts, 2), cards.New(1, cards.Hearts, 3), 3
	f.Piles[3][0], f.N[3] = cards.New(0, cards.Hearts, 1), 1
	b := k.Board{NCols: 7, DrawCount: 1, CanRecycle: true}
	b.Cols[0].Cards[0], b.Cols[0].N = cards.New(0, cards.Hearts, 4), 1
	b.Cols[1].Cards[0], b.Cols[1].N = cards.New(0, cards.Hearts, 3), 1
	for _, rank := range []int{9, 5, 13, 7, 11, 6, 12, 8, 10} {
		b.Stock[b.NStock] = cards.New(0, cards.Hearts, rank)
		b.NStock++
	}
	h := hint.ForSeat(b.Seen(true), &f, 0, 1, seatBudget)
	want := k.NewMove(k.ColPile(0), k.Slot(2), 1)
	if !h.OK || h.Action != want || h.Wins != 1 || h.Samples != 1 {
		t.Fatalf("hint %+v, want %s winning", h, want)
	}
}
