package race

import (
	"encoding/json"
	"strings"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// Positions below use the notation of ParsePosition. The deal number of the
// code does not matter for a hand-written position; draw and redeal do.
const (
	d1u = "DR1-D1UI-AAAAAAA"
	d3u = "DR1-D3UI-AAAAAAA"
	d1s = "DR1-D1SI-AAAAAAA"
)

var alt1 = Options{Turns: Alternating, First: FirstCreator}

// Rule: exactly two seats, each with its own 52-card deck; every card
// belongs to a seat.
func TestRuleTwoSeatsOwnDecks(t *testing.T) {
	r := mustRace(t, "DR1-D1UI-AAAAAAB", Options{})
	for seat := 1; seat <= 2; seat++ {
		b := r.Board(seat)
		var seen [52]bool
		each := func(c cards.Card) {
			if c.Deck() != seat-1 {
				t.Fatalf("seat %d holds %s of deck %d", seat, c, c.Deck())
			}
			if seen[c.Face()] {
				t.Fatalf("seat %d holds %s twice", seat, c)
			}
			seen[c.Face()] = true
		}
		for i := 0; i < int(b.NCols); i++ {
			for _, c := range b.Cols[i].Cards[:b.Cols[i].N] {
				each(c)
			}
		}
		for _, c := range b.Stock[:b.NStock] {
			each(c)
		}
		if b.CardsLeft() != CardsPerSeat {
			t.Fatalf("seat %d has %d cards", seat, b.CardsLeft())
		}
	}
	for _, seat := range []int{0, 3, -1} {
		mustRefuse(t, r, seat, k.Simple(k.Draw), k.BadRequest)
	}
}

// Rule: each seat deals a Klondike of 7 columns of 1..7 cards, only the last
// face up, and 24 cards of stock.
func TestRuleKlondikeDeal(t *testing.T) {
	r := mustRace(t, "DR1-D3SM-BCDEFGH", Options{})
	for seat := 1; seat <= 2; seat++ {
		b := r.Board(seat)
		if b.NCols != Columns || b.NStock != 24 || b.NWaste != 0 {
			t.Fatalf("seat %d: %d columns, stock %d, waste %d", seat, b.NCols, b.NStock, b.NWaste)
		}
		for i := 0; i < Columns; i++ {
			if c := b.Cols[i]; int(c.N) != i+1 || int(c.Down) != i {
				t.Fatalf("seat %d c%d: %d cards, %d down", seat, i+1, c.N, c.Down)
			}
		}
	}
}

// Rule: shared foundations; either seat plays its own card onto any slot of
// the suit whose top is one rank lower; an ace starts an empty slot of its row.
func TestRuleSharedFoundations(t *testing.T) {
	r := mustPosition(t, d1u, Options{}, `
f3: AH1
seat 1
c1: AC
c2: 3H
seat 2
c1: 2H
c2: AS
c3: AH
c4: 9C
`)
	mustApply(t, r, 2, move("c1", "f3", 1))                 // seat 2's 2H on seat 1's AH
	mustApply(t, r, 1, move("c2", "f", 1))                  // seat 1's 3H on seat 2's 2H
	mustRefuse(t, r, 2, move("c2", "f3", 1), k.IllegalMove) // an ace only starts an empty slot
	mustRefuse(t, r, 2, move("c2", "f7", 1), k.IllegalMove) // never another row
	mustApply(t, r, 2, move("c2", "f2", 1))
	mustApply(t, r, 2, k.FromPile(k.Tap, pile("c3"), 1)) // f4, the free slot of hearts
	mustApply(t, r, 1, move("c1", "f8", 1))
	want := "f2: AS2\nf3: AH1 2H2 3H1\nf4: AH2\nf8: AC1\n"
	if got := r.Diagram(); !strings.HasPrefix(got, want) {
		t.Fatalf("foundations:\n%s\nwant\n%s", got, want)
	}
	if r.Count(1) != 3 || r.Count(2) != 3 {
		t.Fatalf("counts %d %d", r.Count(1), r.Count(2))
	}
}

// Rule: foundation cards never come back (no recovery in a race).
func TestRuleNoRecovery(t *testing.T) {
	r := mustPosition(t, d1u, Options{}, `
f5: AD1 2D1
seat 1
c1: 4S
c2: AC
seat 2
c1: AH
`)
	mustRefuse(t, r, 1, move("f5", "c1", 1), k.IllegalMove)
	mustRefuse(t, r, 2, move("f5", "c1", 1), k.IllegalMove)
	mustRefuse(t, r, 1, move("f5", "f6", 1), k.IllegalMove)
}

// Rule: the own board follows all solo tableau rules: alternating colours,
// runs, kings only to empty columns, auto-flip; draw 1 or 3 to the own waste.
func TestRuleOwnBoardTableau(t *testing.T) {
	r := mustPosition(t, d3u, Options{}, `
seat 1
c1: AS
seat 2
c1: 4S | 8H
c2: 9C
c3: 5D | KD
c5: 7S 6H
c6: 8S
s: 2C 3C 4C 5S
`)
	if out := mustApply(t, r, 2, move("c1", "c2", 1)); !out.Flipped {
		t.Fatal("moving 8H off 4S did not turn 4S over")
	}
	mustRefuse(t, r, 2, move("c5", "c6", 2), k.IllegalMove) // 7S on 8S: same colour
	mustApply(t, r, 2, move("c5", "c2", 2))                 // the run 7S 6H on 8H: 9C 8H 7S 6H
	mustRefuse(t, r, 2, move("c6", "c4", 1), k.IllegalMove) // only a king goes to an empty column
	mustRefuse(t, r, 2, move("c6", "c3", 1), k.IllegalMove) // 8S on KD
	mustRefuse(t, r, 2, move("c6", "c2", 1), k.IllegalMove) // 8S on 6H
	mustApply(t, r, 2, move("c3", "c4", 1))
	mustApply(t, r, 2, k.Simple(k.Draw)) // draw 3: 2C 3C 4C, 4C plays
	b := r.Board(2)
	if b.NWaste != 3 || b.WasteTop().String() != "4C" || b.NStock != 1 {
		t.Fatalf("after draw 3: waste %d top %s stock %d", b.NWaste, b.WasteTop(), b.NStock)
	}
	mustApply(t, r, 2, k.Simple(k.Draw)) // fewer than three left: 5S
	if b.NWaste != 4 || b.NStock != 0 {
		t.Fatalf("after the last draw: waste %d stock %d", b.NWaste, b.NStock)
	}
	mustRefuse(t, r, 2, move("w", "c1", 2), k.IllegalMove) // one waste card at a time
	if got := r.Board(1).Cols[0].Top().String(); got != "AS" || r.Board(1).NStock != 0 {
		t.Fatal("seat 2's actions touched seat 1's board")
	}
}

// Rule: redeal is unlimited (a recycle turns the waste back into the stock)
// or a single pass (no recycle), agreed at creation.
func TestRuleRedeal(t *testing.T) {
	pos := `
seat 1
c1: AS
seat 2
c1: AH
w: 9C 8D
`
	r := mustPosition(t, d1u, Options{}, pos)
	mustRefuse(t, r, 2, k.Simple(k.Draw), k.IllegalMove)
	mustApply(t, r, 2, k.Simple(k.Recycle))
	mustRefuse(t, r, 2, k.Simple(k.Recycle), k.IllegalMove) // the stock has cards now
	mustApply(t, r, 2, k.Simple(k.Draw))
	if got := r.Board(2).WasteTop().String(); got != "9C" {
		t.Fatalf("first card of the new pass is %s, want 9C", got)
	}
	r = mustPosition(t, d1s, Options{}, pos)
	mustRefuse(t, r, 2, k.Simple(k.Recycle), k.IllegalMove)
	mustRefuse(t, r, 2, k.Simple(k.Draw), k.IllegalMove)
}

// Rule: a player touches only their own cards; pile names are the acting
// seat's own piles. No undo and no finish in a race.
func TestRuleOwnCardsOnly(t *testing.T) {
	r := mustPosition(t, d1u, Options{}, `
seat 1
c1: AS
c2: 9H
seat 2
c1: 8S
c2: AD
`)
	// Seat 1 cannot reach seat 2's 8S: its own c1 is the AS, which does
	// not build on 9H.
	mustRefuse(t, r, 1, move("c1", "c2", 1), k.IllegalMove)
	// Seat 2 cannot put its 8S on seat 1's 9H: its own c2 is the AD.
	mustRefuse(t, r, 2, move("c1", "c2", 1), k.IllegalMove)
	mustRefuse(t, r, 1, k.Simple(k.Undo), k.BadRequest)
	mustRefuse(t, r, 1, k.Simple(k.Finish), k.BadRequest) // solo only, even with nothing hidden
	mustRefuse(t, r, 1, move("c8", "f", 1), k.BadRequest) // a race has 7 columns
	out := mustApply(t, r, 2, move("c2", "f", 1))
	if out.Action.To != pile("f5") || r.Foundations().Top(4).Deck() != 1 {
		t.Fatalf("seat 2's ace went to %s as deck %d", out.Action.To, r.Foundations().Top(4).Deck())
	}
}

// Rule: simultaneous races order actions as they arrive; the second 2D for
// the same spot is too_late and stays where it was; a play to f takes any
// slot of the row that still accepts the card.
func TestRuleSimultaneousTooLate(t *testing.T) {
	pos := `
f5: AD1
seat 1
c1: 2D
c2: AS
seat 2
c1: 2D
c2: AC
w: 5D
`
	for _, tc := range []struct {
		name string
		a    k.Action
	}{
		{"slot", move("c1", "f5", 1)},
		{"area", move("c1", "f", 1)},
		{"tap", k.FromPile(k.Tap, pile("c1"), 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustPosition(t, d1u, Options{}, pos)
			mustApply(t, r, 1, move("c1", "f5", 1))
			mustRefuse(t, r, 2, tc.a, k.TooLate)
			mustRefuse(t, r, 2, move("w", "f5", 1), k.IllegalMove)  // 5D: simply out of sequence
			mustRefuse(t, r, 2, move("c2", "f5", 1), k.IllegalMove) // wrong suit
			// The same play in an alternating race is just illegal.
			r = mustPosition(t, d1u, alt1, pos)
			mustApply(t, r, 1, move("c1", "f5", 1))
			mustApply(t, r, 1, k.Simple(k.Pass))
			mustRefuse(t, r, 2, tc.a, k.IllegalMove)
		})
	}
	t.Run("two aces", func(t *testing.T) {
		r := mustPosition(t, d1u, Options{}, "f5: AD1\nf6: AD2\n"+pos[strings.Index(pos, "seat 1"):])
		for seat := 1; seat <= 2; seat++ {
			if out := mustApply(t, r, seat, move("c1", "f", 1)); out.Action.To != pile("f"+string(rune('4'+seat))) {
				t.Fatalf("seat %d's 2D went to %s", seat, out.Action.To)
			}
		}
	})
}

// Rule: alternating turns: the agreed first player starts; as many moves as
// wanted, foundation plays included; a draw ends the turn after it happens;
// a pass ends it; a recycle does not; off-turn actions are not_your_turn.
func TestRuleAlternatingTurns(t *testing.T) {
	pos := `
seat 1
c1: AS
c2: 2S
s: 9H
seat 2
c1: AD
w: 9C
`
	r := mustPosition(t, d1u, Options{Turns: Alternating, First: FirstOpponent}, pos)
	if r.Turn() != 2 {
		t.Fatalf("turn %d, want the opponent (2)", r.Turn())
	}
	mustRefuse(t, r, 1, move("c1", "f", 1), k.NotYourTurn)
	mustRefuse(t, r, 1, k.Simple(k.Pass), k.NotYourTurn)
	mustApply(t, r, 2, k.Simple(k.Recycle)) // does not end the turn
	if out := mustApply(t, r, 2, k.Simple(k.Draw)); !out.TurnEnded || r.Turn() != 1 {
		t.Fatalf("draw: turn ended %v, turn %d", out.TurnEnded, r.Turn())
	}
	if r.Board(2).WasteTop().String() != "9C" {
		t.Fatal("the draw that ended the turn did not happen")
	}
	mustRefuse(t, r, 2, move("c1", "f", 1), k.NotYourTurn)
	mustApply(t, r, 1, move("c1", "f", 1))
	mustApply(t, r, 1, move("c2", "f", 1))
	if out := mustApply(t, r, 1, k.Simple(k.Pass)); !out.TurnEnded || r.Turn() != 2 {
		t.Fatalf("pass: turn ended %v, turn %d", out.TurnEnded, r.Turn())
	}
	// Resigning needs no turn.
	if out := mustApply(t, r, 1, k.Simple(k.Resign)); !out.Over || r.Result().Winner != 2 {
		t.Fatalf("resign off turn: %+v %+v", out, r.Result())
	}
	if r.Turn() != 0 {
		t.Fatal("a finished race has no turn")
	}
	// Simultaneous races have no turns to pass.
	r = mustPosition(t, d1u, Options{}, pos)
	mustRefuse(t, r, 1, k.Simple(k.Pass), k.IllegalMove)
	if r.Turn() != 0 {
		t.Fatal("a simultaneous race has no turn")
	}
}

// Rule: the first player of an alternating race is the creator, the opponent
// or random; random is decided by the caller's random source.
func TestRuleFirstPlayer(t *testing.T) {
	code := mustCode(t, "DR1-D1UI-AAAAAAC")
	for _, tc := range []struct {
		opts Options
		want int // 0: refused
	}{
		{Options{Turns: Alternating, First: FirstCreator}, 1},
		{Options{Turns: Alternating, First: FirstOpponent}, 2},
		{Options{Turns: Alternating, First: FirstRandom}, 0},
		{Options{Turns: Alternating, First: FirstRandom, FirstSeat: FirstRandom.Seat(func() int { return 1 })}, 2},
		{Options{Turns: Alternating, First: FirstRandom, FirstSeat: FirstRandom.Seat(func() int { return 0 })}, 1},
		{Options{Turns: Alternating, First: FirstCreator, FirstSeat: 2}, 0},
		{Options{Turns: Alternating, First: FirstRandom, FirstSeat: 3}, 0},
		{Options{Turns: Simultaneous}, 0 - 1},
	} {
		r, err := New(code, tc.opts)
		switch {
		case tc.want == 0:
			if e, ok := err.(*k.Error); !ok || e.Code != k.BadRequest {
				t.Errorf("%+v: error %v, want bad_request", tc.opts, err)
			}
		case err != nil:
			t.Errorf("%+v: %v", tc.opts, err)
		case tc.want > 0 && r.Turn() != tc.want:
			t.Errorf("%+v: first seat %d, want %d", tc.opts, r.Turn(), tc.want)
		case tc.want < 0 && r.Turn() != 0:
			t.Errorf("%+v: turn %d in a simultaneous race", tc.opts, r.Turn())
		}
	}
	if _, err := New(mustCode(t, "DS1-D1N-AAAAAAB"), Options{}); err == nil {
		t.Error("a solo code made a race")
	}
}

// Rule: a seat is blocked when no sequence of its own moves, draws and
// recycles reaches a foundation play or a flip; the opponent's foundation
// plays can unblock it.
func TestRuleBlocked(t *testing.T) {
	r := mustPosition(t, d1u, Options{}, `
f1: AS1
seat 1
c1: 3S
s: KH
seat 2
c1: 2S
c2: AH
`)
	if !r.Blocked(1) || r.Blocked(2) {
		t.Fatalf("blocked %v %v, want seat 1 only", r.Blocked(1), r.Blocked(2))
	}
	if v := r.View(0); !v.Seats[0].Blocked || v.Seats[1].Blocked {
		t.Fatal("the view does not show seat 1 blocked")
	}
	mustApply(t, r, 2, move("c1", "f", 1))
	if r.Blocked(1) {
		t.Fatal("seat 2's 2S did not unblock seat 1's 3S")
	}
	// Drawing 8S and putting it on 9H turns nothing over: blocked.
	r = mustPosition(t, d1u, Options{}, `
seat 1
c1: 5C | 9H
s: 2D 8S
seat 2
c1: AH
`)
	if !r.Blocked(1) {
		t.Fatal("seat 1 should be blocked")
	}
	// A flip reachable through the stock (TS on JD, then 9H on TS) is not.
	r = mustPosition(t, d1u, Options{}, `
seat 1
c1: 5C | 9H
c2: JD
s: 2D TS
seat 2
c1: AH
`)
	if r.Blocked(1) {
		t.Fatal("seat 1 can draw TS, put it on JD and free 5C")
	}
}

// Rule: the race ends when a seat goes out.
func TestRuleEndOut(t *testing.T) {
	r := mustPosition(t, d1u, Options{}, `
f1: AS2
seat 1
c1: 2S
seat 2
c1: 9H
s: AD
`)
	out := mustApply(t, r, 1, move("c1", "f", 1))
	res := r.Result()
	if !out.Over || r.Status() != Over || res.Reason != Out || res.Winner != 1 || res.Counts != [2]int{1, 1} || res.LastPlay != 1 {
		t.Fatalf("out: %+v %+v", out, res)
	}
	mustRefuse(t, r, 2, k.Simple(k.Draw), k.GameOver)
	mustRefuse(t, r, 2, k.Simple(k.Resign), k.GameOver)
}

// Rule: the race ends when both seats are blocked at the same time (checked
// after every action).
func TestRuleEndBothBlocked(t *testing.T) {
	r := mustPosition(t, d1u, Options{}, `
f1: AS1 2S2
seat 1
c1: 3S
c2: 5H
seat 2
c1: 5D
s: 9C
`)
	if !r.Blocked(2) || r.Status() != Playing {
		t.Fatal("seat 2 should be blocked alone")
	}
	mustApply(t, r, 1, move("c1", "f", 1))
	res := r.Result()
	if r.Status() != Over || res.Reason != BothBlocked || res.Winner != 1 || res.Counts != [2]int{2, 1} {
		t.Fatalf("%+v", res)
	}
}

// Rule: the race ends when a seat resigns or forfeits; a claim by the
// present seat is the absent seat's forfeit.
func TestRuleEndResignForfeitClaim(t *testing.T) {
	pos := `
f1: AS1 2S1
seat 1
c1: 9H
s: 3D
seat 2
c1: AH
`
	for _, tc := range []struct {
		name   string
		seat   int
		a      k.Type
		winner int
		reason Reason
	}{
		{"resign", 1, k.Resign, 2, Resigned},
		{"forfeit", 1, k.Forfeit, 2, Forfeited},
		{"claim", 2, k.Claim, 2, Forfeited},
		{"claim by seat 1", 1, k.Claim, 1, Forfeited},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, opts := range []Options{{}, {Turns: Alternating, First: FirstCreator}} {
				r := mustPosition(t, d1u, opts, pos)
				out := mustApply(t, r, tc.seat, k.Simple(tc.a))
				res := r.Result()
				if !out.Over || res.Winner != tc.winner || res.Reason != tc.reason || res.Loser != 3-tc.winner || res.Counts != [2]int{2, 0} {
					t.Fatalf("%v: %+v", opts.Turns, res)
				}
			}
		})
	}
}

