package race

import (
	"math/rand/v2"
	"strings"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// contested is a race in which seat 1 (to act first) can put up two
// cards at once: the 9D of its first column, the first foundation play of
// the plain bot's order, and the 5S of its waste, which seat 2 can put up
// too. Only one 5S goes on f1; the other waits for f2 to reach 4S, which
// needs seat 2's 3S, a card that is nowhere. Seat 1's 6S and 7S go up on
// either 5S, its 9D whenever it likes. Seat 1 is 3 cards behind (8 to
// 11): with its 5S up it wins 12 to 11; with seat 2's up it loses 11 to
// 12.
const contested = `
f1: AS1 2S2 3S1 4S2
f2: AS2 2S1
f3: AH1 2H1 3H1 4H1 5H1
f5: AD2 2D2 3D2 4D2 5D2 6D2 7D2 8D2
seat 1
c1: 9D
c2: 6S
c3: 7S
c4: KC
w: 5S
seat 2
c1: 5S
c2: KC
`

// finish plays r to its end, seat 1 first, each seat asking its player in
// turn (a player with nothing to do lets the other act), and returns the
// winner.
func finish(t *testing.T, r *Race, players [Seats]seatBot) int {
	t.Helper()
	seat, idle := 1, 0
	for r.Status() == Playing && idle < 4 {
		a, ok := players[seat-1](r.Seen(seat))
		if ok {
			mustApply(t, r, seat, a)
			idle = 0
		} else {
			idle++
		}
		seat = 3 - seat
	}
	if r.Status() != Over {
		t.Fatalf("the race did not end:\n%s", r.Diagram())
	}
	return r.Result().Winner
}

// TestStrongBotRacesForTheSlot: the plain bot's order (and the solo game's:
// every card of seat 1 goes up in any order) puts the 9D up first, and
// seat 2's 5S takes the slot seat 1's 5S needed; the strong bot sees the
// race and puts its 5S up first, and wins where the plain bot loses. With
// the opponent's 5S out of sight it keeps the plain bot's order: it is the
// opponent's board that makes the difference.
func TestStrongBotRacesForTheSlot(t *testing.T) {
	var plain Bot
	if a, _ := plain.Next(mustPosition(t, d1u, Options{}, contested).Seen(1)); a != k.NewMove(k.ColPile(0), k.AnyF, 1) {
		t.Fatalf("the plain bot plays %s first, want the 9D", a)
	}
	var strong StrongBot
	r := mustPosition(t, d1u, Options{}, contested)
	if a, ok := strong.Next(r.Seen(1), 1); !ok || a != move("w", "f1", 1) {
		t.Fatalf("the strong bot plays %s (%v), want the 5S to f1", a, ok)
	}
	// Without the opponent's 5S in sight nothing is contested: the 9D
	// first, in the plain bot's order, is as good as the 5S.
	alone := mustPosition(t, d1u, Options{}, strings.Replace(contested, "c1: 5S\n", "", 1))
	if a, ok := (&StrongBot{}).Next(alone.Seen(1), 1); !ok || a != move("c1", "f5", 1) {
		t.Fatalf("with no 5S of the opponent's in sight the strong bot plays %s (%v), want the 9D to f5", a, ok)
	}
	var other Bot
	for _, tc := range []struct {
		name   string
		seat1  seatBot
		winner int
	}{
		{"plain", func(s Seen) (k.Action, bool) { var b Bot; return b.Next(s) }, 2},
		{"strong", func(s Seen) (k.Action, bool) { return strong.Next(s, 1) }, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			strong = StrongBot{}
			r := mustPosition(t, d1u, Options{}, contested)
			if w := finish(t, r, [Seats]seatBot{tc.seat1, other.Next}); w != tc.winner {
				t.Fatalf("seat %d won, want seat %d\n%s", w, tc.winner, r.Diagram())
			}
		})
	}
}

// TestSamplerKeepsWhatIsSeen: every arrangement the strong bot plays out
// holds each card of both decks once, shows its seat exactly what the seat
// saw, and moves only unseen cards: races in play, either seat.
func TestSamplerKeepsWhatIsSeen(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 2026))
	deck := make([]cards.Card, 2*CardsPerSeat)
	for i := range deck {
		deck[i] = cards.Card(i)
	}
	moved := 0
	for i := range 24 {
		code := cards.Code{Kind: cards.Race, Draw: 1 + 2*(i%2), Single: i%3 == 0, Deal: rng.Uint64N(cards.DealCount)}
		r := mustRace(t, code.String(), Options{})
		botGame(t, r, rng, rng.IntN(150), nil)
		if r.Status() != Playing {
			continue
		}
		for seat := 1; seat <= Seats; seat++ {
			s := r.Seen(seat)
			sm := newSampler(&s)
			if !sm.ok {
				t.Fatalf("%s seat %d: no arrangement of a race in play", code, seat)
			}
			for j := range 4 {
				var a Race
				sm.deal(&a, cards.NewSplitMix64(uint64(j)), nil)
				if err := k.CheckState(deck, &a.found, &a.boards[0], &a.boards[1]); err != nil {
					t.Fatalf("%s seat %d: %v", code, seat, err)
				}
				for b := range Seats {
					if a.boards[b].Seen(s.Boards[b].StockKnown) != s.Boards[b] {
						t.Fatalf("%s seat %d: board %d of the arrangement shows other cards", code, seat, b+1)
					}
				}
				if a.found != r.found || a.counts != r.counts || a.Seen(seat).Boards != s.Boards {
					t.Fatalf("%s seat %d: the arrangement shows another race", code, seat)
				}
				if a.boards != r.boards {
					moved++
				}
			}
		}
	}
	if moved == 0 {
		t.Fatal("no arrangement moved a hidden card")
	}
}

// TestThinkOnceWhenNothingIsHidden: with every card of both seats seen,
// every arrangement is the race itself, so Think plays it out once.
func TestThinkOnceWhenNothingIsHidden(t *testing.T) {
	r := mustPosition(t, d1u, Options{}, contested)
	h := Think(r.Seen(1), 1, StrongOptions)
	if !h.OK || h.Action != move("w", "f1", 1) || h.Samples != 1 {
		t.Fatalf("Think: %+v, want the 5S to f1 from one arrangement", h)
	}
}
