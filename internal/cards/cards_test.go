package cards

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

// Outputs computed independently (Python, arbitrary precision, mod 2^64)
// from the SplitMix64 definition of docs/rules.md §5.2.
func TestSplitMix64Golden(t *testing.T) {
	want := map[uint64][5]uint64{
		0: {0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f, 0xf88bb8a8724c81ec, 0x1b39896a51a8749b},
		1: {0x910a2dec89025cc1, 0xbeeb8da1658eec67, 0xf893a2eefb32555e, 0x71c18690ee42c90b, 0x71bb54d8d101b5b9},
	}
	for seed, outs := range want {
		r := NewSplitMix64(seed)
		for i, w := range outs {
			if got := r.Next(); got != w {
				t.Errorf("seed %d output %d = %#x, want %#x", seed, i, got, w)
			}
		}
	}
}

func TestUniformIsModuloOfTheSequence(t *testing.T) {
	// At 64 bits no small n rejects in practice, so Uniform(n) must be the
	// next output mod n, output after output.
	a, b := NewSplitMix64(42), NewSplitMix64(42)
	for i, n := range []uint64{1, 2, 3, 7, 52, 104, 1000, 1 << 40, 1<<63 + 1} {
		x := b.Next()
		limit, all := uniformLimit(n)
		if !all && x >= limit {
			t.Fatalf("output %#x would be rejected for n=%d; pick another seed", x, n)
		}
		if got := a.Uniform(n); got != x%n {
			t.Errorf("draw %d: Uniform(%d) = %d, want %d", i, n, got, x%n)
		}
	}
}

func TestUniformRejects(t *testing.T) {
	// n = 2^63 + 1 rejects outputs at or above 2^63 + 2^63 - 1 … i.e. about
	// half of them: find a rejected output and check that Uniform skips it.
	n := uint64(1<<63 + 1)
	limit, _ := uniformLimit(n)
	r := NewSplitMix64(7)
	var seq []uint64
	for len(seq) < 64 {
		seq = append(seq, r.Next())
	}
	u := NewSplitMix64(7)
	i := 0
	for draws := 0; draws < 10; draws++ {
		for seq[i] >= limit {
			i++
		}
		if got := u.Uniform(n); got != seq[i]%n {
			t.Fatalf("draw %d: Uniform = %d, want %d (output %d)", draws, got, seq[i]%n, i)
		}
		i++
	}
	if i == 10 {
		t.Error("no output was rejected: the test proves nothing")
	}
}

func TestUniformLimit(t *testing.T) {
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	for _, n := range []uint64{1, 2, 3, 5, 52, 104, 1 << 32, 1<<63 - 1, 1 << 63, 1<<63 + 1, 1<<64 - 1} {
		nb := new(big.Int).SetUint64(n)
		rem := new(big.Int).Mod(two64, nb)
		want := new(big.Int).Sub(two64, rem)
		limit, all := uniformLimit(n)
		if all != (rem.Sign() == 0) {
			t.Errorf("n=%d: all = %v, 2^64 mod n = %v", n, all, rem)
		}
		if !all && new(big.Int).SetUint64(limit).Cmp(want) != 0 {
			t.Errorf("n=%d: limit %d, want %v", n, limit, want)
		}
	}
}

func TestSoloDeckIsAPermutation(t *testing.T) {
	for _, deal := range []uint64{0, 1, DealCount - 1} {
		d := SoloDeck(Code{Deal: deal})
		var seen [104]bool
		for _, c := range d {
			if seen[c] {
				t.Fatalf("deal %d: card %d twice", deal, c)
			}
			seen[c] = true
		}
	}
	d := SoloDeck(Code{})
	if got := joinTexts(d[:4]); got != "3H 8C JS 6S" { // from the independent script
		t.Errorf("deal 0 starts %s", got)
	}
}

func joinTexts(cs []Card) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.String())
	}
	return strings.Join(s, " ")
}

func TestCardText(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want Card
	}{{"AS", New(0, Spades, 1)}, {"7h", New(0, Hearts, 7)}, {"TD", New(0, Diamonds, 10)}, {"kc", New(0, Clubs, 13)}} {
		c, err := Parse(tc.s)
		if err != nil || c != tc.want || c.String() != strings.ToUpper(tc.s) {
			t.Errorf("Parse(%q) = %v, %v", tc.s, c, err)
		}
	}
	for _, bad := range []string{"", "A", "1S", "AX", "10S", "ASS"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	c := New(1, Hearts, 12)
	if c.Deck() != 1 || c.Face() != New(0, Hearts, 12) || c.Rank() != 12 || c.Suit() != Hearts || !c.Red() || c.String() != "QH" {
		t.Errorf("card %d: deck %d face %d rank %d suit %v", c, c.Deck(), c.Face(), c.Rank(), c.Suit())
	}
	if !Builds(New(0, Hearts, 7), New(1, Spades, 8)) || Builds(New(0, Hearts, 7), New(0, Diamonds, 8)) || Builds(New(0, Hearts, 7), New(0, Spades, 9)) {
		t.Error("Builds")
	}
}

