package race

import (
	"dsol/internal/hint"
	k "dsol/internal/klondike"
)

// StrongOptions is the work of one decision of the StrongBot (Think): 32
// arrangements of the unseen cards, every candidate played out on each for
// at most 600 actions (a race of two plain Bots from the deal takes some
// 120 on average, BenchmarkBotRace). 16 arrangements cost half as much but choose worse: on the
// same 100 races against the normal bot they won 77 where 32 won 86. The
// cost is in BenchmarkThink and docs/solver.md §6; dsol bot-duel measures
// how it plays.
var StrongOptions = ThinkOptions{Samples: 32, Steps: 600}

// StrongIdle is how many of Think's actions in a row may leave the
// StrongBot's progress marker (the plain Bot's: foundation total, its own
// face-down cards, its stock and waste) as it is before the bot leaves the
// seat to the plain Bot until the marker moves. Each decision plays out
// new arrangements, so it could go round the stock for ever; the plain
// Bot then draws, waits, passes and resigns as it always does. Two passes
// through the largest stock (24 cards, draw 1) and a few column moves fit
// well within it.
const StrongIdle = 64

// StrongBot is the strong race bot: it plays the race, not its own board
// alone. For each of its candidate actions (the plain Bot's useful moves
// and the stock's turn) it plays the race out to its end on arrangements
// of the cards its seat has not seen, both boards' face-down cards and
// unknown stocks, with plain Bots for both seats after it, and plays the
// candidate that leaves it furthest ahead of the opponent, wins first
// (Think). When it has no candidate, when it is not its turn, when its
// seat is shown blocked, or after StrongIdle actions without progress, its
// Plain bot decides, with its turn rules (a pass in an alternating race, a
// wait in a simultaneous one), its patience and its resignation.
//
// Like the Bot it decides only from what its seat has seen (Seen), and it
// is deterministic: the same Seens in the same order, with the same seeds,
// give the same actions. The expensive part, Think, is a pure function so
// that a server can run it off its game's goroutine; Wants and Play are
// cheap and keep the bot's memory. Use one StrongBot per race.
type StrongBot struct {
	Plain Bot
	// Options is the work of Next's decisions (zero: StrongOptions).
	Options ThinkOptions
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

// Wants reports whether the bot would play Think's answer for s, so that
// Think is worth its time: the race is in play, the seat may act (its
// turn, or any time in a simultaneous race), it is not shown blocked, and
// Think's last actions made progress.
func (b *StrongBot) Wants(s Seen) bool {
	if s.Status == Over || (s.Options.Turns == Alternating && s.Turn != s.Seat) || s.Blocked[s.Seat-1] {
		return false
	}
	st := &b.seats[s.Seat-1]
	return marker(&s) != st.mark || st.idle < StrongIdle
}

// Play returns the bot's next action for s, or false when it has none (as
// Bot.Next). h is Think's answer for this very s, or the zero Hint when
// none was worked out (the server had no CPU free for it, or Wants said
// no): h's action when it has one and Wants(s), else the Plain bot's
// choice.
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

// Next is the bot's next action for s with Think's answer seeded by seed,
// worked out here (with Options) when Wants(s).
func (b *StrongBot) Next(s Seen, seed uint64) (k.Action, bool) {
	var h hint.Hint
	if b.Wants(s) {
		opt := b.Options
		if opt.Samples <= 0 || opt.Steps <= 0 {
			opt = StrongOptions
		}
		h = Think(s, seed, opt)
	}
	return b.Play(s, h)
}
