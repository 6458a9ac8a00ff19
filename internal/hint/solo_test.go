package hint

import (
	"slices"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// TestEffectiveFirst: the action a winning line is taken to begin with
// passes over the foundation plays that the line takes back later (the
// tally solver puts a card up at once whenever it could come straight
// back, even when its line needs the card as a host), and a card that goes
// up and comes back to another column is a move between the columns.
func TestEffectiveFirst(t *testing.T) {
	nine := cards.New(0, cards.Spades, 9)
	b := k.Board{NCols: 9, DrawCount: 1, CanRecycle: true}
	b.Cols[0].Cards[0], b.Cols[0].Cards[1], b.Cols[0].N = cards.New(0, cards.Hearts, 10), nine, 2
	b.Cols[2].Cards[0], b.Cols[2].N = cards.New(0, cards.Diamonds, 10), 1
	b.Stock[0], b.NStock = cards.New(0, cards.Hearts, 1), 1
	var f k.Foundations
	for rank := 1; rank <= 8; rank++ {
		f.Piles[0][rank-1] = cards.New(0, cards.Spades, rank)
	}
	f.N[0] = 8
	up := k.NewMove(k.ColPile(0), k.Slot(0), 1)
	draw := k.Simple(k.Draw)
	for _, tc := range []struct {
		name   string
		line   []k.Action
		want   k.Action
		bounce []cards.Card
	}{
		{"up and back", []k.Action{up, k.NewMove(k.Slot(0), k.ColPile(0), 1), draw}, draw, []cards.Card{nine}},
		{"up for good", []k.Action{up, draw}, up, nil},
		{"by way of the foundation", []k.Action{up, k.NewMove(k.Slot(0), k.ColPile(2), 1), draw}, k.NewMove(k.ColPile(0), k.ColPile(2), 1), []cards.Card{nine}},
		{"a draw first", []k.Action{draw, up}, draw, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPosition(b.Seen(true), &f)
			got, bounce := p.effectiveFirst(&p.board, tc.line)
			if got != tc.want || !slices.Equal(bounce, tc.bounce) {
				t.Fatalf("effectiveFirst(%v) = %s, %v; want %s, %v", tc.line, got, bounce, tc.want, tc.bounce)
			}
		})
	}
}
