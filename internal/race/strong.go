package race

import (
	"dsol/internal/hint"
	k "dsol/internal/klondike"
)

// StrongOptions is the work of one decision of the StrongBot: the
// arrangements of its seat's unseen cards solved and the solver's budget
// for each, in positions so that its play does not depend on the machine
// or its load. 16 × 2,000 costs some 45 ms a decision, 80 ms at the 95th
// percentile (BenchmarkThink on the 2-core development machine); dsol
// bot-duel measures how it plays.
var StrongOptions = hint.Options{Samples: 16, Positions: 2000}

// StrongIdle is how many of the hint's actions in a row may leave the
// StrongBot's progress marker (the plain Bot's: foundation total, its own
// face-down cards, its stock and waste) as it is before the bot leaves the
// seat to the plain Bot until the marker moves. Each decision solves new
// arrangements, so the hint could go round the stock for ever; the plain
// Bot then draws, waits, passes and resigns as it always does. Two passes
// through the largest stock (24 cards, draw 1) and the column moves of a
// line fit well within it.
const StrongIdle = 64

// StrongBot is the strong race bot: for its seat it plays the hint
// (hint.ForSeat): the cards its seat has not seen — its own face-down
// cards and, until it has recycled, its stock order — are dealt at random
// into their places, each such arrangement of its own board is solved
// toward putting up as many of its cards as the shared foundations, as they
// are, let it (all of those, at best), and the candidate action after which
// the most arrangements still reach the most the solver put up in them is
// played. When no arrangement lets a card go up, when it is not its turn,
// when its seat is shown blocked, or after StrongIdle hint actions without
// progress, its Plain bot decides, with its turn rules (a pass in an
// alternating race, a wait in a simultaneous one), its patience and its
// resignation.
//
// Like the Bot it decides only from what its seat has seen (Seen), and it
// is deterministic: the same Seens in the same order, with the same seeds,
// give the same actions. The expensive part, Think, is a pure function so
// that a server can run it off its game's goroutine; Wants and Play are
// cheap and keep the bot's memory. Use one StrongBot per race.
type StrongBot struct {
	Plain Bot
	// Options is the work of Next's searches (zero: StrongOptions).
	Options hint.Options
	seats   [Seats]strongSeat
}

type strongSeat struct {
	mark [3]int // progress marker, as the plain Bot's
	idle int    // hint actions since the marker changed
}

// marker is the progress marker of the seat of s: it changes exactly when
// a card goes up, a face-down card turns over, or a card leaves the stock
// and waste for a column (each count only ever moves one way).
func marker(s *Seen) [3]int {
	b := &s.Boards[s.Seat-1].Board
	return [3]int{s.Found.Total(), b.FaceDown(), int(b.NStock) + int(b.NWaste)}
}

// Wants reports whether the bot would play a hint for s, so that Think is
// worth its time: the race is in play, the seat may act (its turn, or any
// time in a simultaneous race), it is not shown blocked (no arrangement
// would let it put a card up), and the hint's last actions made progress.
func (b *StrongBot) Wants(s Seen) bool {
	if s.Status == Over || (s.Options.Turns == Alternating && s.Turn != s.Seat) || s.Blocked[s.Seat-1] {
		return false
	}
	st := &b.seats[s.Seat-1]
	return marker(&s) != st.mark || st.idle < StrongIdle
}

// Think works out the hint for the seat of s (hint.ForSeat) with opt from
// s and seed alone; it changes nothing, so it may run on any goroutine. A
// server seeds it as hints are seeded (hint.Seed of the game and its seq),
// so that the same race history gives the same play.
func Think(s Seen, seed uint64, opt hint.Options) hint.Hint {
	return hint.ForSeat(s.Boards[s.Seat-1], &s.Found, s.Seat-1, seed, opt)
}

// Play returns the bot's next action for s, or false when it has none (as
// Bot.Next). h is Think's hint for this very s, or the zero Hint when none
// was worked out (the server had no CPU free for it, or Wants said no): h's
// action when it has one and Wants(s), else the Plain bot's choice.
func (b *StrongBot) Play(s Seen, h hint.Hint) (k.Action, bool) {
	if h.OK && b.Wants(s) {
		st := &b.seats[s.Seat-1]
		if m := marker(&s); m != st.mark {
			st.mark, st.idle = m, 0
		}
		st.idle++
		return h.Action, true
	}
	return b.Plain.Next(s)
}

// Next is the bot's next action for s with the hint seeded by seed, worked
// out here (Think with Options) when Wants(s).
func (b *StrongBot) Next(s Seen, seed uint64) (k.Action, bool) {
	var h hint.Hint
	if b.Wants(s) {
		opt := b.Options
		if opt.Samples <= 0 || opt.Positions <= 0 {
			opt = StrongOptions
		}
		h = Think(s, seed, opt)
	}
	return b.Play(s, h)
}
