package table

import (
	"context"
	"sync/atomic"

	"dsol/internal/hint"
	"dsol/internal/race"
)

// ThinkFunc works out the strong bot's hint for its seat (race.Think with
// race.StrongOptions) if one of the server's solver slots is free, and
// answers false at once when none is: the bot then plays its plain move
// for that turn rather than wait. It runs on a goroutine of its own, never
// the table's.
type ThinkFunc func(s race.Seen, seed uint64) (hint.Hint, bool)

// thinkers holds the ThinkFunc of a registry's tables (SetThinker).
type thinkers struct{ f atomic.Pointer[ThinkFunc] }

// SetThinker sets how the strong bot's searches get a CPU (the server's,
// which shares the hints' solver slots). Without one each search simply
// runs on a goroutine of its own.
func (r *Registry) SetThinker(f ThinkFunc) { r.cfg.thinkers.f.Store(&f) }

// SolverThink is the server's ThinkFunc: a search in one of the solver
// slots that the hints and the live checks share, if take gets one at once
// (free gives it back); else false, and the bot plays its plain move.
func SolverThink(take func() bool, free func()) ThinkFunc {
	return func(s race.Seen, seed uint64) (hint.Hint, bool) {
		if !take() {
			return hint.Hint{}, false
		}
		defer free()
		return race.Think(s, seed, race.StrongOptions), true
	}
}

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
	f := thinkAnyway
	if t.cfg.thinkers != nil {
		if p := t.cfg.thinkers.f.Load(); p != nil {
			f = *p
		}
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
