package race

import "testing"

// FuzzParseOptions checks the text forms of the race settings that come
// from requests: ParseTurns, ParseFirst and ParseSpeed never panic, accept
// only their words (the empty string is the default), and an accepted word
// prints as a word that parses back to the same value.
func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{"", "simultaneous", "alternating", "random", "creator", "opponent",
		"slow", "normal", "fast", "strong", "Strong", "Alternating", "FAST", " slow", "creator\x00", "\xff", "simultaneous "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, ok := ParseTurns(s); ok {
			if s != "" && v.String() != s {
				t.Fatalf("ParseTurns(%q) = %v, which prints as %q", s, v, v.String())
			}
			if again, ok := ParseTurns(v.String()); !ok || again != v {
				t.Fatalf("ParseTurns round trip of %q: %v, %v", s, again, ok)
			}
		} else if v != Simultaneous {
			t.Fatalf("ParseTurns(%q) refused with %v", s, v)
		}
		if v, ok := ParseFirst(s); ok {
			if s != "" && v.String() != s {
				t.Fatalf("ParseFirst(%q) = %v, which prints as %q", s, v, v.String())
			}
			if again, ok := ParseFirst(v.String()); !ok || again != v {
				t.Fatalf("ParseFirst round trip of %q: %v, %v", s, again, ok)
			}
		} else if v != FirstRandom {
			t.Fatalf("ParseFirst(%q) refused with %v", s, v)
		}
		if v, ok := ParseSpeed(s); ok {
			if s != "" && v.String() != s {
				t.Fatalf("ParseSpeed(%q) = %v, which prints as %q", s, v, v.String())
			}
			if again, ok := ParseSpeed(v.String()); !ok || again != v {
				t.Fatalf("ParseSpeed round trip of %q: %v, %v", s, again, ok)
			}
			if d := v.Delay(); d <= 0 {
				t.Fatalf("ParseSpeed(%q) = %v with delay %v", s, v, d)
			}
		} else if v != Normal {
			t.Fatalf("ParseSpeed(%q) refused with %v", s, v)
		}
	})
}
