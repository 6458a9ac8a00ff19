package race

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// Seen masks the face-down cards of both boards, and a seat's stock until
// that seat has recycled; both seats see the same.
func TestSeen(t *testing.T) {
	r := mustPosition(t, d1u, Options{}, `
f1: AS1
seat 1
c1: 4C | 9H
c2: TS
s: 2D 3S
w: 8C
seat 2
c1: 5D 7D | KS
s: 2H
`)
	none := cards.None
	card := func(s string, seat int) cards.Card {
		c, err := cards.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return c + cards.Card(52*(seat-1))
	}
	s := r.Seen(1)
	own, opp := &s.Boards[0], &s.Boards[1]
	if s.Seat != 1 || s.Found != r.found || s.Status != Playing || s.Blocked != [Seats]bool{} || own.StockKnown || opp.StockKnown {
		t.Fatalf("seen %+v", s)
	}
	if c := own.Board.Cols[0]; c.N != 2 || c.Down != 1 || c.Cards[0] != none || c.Cards[1] != card("9H", 1) {
		t.Fatalf("seat 1 c1 %+v", c)
	}
	if b := own.Board; b.NStock != 2 || b.Stock[0] != none || b.Stock[1] != none || b.NWaste != 1 || b.Waste[0] != card("8C", 1) {
		t.Fatalf("seat 1 talon %+v %+v", b.Stock[:2], b.Waste[:1])
	}
	if c := opp.Board.Cols[0]; c.Cards[0] != none || c.Cards[1] != none || c.Cards[2] != card("KS", 2) || opp.Board.Stock[0] != none {
		t.Fatalf("seat 2 %+v", c)
	}
	mustApply(t, r, 1, k.Simple(k.Draw))
	mustApply(t, r, 1, k.Simple(k.Draw))
	mustApply(t, r, 1, k.Simple(k.Recycle))
	s = r.Seen(2)
	own, opp = &s.Boards[1], &s.Boards[0]
	if !opp.StockKnown || opp.Board.NStock != 3 || !slices.Equal(opp.Board.Stock[:3], r.Board(1).Stock[:3]) || own.StockKnown || own.Board.Stock[0] != none {
		t.Fatalf("after seat 1 recycled: seat 1 stock %v known %v, seat 2 stock %v known %v",
			opp.Board.Stock[:3], opp.StockKnown, own.Board.Stock[:1], own.StockKnown)
	}
	if !strings.Contains(r.Diagram(), "\nrecycled: 1\n") {
		t.Fatalf("the diagram does not tell the recycle:\n%s", r.Diagram())
	}
	s1 := r.Seen(1)
	s1.Seat = 2
	if s1 != s {
		t.Fatal("the seats see different things")
	}
	if p := mustPosition(t, d1u, Options{}, r.Diagram()); p.Seen(2) != s {
		t.Fatal("the position read back from the diagram shows something else")
	}
}

// fairEvent is one step of a race that TestPropertyBotSeesOnlySeen records:
// an action of seat 1, or a question to seat 2's bot and its answer; shown
// is what the views showed just before.
type fairEvent struct {
	seat  int
	a     k.Action
	ok    bool
	shown shownState
}

// shownState is all that the race views show, as one comparable value: the
// View without its text and slices, worked out from the engine's state
// apart from Seen, so that the test does not take Seen's word for what is
// shown.
type shownState struct {
	found   k.Foundations
	up      [Seats][Columns][k.MaxColumnCards]cards.Card // face-up cards bottom first, cards.None after
	down    [Seats][Columns]uint8
	stock   [Seats]uint8
	waste   [Seats][k.MaxStock]cards.Card // bottom first, cards.None after
	blocked [Seats]bool
	turn    int
	status  Status
	result  Result
}

