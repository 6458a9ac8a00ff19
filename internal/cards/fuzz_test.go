package cards

import (
	"strings"
	"testing"
)

// FuzzParseCard checks the text form of a card: Parse never panics, accepts
// exactly a rank and a suit letter (either case), and what it accepts prints
// as the upper-case text and parses back to the same card.
func FuzzParseCard(f *testing.F) {
	for _, s := range []string{"7H", "ts", "AS", "KC", "qd", "10H", "1S", "7", "", "--", "7h ", "7X", "ZH", "\xff\xfe", "ſS", "aS"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			if c != None || err.Error() == "" {
				t.Fatalf("Parse(%q) = %v, %v: an error must come with None", s, c, err)
			}
			return
		}
		if c == None || c.Deck() != 0 || c.Rank() < 1 || c.Rank() > 13 {
			t.Fatalf("Parse(%q) = %d: not a card of deck 0", s, c)
		}
		text := c.String()
		if text != strings.ToUpper(s) || len(text) != 2 {
			t.Fatalf("Parse(%q) prints as %q: not the input up to case", s, text)
		}
		again, err := Parse(text)
		if err != nil || again != c {
			t.Fatalf("round trip of %q: %q → %v, %v", s, text, again, err)
		}
	})
}
