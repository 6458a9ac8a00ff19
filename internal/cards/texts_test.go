package cards

import "testing"

// TestTextsOf: piles from one array are never nil and cannot overwrite each
// other by appending.
func TestTextsOf(t *testing.T) {
	for _, n := range []int{0, 2} {
		tx := NewTexts(n)
		empty := tx.Of(nil)
		a := tx.Of([]Card{New(0, Spades, 1), New(0, Hearts, 13)})
		b := tx.Of([]Card{New(1, Clubs, 10)})
		if empty == nil || len(empty) != 0 || len(a) != 2 || a[0] != "AS" || a[1] != "KH" || b[0] != "TC" {
			t.Fatalf("n=%d: %q %q %q", n, empty, a, b)
		}
		_ = append(a, "XX")
		if b[0] != "TC" {
			t.Fatalf("n=%d: appending to one pile changed the next: %q", n, b)
		}
	}
}
