package visited

import "testing"

// TestSet: a key is new once per search, whatever the growth, and every
// key is new again after Reset.
func TestSet(t *testing.T) {
	var s Set
	s.Reset()
	const n = 1 << (minTableBits + 2) // grows twice
	for round := range 2 {
		for i := range uint64(n) {
			k := Key{i * 0x9e3779b97f4a7c15, i}
			if !s.Insert(k) {
				t.Fatalf("round %d: key %d not new", round, i)
			}
			if s.Insert(k) {
				t.Fatalf("round %d: key %d new twice", round, i)
			}
		}
		if s.Insert(Key{0, 1}) != true || s.Insert(Key{0, 1}) {
			t.Fatalf("round %d: a key sharing a half with another", round)
		}
		s.Reset()
	}
}
