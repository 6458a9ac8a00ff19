package cards

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"dsol/internal/input"
)

// Kind tells a solo game code (DS1, DS2) from a race code (DR1, DR2).
type Kind uint8

// The two kinds of game.
const (
	Solo Kind = iota
	Race
)

// String returns "solo" or "race".
func (k Kind) String() string {
	if k == Race {
		return "race"
	}
	return "solo"
}

// DealCount is the number of distinct deals a code can name: 26^7.
const DealCount = 26 * 26 * 26 * 26 * 26 * 26 * 26

// SecretBytes is the length of the secret of a DS2/DR2 code.
const SecretBytes = 32

// Code is a parsed game code. Solo codes use Vegas; race codes use Single and
// Mirrored. A DS1/DR1 code names its deal by number (Deal); a secret DS2/DR2
// code (Secret set) by 32 random bytes (Key), so that nobody can find it from
// the cards of its deal. The zero Code is not valid; build one with ParseCode
// or by hand.
type Code struct {
	Kind     Kind
	Draw     int               // 1 or 3
	Vegas    bool              // solo: Vegas scoring instead of Normal
	Single   bool              // race: a single pass through the stock instead of unlimited
	Mirrored bool              // race: both seats get seat 1's shuffle
	Deal     uint64            // DS1/DR1: 0 … DealCount−1
	Secret   bool              // a DS2/DR2 code: the deal follows from Key
	Key      [SecretBytes]byte // DS2/DR2: the secret
}

// CodeError is a malformed game code; Part says what is wrong, Field names
// that part for machines (the web client words it in the player's language):
// "parts", "prefix", "draw", "options", "scoring", "redeal", "decks",
// "secret" or "deal".
type CodeError struct {
	Input string
	Part  string
	Field string
}

// Error implements error: the code (its first input.MaxQuote bytes) and the
// part of it that is wrong.
func (e *CodeError) Error() string {
	return fmt.Sprintf("cards: bad game code %s: %s", input.Quote(e.Input), e.Part)
}

// ParseCode reads `DS1-<D1|D3><N|V>-<7 letters>`,
// `DR1-<D1|D3><U|S><I|M>-<7 letters>`, and the secret `DS2-<D1|D3><N|V>-<64
// hex digits>` and `DR2-<D1|D3><U|S><I|M>-<64 hex digits>`,
// case-insensitively.
func ParseCode(s string) (Code, error) {
	in := s
	s = upperASCII(strings.Trim(s, asciiSpace))
	bad := func(field, part string) (Code, error) { return Code{}, &CodeError{Input: in, Part: part, Field: field} }
	parts := strings.Split(s, "-")
	if len(parts) != 3 {
		return bad("parts", "want three parts separated by '-', such as DS1-D1N-AAAAAAB")
	}
	var c Code
	switch parts[0] {
	case "DS1":
		c.Kind = Solo
	case "DR1":
		c.Kind = Race
	case "DS2":
		c.Kind, c.Secret = Solo, true
	case "DR2":
		c.Kind, c.Secret = Race, true
	default:
		return bad("prefix", "prefix must be DS1 or DS2 (solo), DR1 or DR2 (race)")
	}
	opts := parts[1]
	want := 3
	if c.Kind == Race {
		want = 4
	}
	if len(opts) < 2 || opts[0] != 'D' || (opts[1] != '1' && opts[1] != '3') {
		return bad("draw", "draw must be D1 or D3")
	}
	c.Draw = int(opts[1] - '0')
	if len(opts) != want {
		if c.Kind == Solo {
			return bad("options", "options must be draw then scoring, such as D1N or D3V")
		}
		return bad("options", "options must be draw, redeal and decks, such as D1UI or D3SM")
	}
	if c.Kind == Solo {
		switch opts[2] {
		case 'N':
		case 'V':
			c.Vegas = true
		default:
			return bad("scoring", "scoring must be N (Normal) or V (Vegas)")
		}
	} else {
		switch opts[2] {
		case 'U':
		case 'S':
			c.Single = true
		default:
			return bad("redeal", "redeal must be U (unlimited) or S (single pass)")
		}
		switch opts[3] {
		case 'I':
		case 'M':
			c.Mirrored = true
		default:
			return bad("decks", "decks must be I (independent) or M (mirrored)")
		}
	}
	deal := parts[2]
	if c.Secret {
		if len(deal) != 2*SecretBytes {
			return bad("secret", "secret must be 64 hexadecimal digits")
		}
		if _, err := hex.Decode(c.Key[:], []byte(deal)); err != nil {
			return bad("secret", "secret must be 64 hexadecimal digits")
		}
		return c, nil
	}
	if len(deal) != 7 {
		return bad("deal", "deal must be 7 letters A-Z")
	}
	for i := 0; i < len(deal); i++ {
		if deal[i] < 'A' || deal[i] > 'Z' {
			return bad("deal", "deal must be 7 letters A-Z")
		}
		c.Deal = c.Deal*26 + uint64(deal[i]-'A')
	}
	return c, nil
}

// String returns the canonical upper-case code.
func (c Code) String() string {
	var b [9 + 2*SecretBytes]byte
	n := 0
	put := func(s string) { n += copy(b[n:], s) }
	switch {
	case c.Kind == Race && c.Secret:
		put("DR2-D")
	case c.Kind == Race:
		put("DR1-D")
	case c.Secret:
		put("DS2-D")
	default:
		put("DS1-D")
	}
	b[n] = byte('0' + c.Draw)
	n++
	if c.Kind == Race {
		put(pick(c.Single, "S", "U"))
		put(pick(c.Mirrored, "M", "I"))
	} else {
		put(pick(c.Vegas, "V", "N"))
	}
	b[n] = '-'
	n++
	if c.Secret {
		const digits = "0123456789ABCDEF"
		for _, x := range c.Key {
			b[n], b[n+1] = digits[x>>4], digits[x&15]
			n += 2
		}
		return string(b[:n])
	}
	d := c.Deal % DealCount
	for i := 6; i >= 0; i-- {
		b[n+i] = byte('A' + d%26)
		d /= 26
	}
	n += 7
	return string(b[:n])
}

// Commitment is the lowercase hexadecimal SHA-256 of code + ":" + the salt
// in lowercase hexadecimal: a race shows it from creation on and its code and
// salt once over, so that anyone can check that the deal was fixed before
// the first move without learning it before the end.
func Commitment(code string, salt []byte) string {
	h := sha256.Sum256([]byte(code + ":" + hex.EncodeToString(salt)))
	return hex.EncodeToString(h[:])
}

// Valid reports whether the code can be played: draw 1 or 3, and a deal
// number in range (DS1/DR1) or none (DS2/DR2).
func (c Code) Valid() bool {
	return (c.Draw == 1 || c.Draw == 3) && c.Deal < DealCount && (!c.Secret || c.Deal == 0)
}

func pick(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// asciiSpace is the white space ParseCode trims: ASCII only, so that no
// non-ASCII text passes as part of a code.
const asciiSpace = " \t\n\v\f\r"

// upperASCII upper-cases ASCII letters only: strings.ToUpper would also map
// letters such as 'ſ' or 'ı' to 'S' and 'I' and let them pass as code text.
func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}
