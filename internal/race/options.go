package race

// Turns is how the seats take turns.
type Turns uint8

// Turn modes. Simultaneous is the default (the zero value).
const (
	Simultaneous Turns = iota
	Alternating
)

// String returns "simultaneous" or "alternating".
func (t Turns) String() string {
	if t == Alternating {
		return "alternating"
	}
	return "simultaneous"
}

// ParseTurns reads "simultaneous" or "alternating" (the empty string is the
// default, simultaneous).
func ParseTurns(s string) (Turns, bool) {
	switch s {
	case "", "simultaneous":
		return Simultaneous, true
	case "alternating":
		return Alternating, true
	}
	return Simultaneous, false
}

// FirstPlayer is the agreed first player of an alternating race.
type FirstPlayer uint8

// First-player choices. Random is the default (the zero value).
const (
	FirstRandom   FirstPlayer = iota
	FirstCreator              // seat 1
	FirstOpponent             // seat 2
)

// String returns "random", "creator" or "opponent".
func (f FirstPlayer) String() string {
	switch f {
	case FirstCreator:
		return "creator"
	case FirstOpponent:
		return "opponent"
	}
	return "random"
}

// ParseFirst reads "random", "creator" or "opponent" (the empty string is
// the default, random).
func ParseFirst(s string) (FirstPlayer, bool) {
	switch s {
	case "", "random":
		return FirstRandom, true
	case "creator":
		return FirstCreator, true
	case "opponent":
		return FirstOpponent, true
	}
	return FirstRandom, false
}

// Seat returns the seat that starts: 1 for the creator, 2 for the opponent;
// for random, coin decides — coin() returns 0 or 1 and comes from the caller's
// random source, so the engine itself stays deterministic. The caller stores
// the seat it got (in Options.FirstSeat) so that a replay starts the same way.
func (f FirstPlayer) Seat(coin func() int) int {
	switch f {
	case FirstCreator:
		return 1
	case FirstOpponent:
		return 2
	}
	return 1 + coin()&1
}

// Options are the settings of a race that its DR1 code does not carry (the
// code gives draw 1/3, unlimited/single redeal and independent/mirrored decks).
type Options struct {
	Turns Turns
	// First is the agreed first-player rule of an alternating race, and
	// FirstSeat the seat it chose (1 or 2). For FirstCreator and FirstOpponent
	// a zero FirstSeat is filled in; FirstRandom needs the seat the caller drew
	// with First.Seat. Simultaneous races ignore both.
	First     FirstPlayer
	FirstSeat int
	// SoloOutBonus: the seat that goes out wins whatever the counts.
	SoloOutBonus bool
	// Series is the number of games of the series this race belongs to (0 or
	// 1: a single game). The engine only checks it and keeps it (Options);
	// the live state of the race's table (package live) adds up each seat's
	// counts over the games of the series.
	Series int
}
