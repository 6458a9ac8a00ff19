package race

import (
	"time"

	k "dsol/internal/klondike"
)

// Speed is the level of the server's bot: how fast it seems to think, and
// for Strong how well it plays.
type Speed uint8

// Bot levels. Normal is the default (the zero value). Slow, Normal and Fast
// are the plain Bot at three think times; Strong is the StrongBot, which
// thinks as long as Normal.
const (
	Normal Speed = iota
	Slow
	Fast
	Strong
)

// Speeds lists the bot's levels, from the slowest thinker.
func Speeds() []Speed { return []Speed{Slow, Normal, Fast, Strong} }

// String returns "normal", "slow", "fast" or "strong".
func (s Speed) String() string {
	switch s {
	case Slow:
		return "slow"
	case Fast:
		return "fast"
	case Strong:
		return "strong"
	}
	return "normal"
}

// ParseSpeed reads "slow", "normal", "fast" or "strong" (the empty string is
// normal).
func ParseSpeed(s string) (Speed, bool) {
	switch s {
	case "", "normal":
		return Normal, true
	case "slow":
		return Slow, true
	case "fast":
		return Fast, true
	case "strong":
		return Strong, true
	}
	return Normal, false
}

// Delay is the think time the server waits before it applies the bot's next
// action (for Strong, before its search starts). The engine and the bot
// never sleep.
func (s Speed) Delay() time.Duration {
	switch s {
	case Slow:
		return 2 * time.Second
	case Fast:
		return 300 * time.Millisecond
	}
	return 900 * time.Millisecond
}

// Bot is a heuristic race player. It decides only from what its seat has
// seen (Seen): never from a face-down card or an unseen stock card, its own
// or the opponent's. Its choice, in order: a foundation play; a move that
// turns a face-down card over; a waste card to a column, or a run moved to
// expose a card that goes to a foundation; a draw or recycle; once a whole
// pass through the stock brought nothing, the first step of a path found by
// klondike.Path (which needs the stock known: after a recycle, a pass has
// shown it all); else, when it has nothing useful left, a pass (alternating)
// or nothing (simultaneous) — and a resignation once that lasted Patience
// answers while the race did not show it blocked. It is deterministic: the
// same Seens in the same order give the same actions. One Bot may play both
// seats; it remembers a little per seat, so use one Bot per race.
type Bot struct {
	Speed Speed
	seats [Seats]botSeat
}

type botSeat struct {
	mark  [3]int // progress marker: foundation total, own face-down, stock+waste
	idle  int    // own draws, recycles and path steps since the marker changed
	path  []k.Step
	pos   int
	lost  bool // the path search found nothing since the marker changed
	waits int  // answers with nothing to do while not blocked, since the marker changed
}

// Patience is how many times in a row, with nothing changed on its board or
// the foundations, a bot that has nothing to do but is not blocked (its path
// search reached klondike.SearchLimit) answers "wait" or passes before it
// resigns. Without it two such bots would wait for each other for ever: the
// race ends by "both blocked" only when the search can prove it.
const Patience = 40

// Next returns the bot's next action for the seat of s (use Race.Seen), or
// false when it has none: the race is over, it is the other seat's turn, or
// (simultaneous) the seat has nothing useful left to do and waits.
func (bot *Bot) Next(s Seen) (k.Action, bool) {
	if s.Status == Over || (s.Options.Turns == Alternating && s.Turn != s.Seat) {
		return k.Action{}, false
	}
	st := &bot.seats[s.Seat-1]
	own := &s.Boards[s.Seat-1]
	b, f := &own.Board, &s.Found
	mark := [3]int{f.Total(), b.FaceDown(), int(b.NStock) + int(b.NWaste)}
	if mark != st.mark {
		st.mark, st.idle, st.path, st.pos, st.lost, st.waits = mark, 0, st.path[:0], 0, false, 0
	}
	if a, ok := k.UsefulMove(b, f); ok {
		return a, true
	}
	if st.pos < len(st.path) {
		if a, ok := k.StepAction(b, f, st.path[st.pos]); ok {
			st.pos++
			st.idle++
			return a, true
		}
		st.path, st.pos = st.path[:0], 0
	}
	if s.Blocked[s.Seat-1] {
		return bot.stuck(&s)
	}
	cycle := (int(b.NStock)+int(b.NWaste))/int(b.DrawCount) + 2
	if st.idle < cycle {
		if b.NStock > 0 {
			st.idle++
			return k.Simple(k.Draw), true
		}
		if b.NWaste > 0 && b.CanRecycle {
			st.idle++
			return k.Simple(k.Recycle), true
		}
	}
	// A whole pass through the stock came first, so it has been recycled
	// (and is known) or is empty; the guard keeps Path off a masked stock.
	if !st.lost && own.StockKnown {
		var found bool
		st.path, found = k.Path(b, f, st.path)
		st.lost = !found
		st.pos = 0
		if found && len(st.path) > 0 {
			if a, ok := k.StepAction(b, f, st.path[0]); ok {
				st.pos = 1
				st.idle++
				return a, true
			}
		}
		st.path = st.path[:0]
	}
	return bot.stuck(&s)
}

// stuck is the bot's answer when it has nothing useful left: a pass in an
// alternating race, nothing in a simultaneous one — or, once its Patience
// ran out while the race does not show it blocked, a resignation.
func (bot *Bot) stuck(s *Seen) (k.Action, bool) {
	if st := &bot.seats[s.Seat-1]; !s.Blocked[s.Seat-1] {
		st.waits++
		if st.waits > Patience {
			return k.Simple(k.Resign), true
		}
	}
	if s.Options.Turns == Alternating {
		return k.Simple(k.Pass), true
	}
	return k.Action{}, false
}