// Rule: more cards wins; a tie goes to the last foundation play; no
// foundation play at all is a draw.
func TestRuleResultTies(t *testing.T) {
	t.Run("tie, last play seat 1", func(t *testing.T) {
		r := mustPosition(t, d1u, Options{}, `
f1: AS1 2S2
f3: AH2
last: 2
seat 1
c1: 3S
c2: 9H
seat 2
c1: 9D
`)
		mustApply(t, r, 1, move("c1", "f", 1))
		if res := r.Result(); res.Reason != BothBlocked || res.Counts != [2]int{2, 2} || res.Winner != 1 {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("tie, last play seat 2", func(t *testing.T) {
		r := mustPosition(t, d1u, Options{}, `
f1: AS1
f3: AH1 2H2
seat 1
c1: 9H
seat 2
c1: 2S
c2: 9D
`)
		mustApply(t, r, 2, move("c1", "f", 1))
		if res := r.Result(); res.Counts != [2]int{2, 2} || res.Winner != 2 || res.LastPlay != 2 {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("no foundation play: a draw", func(t *testing.T) {
		r := mustPosition(t, d1u, Options{}, `
seat 1
c1: 5H
c2: 9C
seat 2
c1: 5D
`)
		res := r.Result()
		if r.Status() != Over || res.Reason != BothBlocked || res.Winner != 0 {
			t.Fatalf("%+v", res)
		}
		data, err := json.Marshal(r.View(0).Result)
		if err != nil || string(data) != `{"winner":null,"reason":"blocked","counts":[0,0]}` {
			t.Fatalf("%s %v", data, err)
		}
	})
}

// Rule (optional): with the solo-out bonus the seat that goes out wins
// whatever the counts.
func TestRuleSoloOutBonus(t *testing.T) {
	pos := `
f1: AS2
f3: AH2 2H2
seat 1
c1: 2S
seat 2
c1: 9H
`
	for _, tc := range []struct {
		bonus  bool
		winner int
	}{{false, 2}, {true, 1}} {
		r := mustPosition(t, d1u, Options{SoloOutBonus: tc.bonus}, pos)
		mustApply(t, r, 1, move("c1", "f", 1))
		if res := r.Result(); res.Reason != Out || res.Counts != [2]int{1, 3} || res.Winner != tc.winner {
			t.Fatalf("bonus %v: %+v", tc.bonus, res)
		}
	}
}

// Rule (optional) — a series adds the counts of its games, the higher total
// wins: the tables keep series, so its test is internal/httpapi's
// TestRuleSeries.

// Rule: illegal actions are refused with a reason and nothing moves.
func TestRuleIllegalActionsChangeNothing(t *testing.T) {
	r := mustPosition(t, d1u, alt1, `
f1: AS1
seat 1
c1: 3S
c2: 8H
c3: 7H
c4: 2H
seat 2
c1: 2S
c2: AC
`)
	for _, tc := range []struct {
		name string
		seat int
		a    k.Action
		code k.ErrCode
	}{
		{"wrong suit", 1, move("c4", "f1", 1), k.IllegalMove},
		{"out of sequence", 1, move("c1", "f1", 1), k.IllegalMove},
		{"wrong colour", 1, move("c3", "c2", 1), k.IllegalMove},
		{"wrong turn", 2, move("c1", "f1", 1), k.NotYourTurn},
		{"empty source", 1, move("c5", "f", 1), k.IllegalMove},
		{"to the stock", 1, move("c1", "s", 1), k.IllegalMove},
		{"unknown type", 1, k.Action{Type: 99}, k.BadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) { mustRefuse(t, r, tc.seat, tc.a, tc.code) })
	}
}

// The race view shows both seats' face-up cards and counts, foundation cards
// with their seats, and never a face-down or stock card.
func TestView(t *testing.T) {
	r := mustRace(t, "DR1-D3SM-AAAAAAC", Options{Turns: Alternating, First: FirstCreator})
	v := r.View(2)
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"kind", "draw", "redeal", "decks", "turns", "status", "turn", "foundations", "seats", "result"} {
		if _, ok := m[key]; !ok {
			t.Errorf("view has no %q: %s", key, data)
		}
	}
	if _, ok := m["code"]; ok {
		t.Errorf("the engine's view names the code, which tells the deal: %s", data)
	}
	if v.Kind != "race" || v.Draw != 3 || v.Redeal != "single" || v.Decks != "mirrored" ||
		v.Turns != "alternating" || v.Status != "playing" || *v.Turn != 1 || len(v.Foundations) != 8 || v.Result != nil {
		t.Fatalf("%s", data)
	}
	for s, sv := range v.Seats {
		if sv.Stock != 24 || len(sv.Waste) != 0 || len(sv.Columns) != Columns || sv.Count != 0 {
			t.Fatalf("seat %d: %+v", s+1, sv)
		}
		for i, c := range sv.Columns {
			if c.Down != i || len(c.Up) != 1 || c.Up[0] != r.Board(s + 1).Cols[i].Top().String() {
				t.Fatalf("seat %d c%d: %+v", s+1, i+1, c)
			}
		}
	}
	seat := v.Seats[0]
	keys, _ := json.Marshal(seat)
	if string(keys[:12]) != `{"columns":[` || !strings.Contains(string(keys), `"stock":24,"waste":[],"count":0,"blocked":false}`) {
		t.Fatalf("seat keys: %s", keys)
	}
	for viewer := 0; viewer <= 2; viewer++ {
		other, _ := json.Marshal(r.View(viewer))
		if string(other) != string(data) {
			t.Fatalf("viewer %d sees something else", viewer)
		}
	}
	p := mustPosition(t, d1u, Options{}, "f5: AD2 2D1\nseat 1\nc1: AS\nseat 2\nc1: AC\n")
	f, _ := json.Marshal(p.View(0).Foundations[4])
	if string(f) != `[{"card":"AD","seat":2},{"card":"2D","seat":1}]` {
		t.Fatalf("foundation: %s", f)
	}
}

// The position notation reads back what Diagram writes.
func TestPositionRoundTrip(t *testing.T) {
	r := mustRace(t, "DR1-D1UI-QWERTYU", alt1)
	var bot Bot
	for i := 0; i < 40; i++ {
		a, ok := bot.Next(r.Seen(r.Turn()))
		if !ok {
			break
		}
		mustApply(t, r, r.Turn(), a)
	}
	p := mustPosition(t, "DR1-D1UI-QWERTYU", alt1, r.Diagram())
	if p.Diagram() != r.Diagram() || p.counts != r.counts || p.last != r.last || p.turn != r.turn || p.recycled != r.recycled {
		t.Fatalf("round trip:\n%s\nvs\n%s", p.Diagram(), r.Diagram())
	}
	for _, bad := range []string{"c1: AS", "seat 3", "f1: AS", "f1: 2S1", "seat 1\nc1: AS\nc2: AS", "seat 1\nc8: AS", "seat 1\nc1: AS |", "f1: AS1\nseat 1\nc1: AS", "recycled: 3"} {
		if _, err := ParsePosition(mustCode(t, d1u), Options{}, bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestLengthLimit: a race that reaches klondike.MaxActions ends there,
// decided by count (reason "limit"), and refuses the next action.
func TestLengthLimit(t *testing.T) {
	r := mustRace(t, "DR1-D1UI-QWERTYU", Options{})
	// Seat 1 plays its first foundation card it can, then both seats only
	// draw and recycle: seat 1 leads by count.
	played := false
	for n := 0; r.Status() == Playing; n++ {
		seat := 1 + n%2
		if !played && seat == 1 {
			if _, err := r.Apply(1, k.FromPile(k.DTap, k.Waste, 1)); err == nil {
				played = true
				continue
			}
		}
		if _, err := r.Apply(seat, k.Simple(k.Draw)); err != nil {
			mustApply(t, r, seat, k.Simple(k.Recycle))
		}
		if r.Actions() > k.MaxActions {
			t.Fatalf("still playing after %d actions", r.Actions())
		}
	}
	res := r.Result()
	if r.Actions() != k.MaxActions || res.Reason != Limit || res.Reason.String() != "limit" {
		t.Fatalf("over after %d actions: %+v", r.Actions(), res)
	}
	want := 0
	switch c := res.Counts; {
	case c[0] > c[1]:
		want = 1
	case c[1] > c[0]:
		want = 2
	}
	if want != 0 && res.Winner != want {
		t.Fatalf("counts %v, winner %d", res.Counts, res.Winner)
	}
	mustRefuse(t, r, 1, k.Simple(k.Draw), k.GameOver)
}

// TestTimeUp: the server's end of an arena's race that outlived its arena
// ends it by count, for whichever seat it is applied, and nothing is
// applied after it.
func TestTimeUp(t *testing.T) {
	for _, seat := range []int{1, 2} {
		r := mustRace(t, "DR1-D1UI-QWERTYU", Options{})
		// Seat 1 draws until a card of its waste goes up: one card up.
		for {
			mustApply(t, r, 1, k.Simple(k.Draw))
			if _, err := r.Apply(1, k.FromPile(k.Tap, k.Waste, 1)); err == nil {
				break
			}
		}
		out := mustApply(t, r, seat, k.Simple(k.TimeUp))
		res := r.Result()
		if !out.Over || r.Status() != Over || res.Reason != TimeUp || res.Reason.String() != "time" {
			t.Fatalf("seat %d: over %v, status %v, result %+v", seat, out.Over, r.Status(), res)
		}
		if res.Counts != [2]int{1, 0} || res.Winner != 1 || res.Loser != 0 {
			t.Fatalf("seat %d: the count decides: %+v", seat, res)
		}
		mustRefuse(t, r, 2, k.Simple(k.Draw), k.GameOver)
		mustRefuse(t, r, 1, k.Simple(k.TimeUp), k.GameOver)
	}
}
