package race

import (
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
