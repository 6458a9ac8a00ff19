package klondike

import (
	"testing"

	"dsol/internal/cards"
)

// TestPathReachesGoal follows the path of many race and solo deals after the
// immediately useful moves are taken away, and checks that it is legal, that
// it ends where a foundation play or a flip is available, and that found
// agrees with Blocked.
func TestPathReachesGoal(t *testing.T) {
	var buf []Step
	for deal := uint64(0); deal < 300; deal++ {
		var b Board
		var f Foundations
		deck := cards.RaceDecks(cards.Code{Kind: cards.Race, Deal: deal})[0]
		b.Deal(deck[:], 7, 1+2*int(deal%2), deal%3 != 0)
		path, found := Path(&b, &f, buf)
		buf = path
		if found == Blocked(&b, &f) {
			t.Fatalf("deal %d: Path found=%v but Blocked=%v", deal, found, Blocked(&b, &f))
		}
		if !found {
			continue
		}
		tb := Table{B: &b, F: &f}
		for i, st := range path {
			switch st.Type {
			case Draw:
				if b.NStock == 0 {
					t.Fatalf("deal %d step %d: draw on an empty stock", deal, i)
				}
				b.DrawCards()
			case Recycle:
				if b.NStock != 0 || !b.CanRecycle {
					t.Fatalf("deal %d step %d: recycle not allowed", deal, i)
				}
				b.RecycleWaste()
			default:
				if _, err := tb.CheckMove(st.From, st.To, int(st.Count)); err != nil {
					t.Fatalf("deal %d step %d: %v", deal, i, err)
				}
				tb.DoMove(st.From, st.To, int(st.Count))
			}
		}
		if !directGoal(&b, &f) {
			t.Fatalf("deal %d: the path of %d steps ends where nothing useful is available", deal, len(path))
		}
	}
}
