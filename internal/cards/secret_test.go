package cards

import (
	"strings"
	"testing"
)

// TestSecretStreamCheckValues: the first outputs of the stream of the
// all-zero secret, as the rules give them.
func TestSecretStreamCheckValues(t *testing.T) {
	s := NewSecretStream([SecretBytes]byte{})
	for i, want := range []uint64{0x4B1760B887D0E134, 0x6FAF358F305C9E9C, 0x9FE0CE335DDE0C86} {
		if got := s.Next(); got != want {
			t.Errorf("output %d = %#x, want %#x", i, got, want)
		}
	}
}

// faceUp returns the face-up card of each of n columns of a deck dealt row
// by row (the card dealt to column c in row c), and the first stock cards.
func faceUp(deck []Card, n, stock int) (up, next string) {
	cols := make([]Card, n)
	i := 0
	for r := 0; r < n; r++ {
		for c := r; c < n; c++ {
			if c == r {
				cols[c] = deck[i]
			}
			i++
		}
	}
	return joinTexts(cols), joinTexts(deck[i : i+stock])
}

// TestSecretDealCheckValues: the face-up cards (and the first stock cards)
// of the all-zero DR2 and DS2 codes, as the rules give them.
func TestSecretDealCheckValues(t *testing.T) {
	zeros := strings.Repeat("0", 64)
	rc, err := ParseCode("DR2-D1UI-" + zeros)
	if err != nil {
		t.Fatal(err)
	}
	d := RaceDecks(rc)
	if up, _ := faceUp(d[0][:], 7, 0); up != "3H 4S 8D QH 4C 6S 9C" {
		t.Errorf("DR2 seat 1 face up: %s", up)
	}
	if up, _ := faceUp(d[1][:], 7, 0); up != "2H AC 4S 5H 9H 7H 6D" {
		t.Errorf("DR2 seat 2 face up: %s", up)
	}
	sc, err := ParseCode("DS2-D1N-" + zeros)
	if err != nil {
		t.Fatal(err)
	}
	s := SoloDeck(sc)
	up, next := faceUp(s[:], 9, 3)
	if up != "3D 4C 7D 8S 8C 7C 5C 5H 6H" || next != "KD 5S 9D" {
		t.Errorf("DS2 face up %s, stock %s", up, next)
	}
}

// TestMirroredSecretRace: a mirrored DR2 race deals seat 1's shuffle to
// both seats (each from its own deck), and an independent one differs.
func TestMirroredSecretRace(t *testing.T) {
	c := Code{Kind: Race, Draw: 1, Secret: true, Key: [SecretBytes]byte{1, 2, 3}}
	ind := RaceDecks(c)
	c.Mirrored = true
	mir := RaceDecks(c)
	if ind[0] != mir[0] {
		t.Fatal("seat 1's shuffle depends on the decks option")
	}
	for i := range mir[0] {
		if mir[1][i] != mir[0][i]+52 {
			t.Fatalf("mirrored seat 2 card %d is %v, seat 1's is %v", i, mir[1][i], mir[0][i])
		}
	}
	if joinTexts(ind[1][:]) == joinTexts(ind[0][:]) {
		t.Fatal("independent seats got the same shuffle")
	}
}

// TestSecretCodes: DS2/DR2 codes parse in either case, print in canonical
// upper case, and name what is wrong.
func TestSecretCodes(t *testing.T) {
	hex := "00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF"
	c, err := ParseCode("dr2-d3sm-" + hex)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Secret || c.Kind != Race || c.Draw != 3 || !c.Single || !c.Mirrored || c.Key[1] != 0x11 || c.Key[31] != 0xFF {
		t.Fatalf("parsed %+v", c)
	}
	if want := "DR2-D3SM-" + strings.ToUpper(hex); c.String() != want {
		t.Fatalf("String = %s, want %s", c, want)
	}
	s, err := ParseCode("DS2-D1V-" + hex)
	if err != nil || !s.Secret || s.Kind != Solo || !s.Vegas || !s.Valid() {
		t.Fatalf("DS2: %+v, %v", s, err)
	}
	for in, part := range map[string]string{
		"DR2-D1UI-" + hex[:63]:        "secret must be 64 hexadecimal digits",
		"DR2-D1UI-" + hex[:62] + "GG": "secret must be 64 hexadecimal digits",
		"DR2-D1UI-AAAAAAB":            "secret must be 64 hexadecimal digits",
		"DS1-D1N-" + hex:              "deal must be 7 letters A-Z",
		"DR3-D1UI-" + hex:             "prefix must be DS1 or DS2 (solo), DR1 or DR2 (race)",
		"DS2-D2N-" + hex:              "draw must be D1 or D3",
	} {
		_, err := ParseCode(in)
		ce, ok := err.(*CodeError)
		if !ok || ce.Part != part {
			t.Errorf("ParseCode(%q) = %v, want part %q", in, err, part)
		}
	}
}
