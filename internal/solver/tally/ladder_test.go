package tally

import (
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// TestLadderFits: the beams of growing width stop before a beam that would
// not fit in their share of the budget, so none is cut short (a cut beam
// wins nothing), and they use some of the share and never more.
func TestLadderFits(t *testing.T) {
	code, _ := cards.ParseCode("DS1-D1V-JHQHCPK") // no beam of 50,000 wins it
	var b k.Board
	deck := cards.SoloDeck(code)
	b.Deal(deck[:], k.MaxColumns, code.Draw, !code.Vegas)
	s := New()
	for _, total := range []int64{300000, 1000000, 3000000} {
		share := total * 9 / 10
		res := s.ladder(&b, &k.Foundations{}, Options{MaxPositions: share, end: 0.9}, total, 0)
		if res.Verdict != Unknown || res.Positions <= 0 || res.Positions > share {
			t.Fatalf("budget %d: %s after %d positions of a share of %d", total, res.Verdict, res.Positions, share)
		}
		if s.stopped {
			t.Fatalf("budget %d: the last beam was cut short by the budget after %d positions of %d", total, res.Positions, share)
		}
	}
}
