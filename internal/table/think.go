package table

import (
	"context"

	"dsol/internal/hint"
	"dsol/internal/race"
)

// ThinkFunc works out the strong bot's hint for its seat (race.Think with
// race.StrongOptions) if one of the server's solver slots is free, and
// answers false at once when none is: the bot then plays its plain move
// for that turn rather than wait. It runs on a goroutine of its own, never
// the table's.
type ThinkFunc func(s race.Seen, seed uint64) (hint.Hint, bool)

// thinkAnyway is the ThinkFunc of a registry without one: no slot to wait
// for.
func thinkAnyway(s race.Seen, seed uint64) (hint.Hint, bool) {
	return race.Think(s, seed, race.StrongOptions), true
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
func (t *Table) think(l *raceLive, s race.Seen) {
	f := t.cfg.Think
	if f == nil {
		f = thinkAnyway
	}
	seq, gen := t.seq, l.botGen
	seed := hint.Seed(t.id, seq)
	l.botStop = func() bool { return true }
	go func() {
		h, ok := f(s, seed)
		_ = t.call(context.Background(), func() {
			if l.botStop == nil || l.botGen != gen || t.rl != l {
				return
			}
			l.botStop = nil
			if t.seq != seq {
				t.botMove(l)
				return
			}
			if !ok {
				h = hint.Hint{}
			}
			a, ok := l.strong.Play(s, h)
			t.botAct(l, a, ok)
		})
	}()
}
