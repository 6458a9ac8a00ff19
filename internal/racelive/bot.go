package racelive

import (
	"dsol/internal/hint"
	"dsol/internal/klondike"
	"dsol/internal/race"
)

// thinkAnyway is the ThinkFunc of a server without one: no slot to wait
// for.
func thinkAnyway(s race.Seen, seed uint64) (hint.Hint, bool) {
	return race.Think(s, seed, race.StrongOptions), true
}

// botMove applies the bot's next action for seat 2; the strong bot's, when
// it wants a hint, once its search has come back (think).
func (l *Live) botMove() {
	s := l.eng().Race().Seen(2)
	switch {
	case l.strong == nil:
		a, ok := l.bot.Next(s)
		l.botAct(a, ok)
	case l.strong.Wants(s):
		l.think(s)
	default:
		a, ok := l.strong.Play(s, hint.Hint{})
		l.botAct(a, ok)
	}
}

// botAct applies the bot's action a for seat 2, or with none (ok false)
// waits for the opponent's next action.
func (l *Live) botAct(a klondike.Action, ok bool) {
	if !ok || l.host.Act(2, a) != nil {
		l.botIdle = l.host.Seq() // wait for the opponent's next action
	}
}

// think starts the strong bot's search for s, the seat's position at the
// table's seq, off the table's goroutine, seeded by the game and the seq
// as hints are (so the same race history gives the same play). Until the
// answer comes botStop is set, so no other bot timer starts, and stopBot
// (the race ends, the table stops) makes the answer count for nothing, as
// does a newer bot generation. The answer is played if the seq is still
// the same (a hint for this very position; with none, because no slot
// was free, the plain bot's move); if the opponent acted meanwhile the bot
// decides again at once on the new position.
func (l *Live) think(s race.Seen) {
	f := l.cfg.Think
	if f == nil {
		f = thinkAnyway
	}
	seq, gen := l.host.Seq(), l.botGen
	seed := hint.Seed(l.host.ID(), seq)
	l.botStop = func() bool { return true }
	go func() {
		h, ok := f(s, seed)
		l.host.Call(func() {
			if l.stopped || l.botStop == nil || l.botGen != gen {
				return
			}
			l.botStop = nil
			if l.host.Seq() != seq {
				l.botMove()
				return
			}
			if !ok {
				h = hint.Hint{}
			}
			a, ok := l.strong.Play(s, h)
			l.botAct(a, ok)
		})
	}()
}
