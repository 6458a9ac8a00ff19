package cards

// SplitMix64 is the pseudo-random generator that defines every deal.
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

// Uniform returns an unbiased integer in [0, n) by rejection: outputs at or
// above 2^64 − (2^64 mod n) are drawn again. n must be positive.
func (r *SplitMix64) Uniform(n uint64) uint64 {
	limit, all := uniformLimit(n)
	for {
		x := r.Next()
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
// deck[i] with deck[Uniform(i+1)].
func (r *SplitMix64) Shuffle(deck []Card) {
	for i := len(deck) - 1; i > 0; i-- {
		j := r.Uniform(uint64(i + 1))
		deck[i], deck[j] = deck[j], deck[i]
	}
}

// SoloDeck returns the 104 cards of a solo deal in dealing order: deck copy 0
// then copy 1 in S,H,D,C / A…K order, shuffled with seed = deal.
func SoloDeck(deal uint64) [104]Card {
	var d [104]Card
	for i := range d {
		d[i] = Card(i)
	}
	NewSplitMix64(deal).Shuffle(d[:])
	return d
}

// RaceDeck returns the 52 cards of one seat (0 or 1) of a race deal, in dealing
// order: the seat's own deck shuffled with seed 2·deal + seat, or with seat 0's
// seed when mirrored. The cards belong to the seat's deck either way.
func RaceDeck(deal uint64, seat int, mirrored bool) [52]Card {
	var d [52]Card
	for i := range d {
		d[i] = Card(i)
	}
	seed := 2 * deal
	if !mirrored {
		seed += uint64(seat)
	}
	NewSplitMix64(seed).Shuffle(d[:])
	for i := range d {
		d[i] += Card(52 * seat)
	}
	return d
}