func shownOf(r *Race) shownState {
	v := shownState{found: r.found, turn: r.Turn(), status: r.status, result: r.result}
	for s := range r.boards {
		b := &r.boards[s]
		for i := range v.up[s] {
			col := &v.up[s][i]
			for j := range col {
				col[j] = cards.None
			}
			copy(col[:], b.Cols[i].Up())
			v.down[s][i] = b.Cols[i].Down
		}
		for j := range v.waste[s] {
			v.waste[s][j] = cards.None
		}
		copy(v.waste[s][:], b.Waste[:b.NWaste])
		v.stock[s] = b.NStock
		v.blocked[s] = r.status == Playing && r.Blocked(s+1)
	}
	return v
}

// randomDecks shuffles each seat's 52 cards with rng; mirrored, seat 2 gets
// seat 1's order.
func randomDecks(rng *rand.Rand, mirrored bool) (d [Seats][CardsPerSeat]cards.Card) {
	for s := range d {
		for i := range d[s] {
			d[s][i] = cards.Card(52*s + i)
		}
		rng.Shuffle(CardsPerSeat, func(i, j int) { d[s][i], d[s][j] = d[s][j], d[s][i] })
	}
	if mirrored {
		for i := range d[1] {
			d[1][i] = d[0][i] + 52
		}
	}
	return d
}

// markShown records every card the views show now: the face-up column
// cards, the wastes and the foundations.
func markShown(r *Race, shown *[2 * CardsPerSeat]bool) {
	for s := range r.boards {
		b := &r.boards[s]
		for i := range b.Cols[:b.NCols] {
			for _, c := range b.Cols[i].Up() {
				shown[c] = true
			}
		}
		for _, c := range b.Waste[:b.NWaste] {
			shown[c] = true
		}
	}
	for i := range r.found.Piles {
		for _, c := range r.found.Piles[i][:r.found.N[i]] {
			shown[c] = true
		}
	}
}

// checkMasked fails when a seat's Seen holds a card never shown.
func checkMasked(tb testing.TB, r *Race, s *Seen, ever *[2 * CardsPerSeat]bool) {
	tb.Helper()
	check := func(seat int, cs []cards.Card) {
		tb.Helper()
		for _, c := range cs {
			if c != cards.None && !ever[c] {
				tb.Fatalf("seat %d's Seen holds %s of seat %d, never shown\n%s", s.Seat, c, seat, r.Diagram())
			}
		}
	}
	for i := range s.Boards {
		b := &s.Boards[i].Board
		check(i+1, b.Stock[:])
		check(i+1, b.Waste[:])
		for c := range b.Cols {
			check(i+1, b.Cols[c].Cards[:])
		}
	}
}

// seatBot is a bot's choice for the seat of a Seen: Bot.Next, or a
// StrongBot's.
type seatBot func(s Seen) (k.Action, bool)

// playRecorded plays race r between two bots, in the manner of botGame, seat
// 2 played by bot2, and records every action of seat 1 and every question
// to seat 2's bot, and in ever every card seat 2 was ever shown. It checks
// that seat 2's Seen never holds a card it was not shown.
func playRecorded(tb testing.TB, r *Race, rng *rand.Rand, maxEvents int, bot2 seatBot) (events []fairEvent, ever [2 * CardsPerSeat]bool) {
	tb.Helper()
	var bot1 Bot
	markShown(r, &ever)
	for r.Status() == Playing && len(events) < maxEvents {
		first := 1 + rng.IntN(2)
		acted := false
		for _, seat := range [2]int{first, 3 - first} {
			e := fairEvent{seat: seat, shown: shownOf(r)}
			if seat == 1 {
				e.a, e.ok = bot1.Next(r.Seen(1))
			} else {
				s := r.Seen(2)
				checkMasked(tb, r, &s, &ever)
				e.a, e.ok = bot2(s)
			}
			if seat == 2 || e.ok {
				events = append(events, e)
			}
			if !e.ok {
				continue
			}
			if _, err := r.Apply(seat, e.a); err != nil {
				tb.Fatalf("bot seat %d %s refused: %v\n%s", seat, e.a, err, r.Diagram())
			}
			markShown(r, &ever)
			acted = true
			break
		}
		if !acted {
			break
		}
	}
	return events, ever
}