func TestParseCode(t *testing.T) {
	good := []struct {
		in, canon string
		want      Code
	}{
		{"DS1-D1N-AAAAAAA", "DS1-D1N-AAAAAAA", Code{Kind: Solo, Draw: 1}},
		{"ds1-d3v-aaaaaab", "DS1-D3V-AAAAAAB", Code{Kind: Solo, Draw: 3, Vegas: true, Deal: 1}},
		{"Ds1-D1n-zZZZZZZ", "DS1-D1N-ZZZZZZZ", Code{Kind: Solo, Draw: 1, Deal: DealCount - 1}},
		{"DS1-D1N-AAAAABA", "DS1-D1N-AAAAABA", Code{Kind: Solo, Draw: 1, Deal: 26}},
		{"DS1-D3N-BAAAAAA", "DS1-D3N-BAAAAAA", Code{Kind: Solo, Draw: 3, Deal: 308915776}}, // 26^6
		{"dr1-d3sm-aaaaaac", "DR1-D3SM-AAAAAAC", Code{Kind: Race, Draw: 3, Single: true, Mirrored: true, Deal: 2}},
		{"DR1-D1UI-AAAAAAA", "DR1-D1UI-AAAAAAA", Code{Kind: Race, Draw: 1}},
	}
	if DealCount != 8031810176 {
		t.Errorf("DealCount = %d, want 26^7 = 8031810176", DealCount)
	}
	for _, tc := range good {
		c, err := ParseCode(tc.in)
		if err != nil || c != tc.want {
			t.Errorf("ParseCode(%q) = %+v, %v; want %+v", tc.in, c, err, tc.want)
			continue
		}
		if c.String() != tc.canon || !c.Valid() {
			t.Errorf("%q: canonical %q, want %q", tc.in, c.String(), tc.canon)
		}
		if again, err := ParseCode(c.String()); err != nil || again != c {
			t.Errorf("%q: round trip gives %+v, %v", tc.in, again, err)
		}
	}
	bad := []struct{ in, part string }{
		{"", "three parts"},
		{"DS1-D1N", "three parts"},
		{"DS1-D1N-AAAAAAA-B", "three parts"},
		{"DS3-D1N-AAAAAAA", "prefix"},
		{"XS1-D1N-AAAAAAA", "prefix"},
		{"DS1-D2N-AAAAAAA", "draw"},
		{"DS1-X1N-AAAAAAA", "draw"},
		{"DS1-D-AAAAAAA", "draw"},
		{"DS1-D1X-AAAAAAA", "scoring"},
		{"DS1-D1-AAAAAAA", "options"},
		{"DS1-D1NN-AAAAAAA", "options"},
		{"DS1-D1N-AAAAAA", "deal"},
		{"DS1-D1N-AAAAAAAA", "deal"},
		{"DS1-D1N-AAAAAA1", "deal"},
		{"DS1-D1N-AAAAAA{", "deal"},
		{"DR1-D1N-AAAAAAA", "options"},
		{"DR1-D1XI-AAAAAAA", "redeal"},
		{"DR1-D1UX-AAAAAAA", "decks"},
		{"dſ1-d1n-aaaaaaa", "prefix"},    // long s is not S
		{"DS1-D1N-AAAAAAı", "deal"},      // dotless i is not I
		{"DS1-D1N-AAAAAA\u212a", "deal"}, // Kelvin sign is not K
	}
	for _, tc := range bad {
		_, err := ParseCode(tc.in)
		var ce *CodeError
		if !errors.As(err, &ce) {
			t.Errorf("ParseCode(%q) = %v, want a *CodeError", tc.in, err)
			continue
		}
		if !strings.Contains(ce.Part, tc.part) || !strings.Contains(err.Error(), tc.part) || ce.Input != tc.in {
			t.Errorf("ParseCode(%q): %v, want it to name %q", tc.in, err, tc.part)
		}
	}
}

func TestCodeDealNumbers(t *testing.T) {
	for in, deal := range map[string]uint64{"AAAAAAA": 0, "AAAAAAB": 1, "AAAAABA": 26, "ZZZZZZZ": DealCount - 1} {
		c, err := ParseCode("DS1-D1N-" + in)
		if err != nil || c.Deal != deal {
			t.Errorf("%s: deal %d, %v; want %d", in, c.Deal, err, deal)
		}
	}
	if (Code{Kind: Solo, Draw: 2}).Valid() || (Code{Kind: Solo, Draw: 1, Deal: DealCount}).Valid() {
		t.Error("Valid accepts draw 2 or an out-of-range deal")
	}
}

func FuzzParseCode(f *testing.F) {
	for _, s := range []string{"DS1-D1N-AAAAAAB", "ds1-d3v-zzzzzzz", "DR1-D3SM-HELLOXY", "DS1-D1N-AAAAAA", "dſ1-d1n-aaaaaaa", " DS1-D1V-QWERTYZ ", "DR1-D1UI-A",
		"DR2-D1UI-" + strings.Repeat("0", 64), "ds2-d3v-" + strings.Repeat("aB", 32), "DR2-D3SM-" + strings.Repeat("F", 63)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCode(s)
		if err != nil {
			var ce *CodeError
			if !errors.As(err, &ce) || ce.Part == "" {
				t.Fatalf("ParseCode(%q): %v is not a CodeError naming a part", s, err)
			}
			return
		}
		canon := c.String()
		if !c.Valid() {
			t.Fatalf("ParseCode(%q) accepted an invalid code %+v", s, c)
		}
		if !strings.EqualFold(strings.TrimSpace(s), canon) || strings.ToUpper(canon) != canon {
			t.Fatalf("ParseCode(%q) gives canonical %q: not the same text up to ASCII case", s, canon)
		}
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				t.Fatalf("ParseCode(%q) accepted non-ASCII text", s)
			}
		}
		again, err := ParseCode(canon)
		if err != nil || again != c {
			t.Fatalf("round trip of %q: %+v, %v", canon, again, err)
		}
	})
}
