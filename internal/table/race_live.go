package table

import (
	"time"

	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/protocol"
	"dsol/internal/race"
	"dsol/internal/store"
)

// raceEnv is what the live state of a race is given at construction: its
// table's clock and timers, the disconnect grace, the rematch timeout, and
// wake, which hands a timer that came due to the table's goroutine
// (Table.raceDue) and does nothing once the table has stopped.
type raceEnv struct {
	now            func() time.Time
	afterFunc      func(d time.Duration, f func()) (stop func() bool)
	grace          time.Duration
	rematchTimeout time.Duration
	wake           func(w raceWake)
}

// raceWake is a timer of a race's live state that came due: the turn clock
// set after turns turn changes, the bot's move of generation gen, or the
// lapse of a waiting rematch offer.
type raceWake struct {
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

// raceLive is the live side of a race table, owned by the table goroutine:
// the players, which seats are connected, since when a seat is away, the turn
// clock, the bot and the series totals. Nothing of it is in the log; the
// actions it causes (a pass when the turn clock runs out, the bot's moves, a
// claim) are. It holds nothing of its table: the engine and the header it
// reads are passed to its methods, and its timers come back through
// env.wake.
type raceLive struct {
	env     raceEnv
	players [2]game.PlayerRef
	online  [2]bool
	seen    [2]time.Time // last connection or action of each seat
	started bool         // the race was playing when last looked at

	turnCount   int // e.Turns() when the turn clock was last set
	deadline    time.Time
	clockStop   func() bool
	bot         *race.Bot       // the plain bot of seat 2 ("slow", "normal", "fast")
	strong      *race.StrongBot // or the strong one ("strong")
	botStop     func() bool     // cancels the bot's timer, or drops its search's answer
	offerStop   func() bool     // a waiting rematch offer's lapse
	botGen      int
	botIdle     int64 // seq at which the bot had nothing to do (simultaneous); -1 none
	over        bool
	prevTotals  [2]int
	seriesID    string
	seriesIndex int
	rematch     *protocol.RematchView // the rematch offered after this race, once over; nil: none
	ratings     []protocol.SeatRating // the seats' ratings before and after, once over and rated
}

// newRaceLive returns the live state of a race just loaded: both seats seen
// now.
func newRaceLive(env raceEnv) *raceLive {
	now := env.now()
	return &raceLive{env: env, botIdle: -1, seen: [2]time.Time{now, now}}
}

func (l *raceLive) now() time.Time { return l.env.now() }

// after sets a timer that wakes the live state with w once d has passed.
func (l *raceLive) after(d time.Duration, w raceWake) func() bool {
	return l.env.afterFunc(d, func() { l.env.wake(w) })
}

// isBot reports whether seat of the race with header g is played by the
// server's bot.
func isBot(g *store.Game, seat int) bool {
	return g.Seats[seat-1] == BotPlayerID
}

// claimAt returns when the opponent may claim the win over an absent seat
// of race e, whose header is g (zero: the seat is connected, a bot, or the
// race is not in play).
func (l *raceLive) claimAt(seat int, e *engine.Race, g *store.Game) time.Time {
	if l.online[seat-1] || isBot(g, seat) || e.Status() != "playing" {
		return time.Time{}
	}
	return l.seen[seat-1].Add(l.env.grace)
}

// mayClaim refuses a claim by seat before the opponent's grace has run out.
func (l *raceLive) mayClaim(seat int, e *engine.Race, g *store.Game) error {
	opp := 3 - seat
	at := l.claimAt(opp, e, g)
	switch {
	case at.IsZero():
		return game.Errorf(game.Conflict, "your opponent is connected: there is no win to claim")
	case l.now().Before(at):
		return game.Errorf(game.Conflict, "your opponent may still come back: you can claim the win from %s", at.UTC().Format(time.RFC3339))
	}
	return nil
}

// schedule sets or cancels the turn clock and the bot's next move of race
// e, whose header is g, at the table's seq.
func (l *raceLive) schedule(e *engine.Race, g store.Game, seq int64) {
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
		l.offerClock(e, g)
		return
	}
	if e.Options().TurnSeconds > 0 && e.Race().Turn() != 0 && l.turnCount != e.Turns() {
		l.stopClock()
		l.turnCount = e.Turns()
		d := time.Duration(e.Options().TurnSeconds) * time.Second
		l.deadline = l.now().Add(d)
		l.clockStop = l.after(d, raceWake{kind: wakeClock, turns: e.Turns()})
	}
	if e.Options().Bot != "" && isBot(&g, 2) && l.botStop == nil && l.botIdle != seq {
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
			l.botStop = l.after(speed.Delay(), raceWake{kind: wakeBot, gen: l.botGen})
		}
	}
}

// offerClock makes a waiting rematch offer lapse once its time is up (at
// once when that time has passed, as for a table loaded late): the race is
// then over without a result, as a declined one, and the race it was
// offered after is told (Table.raceLapse).
func (l *raceLive) offerClock(e *engine.Race, g store.Game) {
	if e.Options().RematchOf == "" || l.offerStop != nil || g.Status != "waiting" {
		return
	}
	left := max(0, g.CreatedAt.Add(l.env.rematchTimeout).Sub(l.now()))
	l.offerStop = l.after(left, raceWake{kind: wakeLapse})
}

// turnClock is the turn clock set after turns turn changes come due in race
// e: it returns the seat on turn and true when that seat's time ran out and
// it must pass. It returns false when the turn ended in time, and sets the
// clock again when it came early.
func (l *raceLive) turnClock(e *engine.Race, turns int) (seat int, pass bool) {
	if e.Turns() != turns || e.Status() != "playing" {
		return 0, false // the turn ended in time
	}
	if left := l.deadline.Sub(l.now()); left > 0 {
		l.clockStop = l.after(left, raceWake{kind: wakeClock, turns: turns})
		return 0, false
	}
	l.clockStop = nil
	l.turnCount = -2 // set a new deadline even if the pass is refused
	return e.Race().Turn(), true
}

// stop cancels the live state's timers, when its table stops.
func (l *raceLive) stop() {
	l.stopClock()
	l.stopBot()
	if l.offerStop != nil {
		l.offerStop()
		l.offerStop = nil
	}
}

func (l *raceLive) stopClock() {
	if l.clockStop != nil {
		l.clockStop()
		l.clockStop = nil
	}
}

func (l *raceLive) stopBot() {
	if l.botStop != nil {
		l.botStop()
		l.botStop = nil
	}
}