// hideOthers permutes, in each seat's deck, the cards never shown among
// their places, and reports whether anything moved.
func hideOthers(rng *rand.Rand, decks [Seats][CardsPerSeat]cards.Card, shown *[2 * CardsPerSeat]bool) ([Seats][CardsPerSeat]cards.Card, bool) {
	out := decks
	for s := range out {
		var places []int
		for p, c := range out[s] {
			if !shown[c] {
				places = append(places, p)
			}
		}
		rng.Shuffle(len(places), func(i, j int) {
			pi, pj := places[i], places[j]
			out[s][pi], out[s][pj] = out[s][pj], out[s][pi]
		})
	}
	return out, out != decks
}

// TestPropertyBotSeesOnlySeen: the bot decides only from what its seat has
// seen. Race A is played by bots, seat 2's every question recorded; race B
// has the same decks but for the cards seat 2 was never shown, which are
// shuffled among their places. Seat 1's actions are replayed in B and seat
// 2's bot plays B live: as long as seat 2 is shown the same in both races,
// its bot must answer the same. Where the views part (a blocked flag worked
// out from a hidden card, the race ending earlier or later) the pair stops
// there; most pairs whose hidden cards moved must run to the end. It plays
// DSOL_PROPERTY_RACES/8 pairs, at least 20.
func TestPropertyBotSeesOnlySeen(t *testing.T) {
	n := max(propertyRaces(t)/8, 20)
	compared := seesOnlySeen(t, n, 2026, func() seatBot {
		var b Bot
		return b.Next
	})
	if compared < 300 {
		t.Fatal("too few bot actions compared")
	}
}

// seesOnlySeen plays n pairs of races A and B (see
// TestPropertyBotSeesOnlySeen) with a fresh seat-2 bot of newBot for each
// race, and returns how many of the bot's actions it compared.
func seesOnlySeen(t *testing.T, n int, seed uint64, newBot func() seatBot) int {
	t.Helper()
	rng := rand.New(rand.NewPCG(17, seed))
	changed, whole, compared := 0, 0, 0
	for range n {
		code := cards.Code{Kind: cards.Race, Draw: 1 + 2*rng.IntN(2), Single: rng.IntN(3) == 0,
			Mirrored: rng.IntN(2) == 0, Deal: rng.Uint64N(cards.DealCount)}
		opts := Options{Turns: Turns(rng.IntN(2)), First: FirstRandom}
		opts.FirstSeat = opts.First.Seat(func() int { return rng.IntN(2) })
		decks := randomDecks(rng, code.Mirrored)
		a, err := deal(code, opts, decks)
		if err != nil {
			t.Fatal(err)
		}
		events, ever := playRecorded(t, a, rng, 20000, newBot())
		other, moved := hideOthers(rng, decks, &ever)
		b, err := deal(code, opts, other)
		if err != nil {
			t.Fatal(err)
		}
		if moved {
			changed++
		}
		bot := newBot()
		same := true
		for i, e := range events {
			if shownOf(b) != e.shown {
				same = false
				break
			}
			if e.seat == 1 {
				if _, err := b.Apply(1, e.a); err != nil {
					t.Fatalf("%s event %d: seat 1's %s refused in B though seat 2 saw the same: %v", code, i, e.a, err)
				}
				continue
			}
			got, ok := bot(b.Seen(2))
			if got != e.a || ok != e.ok {
				t.Fatalf("%s %v event %d: seat 2 was shown the same, but its bot chose %s (%v) in A and %s (%v) in B\nA:\n%s\nB:\n%s",
					code, opts.Turns, i, e.a, e.ok, got, ok, a.Diagram(), b.Diagram())
			}
			if !ok {
				continue
			}
			compared++
			if _, err := b.Apply(2, got); err != nil {
				t.Fatalf("%s event %d: the bot's %s refused in B: %v", code, i, got, err)
			}
		}
		if moved && same && shownOf(b) == shownOf(a) {
			whole++
		}
	}
	t.Logf("%d pairs of races, %d with hidden cards moved, of which %d shown the same to the end; %d bot actions compared", n, changed, whole, compared)
	if 2*changed <= n || 2*whole <= changed {
		t.Fatal("too few pairs tell anything")
	}
	return compared
}
