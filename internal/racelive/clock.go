package racelive

import (
	"context"
	"time"

	"dsol/internal/klondike"
	"dsol/internal/race"
)

// wake is a timer of the live side that came due: the turn clock set after
// turns turn changes, the bot's move of generation gen, or the lapse of a
// waiting rematch offer.
type wake struct {
	kind  wakeKind
	turns int // wakeClock
	gen   int // wakeBot
}

type wakeKind int

const (
	wakeClock wakeKind = iota
	wakeBot
	wakeLapse
)

// after sets a timer that comes back to the table's goroutine with w once
// d has passed.
func (l *Live) after(d time.Duration, w wake) func() bool {
	return l.cfg.AfterFunc(d, func() { l.host.Call(func() { l.due(w) }) })
}

// schedule sets or cancels the turn clock and the bot's next move.
func (l *Live) schedule() {
	e := l.eng()
	playing := e.Status() == "playing"
	if playing && !l.started {
		// The race starts now (or the table was just loaded): the turn clock
		// counts from here.
		l.started = true
		l.turnCount = -1
	}
	if !playing {
		l.stopClock()
		l.stopBot()
		l.deadline = time.Time{}
		l.offerClock()
		return
	}
	if e.Options().TurnSeconds > 0 && e.Race().Turn() != 0 && l.turnCount != e.Turns() {
		l.stopClock()
		l.turnCount = e.Turns()
		d := time.Duration(e.Options().TurnSeconds) * time.Second
		l.deadline = l.now().Add(d)
		l.clockStop = l.after(d, wake{kind: wakeClock, turns: e.Turns()})
	}
	if e.Options().Bot != "" && isBot(l.host.Header(), 2) && l.botStop == nil && l.botIdle != l.host.Seq() {
		if turn := e.Race().Turn(); turn == 0 || turn == 2 {
			speed, _ := race.ParseSpeed(e.Options().Bot)
			switch {
			case l.bot != nil || l.strong != nil:
			case speed == race.Strong:
				l.strong = &race.StrongBot{Plain: race.Bot{Speed: speed}}
			default:
				l.bot = &race.Bot{Speed: speed}
			}
			l.botGen++
			l.botStop = l.after(speed.Delay(), wake{kind: wakeBot, gen: l.botGen})
		}
	}
}

// offerClock makes a waiting rematch offer lapse once its time is up (at
// once when that time has passed, as for a table loaded late).
func (l *Live) offerClock() {
	g := l.host.Header()
	if l.eng().Options().RematchOf == "" || l.offerStop != nil || g.Status != "waiting" {
		return
	}
	left := max(0, g.CreatedAt.Add(l.cfg.RematchTimeout).Sub(l.now()))
	l.offerStop = l.after(left, wake{kind: wakeLapse})
}

// due runs a timer that came due, on the table's goroutine: the turn
// clock's pass, the bot's move, a rematch offer's lapse. Once the live
// side has stopped it does nothing.
func (l *Live) due(w wake) {
	if l.stopped {
		return
	}
	switch w.kind {
	case wakeClock:
		if seat, pass := l.turnClock(w.turns); pass {
			_ = l.host.Act(seat, klondike.Simple(klondike.Pass))
		}
	case wakeBot:
		if l.botStop != nil && l.botGen == w.gen {
			l.botStop = nil
			l.botMove()
		}
	case wakeLapse:
		l.lapse()
	}
}

// turnClock is the turn clock set after turns turn changes come due: it
// returns the seat on turn and true when that seat's time ran out and it
// must pass. It returns false when the turn ended in time, and sets the
// clock again when it came early.
func (l *Live) turnClock(turns int) (seat int, pass bool) {
	e := l.eng()
	if e.Turns() != turns || e.Status() != "playing" {
		return 0, false // the turn ended in time
	}
	if left := l.deadline.Sub(l.now()); left > 0 {
		l.clockStop = l.after(left, wake{kind: wakeClock, turns: turns})
		return 0, false
	}
	l.clockStop = nil
	l.turnCount = -2 // set a new deadline even if the pass is refused
	return e.Race().Turn(), true
}

// lapse ends a rematch offer nobody answered in time: the race is over
// without a result, as a declined one, and the race it was offered after
// is told.
func (l *Live) lapse() {
	l.offerStop = nil
	g := *l.host.Header()
	if g.Status != "waiting" {
		return // answered meanwhile
	}
	g.Status, g.UpdatedAt = "over", l.now()
	ctx, cancel := context.WithTimeout(context.Background(), l.cfg.StoreTimeout)
	defer cancel()
	if err := l.cfg.Store.UpdateGame(ctx, g); err != nil {
		l.cfg.Logger.Error("racelive: a rematch offer lapses", "game", l.host.ID(), "err", err)
		return
	}
	l.host.SetHeader(g)
	l.Cancelled()
	if l.cfg.RematchLapsed != nil {
		l.cfg.RematchLapsed(l.eng().Options().RematchOf)
	}
}

func (l *Live) stopClock() {
	if l.clockStop != nil {
		l.clockStop()
		l.clockStop = nil
	}
}

func (l *Live) stopBot() {
	if l.botStop != nil {
		l.botStop()
		l.botStop = nil
	}
}
