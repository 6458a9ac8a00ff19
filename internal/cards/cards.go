// Package cards holds the card model shared by every dsol engine: cards with
// their deck of origin, their text form, the SplitMix64 shuffle that makes deals
// reproducible bit for bit, and the DS1/DR1 game codes.
package cards

import "fmt"

// Suit is one of the four suits, in the order S, H, D, C used everywhere.
type Suit uint8

// The suits in deck and foundation-row order.
const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
)

// Red reports whether the suit is hearts or diamonds.
func (s Suit) Red() bool { return s == Hearts || s == Diamonds }

// String returns the one-letter suit text.
func (s Suit) String() string { return string(suitText[s&3]) }

const (
	rankText = "A23456789TJQK"
	suitText = "SHDC"
)

// Card is one physical card: 52*deck + 13*suit + (rank-1). The deck tells two
// copies of the same face apart (solo: copy 0 or 1; race: the seat's deck 0 or
// 1). None marks "no card".
type Card uint8

// None is the zero-card marker.
const None Card = 0xFF

// New returns the card of the given deck (0 or 1), suit and rank (1 = ace … 13 = king).
func New(deck int, s Suit, rank int) Card {
	return Card(deck*52 + int(s)*13 + rank - 1)
}

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(c % 52 / 13) }

// Rank returns 1 (ace) … 13 (king).
func (c Card) Rank() int { return int(c%13) + 1 }

// Deck returns the deck (copy or seat) the card comes from: 0 or 1.
func (c Card) Deck() int { return int(c / 52) }

// Face returns the card without its deck: two copies of a card share a face.
func (c Card) Face() Card { return c % 52 }

// Red reports whether the card is a heart or a diamond.
func (c Card) Red() bool { return c.Suit().Red() }

// String returns the text form, such as "7H" or "TS".
func (c Card) String() string {
	if c == None {
		return "--"
	}
	return faceText[c%52]
}

var faceText = func() (t [52]string) {
	for i := range t {
		t[i] = string([]byte{rankText[i%13], suitText[i/13]})
	}
	return t
}()

// Parse reads the text form of a card ("7H", "ts"); the result is of deck 0.
func Parse(s string) (Card, error) {
	if len(s) != 2 {
		return None, fmt.Errorf("cards: %q is not a card: want rank and suit such as 7H", s)
	}
	r, u := indexFold(rankText, s[0]), indexFold(suitText, s[1])
	if r < 0 {
		return None, fmt.Errorf("cards: %q has no rank: ranks are A23456789TJQK", s)
	}
	if u < 0 {
		return None, fmt.Errorf("cards: %q has no suit: suits are SHDC", s)
	}
	return Card(u*13 + r), nil
}

func indexFold(set string, b byte) int {
	if b >= 'a' && b <= 'z' {
		b -= 'a' - 'A'
	}
	for i := 0; i < len(set); i++ {
		if set[i] == b {
			return i
		}
	}
	return -1
}

// Builds reports whether c may be placed on top of t in a tableau column:
// opposite colour, one rank lower.
func Builds(c, t Card) bool {
	return t.Rank() == c.Rank()+1 && t.Red() != c.Red()
}
