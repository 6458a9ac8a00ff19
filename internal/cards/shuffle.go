package cards

import (
	"crypto/sha256"
	"encoding/binary"
)

// Source is a stream of 64-bit outputs that a deal is shuffled from:
// SplitMix64 for DS1/DR1 codes, SecretStream for DS2/DR2 codes.
type Source interface {
	Next() uint64
}

// SplitMix64 is the pseudo-random generator that defines every DS1/DR1 deal.
type SplitMix64 struct{ state uint64 }

// NewSplitMix64 starts a generator at seed.
func NewSplitMix64(seed uint64) *SplitMix64 { return &SplitMix64{state: seed} }

// Next returns the next 64-bit output.
func (r *SplitMix64) Next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Uniform returns an unbiased integer in [0, n) drawn from r (Uniform).
func (r *SplitMix64) Uniform(n uint64) uint64 { return Uniform(r, n) }

// Shuffle permutes deck with Fisher–Yates drawing from r (Shuffle).
func (r *SplitMix64) Shuffle(deck []Card) { Shuffle(r, deck) }

// SecretStream is the stream of a secret deal (DS2/DR2): its k-th output (k
// = 0, 1, 2, …) is the first 8 bytes, read big-endian, of SHA-256(secret ‖
// "dsol-deal" ‖ k as 8 bytes big-endian). Without the secret its outputs
// cannot be told from random, so the cards a player sees say nothing about
// the cards they do not.
type SecretStream struct {
	buf [SecretBytes + len(secretLabel) + 8]byte
	k   uint64
}

// secretLabel separates the deal stream from any other use of a secret.
const secretLabel = "dsol-deal"

// NewSecretStream starts the stream of a secret at output 0.
func NewSecretStream(secret [SecretBytes]byte) *SecretStream {
	s := &SecretStream{}
	copy(s.buf[:], secret[:])
	copy(s.buf[SecretBytes:], secretLabel)
	return s
}

// Next returns the next 64-bit output.
func (s *SecretStream) Next() uint64 {
	binary.BigEndian.PutUint64(s.buf[SecretBytes+len(secretLabel):], s.k)
	s.k++
	h := sha256.Sum256(s.buf[:])
	return binary.BigEndian.Uint64(h[:8])
}

// Uniform returns an unbiased integer in [0, n) by rejection: outputs at or
// above 2^64 − (2^64 mod n) are drawn again. n must be positive.
func Uniform(src Source, n uint64) uint64 {
	limit, all := uniformLimit(n)
	for {
		x := src.Next()
		if all || x < limit {
			return x % n
		}
	}
}

// uniformLimit returns 2^64 − (2^64 mod n) computed mod 2^64, and all = true
// when 2^64 mod n is 0: then every output is accepted (and limit wraps to 0).
func uniformLimit(n uint64) (limit uint64, all bool) {
	rem := -n % n // (2^64 − n) mod n = 2^64 mod n
	return -rem, rem == 0
}

// Shuffle permutes deck with Fisher–Yates: for i from len−1 down to 1, swap
// deck[i] with deck[Uniform(src, i+1)].
func Shuffle(src Source, deck []Card) {
	for i := len(deck) - 1; i > 0; i-- {
		j := Uniform(src, uint64(i+1))
		deck[i], deck[j] = deck[j], deck[i]
	}
}

// SoloDeck returns the 104 cards of a solo deal in dealing order: deck copy 0
// then copy 1 in S,H,D,C / A…K order, shuffled with seed = deal (DS1) or
// from the code's secret stream (DS2).
func SoloDeck(c Code) [104]Card {
	var d [104]Card
	for i := range d {
		d[i] = Card(i)
	}
	if c.Secret {
		Shuffle(NewSecretStream(c.Key), d[:])
	} else {
		Shuffle(NewSplitMix64(c.Deal), d[:])
	}
	return d
}

// RaceDecks returns both seats' 52 cards of a race deal, in dealing order,
// each of its seat's own deck (seat 1: deck 0, seat 2: deck 1). DR1: seat s
// (0 or 1) is shuffled with seed 2·deal + s, or both with seat 1's seed when
// mirrored. DR2: seat 1's cards are shuffled first, then seat 2's from where
// the stream left off; mirrored races use seat 1's shuffle for both.
func RaceDecks(c Code) [2][52]Card {
	var d [2][52]Card
	for s := range d {
		for i := range d[s] {
			d[s][i] = Card(i)
		}
	}
	if c.Secret {
		src := NewSecretStream(c.Key)
		Shuffle(src, d[0][:])
		if !c.Mirrored {
			Shuffle(src, d[1][:])
		} else {
			d[1] = d[0]
		}
	} else {
		for s := range d {
			seed := 2 * c.Deal
			if !c.Mirrored {
				seed += uint64(s)
			}
			Shuffle(NewSplitMix64(seed), d[s][:])
		}
	}
	for i := range d[1] {
		d[1][i] += 52
	}
	return d
}
