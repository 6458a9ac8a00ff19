package klondike

import "testing"

// FuzzParsePile checks the wire pile names: ParsePile never panics, accepts
// only c1…c9, w, s, f and f1…f8, and an accepted name is the canonical
// String of its pile, which parses back to the same pile.
func FuzzParsePile(f *testing.F) {
	for _, s := range []string{"c1", "c9", "c0", "c10", "w", "s", "f", "f1", "f8", "f9", "f0", "C1", "W", "", "c", "x", "c\xff", "f1 ", " w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := ParsePile(s)
		if !ok {
			if p != NoPile {
				t.Fatalf("ParsePile(%q) = %d, false: want NoPile", s, p)
			}
			return
		}
		if !p.IsColumn() && p != Waste && p != Stock && !p.IsFoundation() {
			t.Fatalf("ParsePile(%q) = %d: not a pile", s, p)
		}
		if p.String() != s {
			t.Fatalf("ParsePile(%q) = %d, which prints as %q", s, p, p.String())
		}
		again, ok := ParsePile(p.String())
		if !ok || again != p {
			t.Fatalf("round trip of %q: %d, %v", s, again, ok)
		}
	})
}
