// Package racelive is the live side of a race, besides its log: its
// players, which seats are connected and since when a seat is away (and so
// when the opponent may claim the win), the turn clock, the server's bot,
// the series totals, the rematch offered after it and the ratings it moved.
// Nothing of it is in the log; the actions it causes (a pass when the turn
// clock runs out, the bot's moves) are, through its game's table (Host).
// A Live belongs to its table's goroutine: every method runs there, and its
// timers and the bot's searches come back there through Host.Call.
package racelive

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"time"

	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/hint"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/race"
	"dsol/internal/store"
)

// Host is the race's table, as its live side uses it.
type Host interface {
	// ID is the game's id, Seq its seq now, Header its header as last
	// stored or loaded (never changed in place) and SetHeader a new one.
	ID() string
	Seq() int64
	Header() *store.Game
	SetHeader(g store.Game)
	// Engine is the race's engine.
	Engine() *engine.Race
	// Subscribed reports which seats have a live subscription.
	Subscribed() [2]bool
	// Notify sends a notice to every subscriber.
	Notify(n *protocol.Notice)
	// Act applies an action the server makes for a seat through the same
	// path as a player's: committed, logged, published.
	Act(seat int, a klondike.Action) error
	// Call runs f on the table's goroutine (from a timer or a search; never
	// from that goroutine), or not at all once the table has stopped.
	Call(f func())
}

// Store is what the live side reads and writes of the store.
type Store interface {
	Player(ctx context.Context, id string) (store.Player, error)
	Game(ctx context.Context, id string) (store.Game, error)
	UpdateGame(ctx context.Context, g store.Game) error
	RaceRating(ctx context.Context, gameID string) (store.RaceRating, error)
}

// ThinkFunc works out the strong bot's hint for its seat (race.Think with
// race.StrongOptions) if one of the server's solver slots is free, and
// answers false at once when none is: the bot then plays its plain move
// for that turn rather than wait. It runs on a goroutine of its own, never
// the table's.
type ThinkFunc func(s race.Seen, seed uint64) (hint.Hint, bool)

// Config holds the live side's settings.
type Config struct {
	Store  Store
	Logger *slog.Logger
	// Clock is the time; AfterFunc runs f once d has passed on it.
	Clock     func() time.Time
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// Grace is how long a seated player may stay disconnected before the
	// opponent may claim the win; RematchTimeout how long a rematch offer
	// waits for an answer; StoreTimeout bounds a store call.
	Grace, RematchTimeout, StoreTimeout time.Duration
	// Think is how the strong bot's searches get a CPU; nil: each runs on
	// a goroutine of its own.
	Think ThinkFunc
	// RematchLapsed tells the race a rematch offer was made after that the
	// offer lapsed (its table is another: called off this one's goroutine).
	RematchLapsed func(old string)
}

// DefaultRematchTimeout is how long a rematch offer waits for an answer.
const DefaultRematchTimeout = 60 * time.Second

// Live is a race's live side.
type Live struct {
	host Host
	cfg  Config

	players [2]game.PlayerRef
	online  [2]bool
	seen    [2]time.Time // last connection or action of each seat
	started bool         // the race was playing when last looked at
	stopped bool

	turnCount   int // the engine's turns when the turn clock was last set
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

// New returns the live side of a race just loaded: both seats seen now.
// Attach its engine to it, then Load it.
func New(host Host, cfg Config) *Live {
	now := cfg.Clock()
	return &Live{host: host, cfg: cfg, botIdle: -1, seen: [2]time.Time{now, now}}
}

func (l *Live) now() time.Time { return l.cfg.Clock() }

func (l *Live) eng() *engine.Race { return l.host.Engine() }

// Header implements engine.RaceLive.
func (l *Live) Header() *store.Game { return l.host.Header() }

// MayClaim implements engine.RaceLive: a claim by seat before the
// opponent's grace has run out is refused.
func (l *Live) MayClaim(seat int) error {
	at := l.claimAt(3 - seat)
	switch {
	case at.IsZero():
		return game.Errorf(game.Conflict, "your opponent is connected: there is no win to claim")
	case l.now().Before(at):
		return game.Errorf(game.Conflict, "your opponent may still come back: you can claim the win from %s", at.UTC().Format(time.RFC3339))
	}
	return nil
}

// Acted implements engine.RaceLive.
func (l *Live) Acted(seat int) { l.seen[seat-1] = l.now() }

// isBot reports whether seat of the race with header g is played by the
// server's bot.
func isBot(g *store.Game, seat int) bool {
	return g.Seats[seat-1] == store.BotPlayerID
}

// claimAt returns when the opponent may claim the win over an absent seat
// (zero: the seat is connected, a bot, or the race is not in play).
func (l *Live) claimAt(seat int) time.Time {
	if l.online[seat-1] || isBot(l.host.Header(), seat) || l.eng().Status() != "playing" {
		return time.Time{}
	}
	return l.seen[seat-1].Add(l.cfg.Grace)
}

// Load reads what the live side of a race just loaded needs: the players,
// the series totals and, once over, the rematch and the ratings; then it
// sets the turn clock and the bot.
func (l *Live) Load(ctx context.Context) error {
	if err := l.LoadHeader(ctx, *l.host.Header()); err != nil {
		return err
	}
	l.over = l.eng().Status() == "over"
	if l.over {
		if err := l.loadRematch(ctx); err != nil {
			return err
		}
		if err := l.LoadRatings(ctx); err != nil {
			return err
		}
	}
	l.schedule()
	return nil
}

// LoadHeader reads the players' names and the series totals of header g.
func (l *Live) LoadHeader(ctx context.Context, g store.Game) error {
	ctx, cancel := context.WithTimeout(ctx, l.cfg.StoreTimeout)
	defer cancel()
	players, err := SeatPlayers(ctx, l.cfg.Store, g)
	if err != nil {
		return err
	}
	l.players = players
	l.seriesID, l.seriesIndex = g.SeriesID, max(g.SeriesGame, 1)
	l.prevTotals = [2]int{}
	prev := l.eng().Options().Prev
	for n := 0; prev != "" && n < 100; n++ {
		pg, err := l.cfg.Store.Game(ctx, prev)
		if errors.Is(err, store.ErrNotFound) {
			break
		}
		if err != nil {
			return err
		}
		var res struct {
			Counts [2]int `json:"counts"`
		}
		if len(pg.Result) > 0 && json.Unmarshal(pg.Result, &res) == nil {
			l.prevTotals[0] += res.Counts[0]
			l.prevTotals[1] += res.Counts[1]
		}
		o, _ := game.ParseRaceOptions(pg.Options)
		prev = o.Prev
	}
	return nil
}

// SeatPlayers reads the players of a race's seats (an empty seat is the
// zero game.PlayerRef).
func SeatPlayers(ctx context.Context, st interface {
	Player(ctx context.Context, id string) (store.Player, error)
}, g store.Game) ([2]game.PlayerRef, error) {
	var out [2]game.PlayerRef
	for i, id := range g.Seats {
		switch id {
		case "":
		case store.BotPlayerID:
			out[i] = game.PlayerRef{ID: id, Name: game.BotName, Bot: true}
		case store.DeletedPlayerID:
			out[i] = game.PlayerRef{ID: id, Name: game.DeletedName, Deleted: true}
		default:
			p, err := st.Player(ctx, id)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return out, err
			}
			out[i] = game.PlayerRef{ID: id, Name: p.Name}
		}
	}
	return out, nil
}

// loadRematch reads the rematch offered after this race, if any.
func (l *Live) loadRematch(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, l.cfg.StoreTimeout)
	defer cancel()
	next, err := l.cfg.Store.Game(ctx, game.NextRaceID(l.host.ID()))
	switch {
	case errors.Is(err, store.ErrNotFound):
		l.rematch = nil
		return nil
	case err != nil:
		return err
	}
	l.rematch = rematchOf(next, l.cfg.RematchTimeout)
	return nil
}

// RematchChanged reads again the rematch offered after the race, which was
// offered, accepted or declined, and tells the subscribers {"type":
// "rematch", "rematch"}.
func (l *Live) RematchChanged(ctx context.Context) error {
	if err := l.loadRematch(ctx); err != nil {
		return err
	}
	l.host.Notify(&protocol.Notice{Type: "rematch", Rematch: l.rematch})
	return nil
}

// LoadRatings reads the rating change of the finished race, for its view.
func (l *Live) LoadRatings(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, l.cfg.StoreTimeout)
	defer cancel()
	rr, err := l.cfg.Store.RaceRating(ctx, l.host.ID())
	switch {
	case errors.Is(err, store.ErrNotFound):
		l.ratings = nil
		return nil
	case err != nil:
		return err
	}
	l.ratings = nil
	if rr.Rated {
		l.ratings = []protocol.SeatRating{
			{Before: game.RoundRating(rr.Before[0].Rating), After: game.RoundRating(rr.After[0].Rating), Provisional: rr.After[0].Provisional()},
			{Before: game.RoundRating(rr.Before[1].Rating), After: game.RoundRating(rr.After[1].Rating), Provisional: rr.After[1].Provisional()},
		}
	}
	return nil
}

// Joined answers a header in which a second player took a seat, or the
// player offered a rematch accepted it: it loads the players, starts the
// race and tells the subscribers which seats are now taken.
func (l *Live) Joined(ctx context.Context, g store.Game) error {
	before := l.players
	if err := l.LoadHeader(ctx, g); err != nil {
		return err
	}
	// The seats taken now, or, when a rematch was accepted, both: each
	// player's page learns that the race started.
	seats := []int{}
	for i := range before {
		if before[i].ID == "" && g.Seats[i] != "" {
			seats = append(seats, i)
		}
	}
	if len(seats) == 0 {
		seats = []int{0, 1}
	}
	for _, i := range seats {
		l.seen[i] = l.now()
		on := l.online[i] || isBot(&g, i+1)
		l.host.Notify(&protocol.Notice{Type: "presence", Seat: i + 1, Online: &on, GraceSeconds: int(l.cfg.Grace / time.Second)})
	}
	l.schedule()
	return nil
}

// Cancelled answers a header by which the race ended while it waited (its
// creator cancelled it, or the rematch it offered was declined): over with
// no result, and its subscribers get {"type": "over"} with the view.
func (l *Live) Cancelled() {
	if l.over || l.eng().Status() != "over" {
		return
	}
	l.over = true
	l.host.Notify(&protocol.Notice{Type: "over"})
	l.schedule()
}

// After runs after every batch the table handled: it tells subscribers of
// the end of the race, recounts presence, sets the turn clock and wakes the
// bot.
func (l *Live) After() {
	if !l.over && l.eng().Status() == "over" {
		l.over = true
		l.host.Notify(&protocol.Notice{Type: "over", Result: l.eng().Result(), Ratings: slices.Clone(l.ratings)})
	}
	l.Presence()
	l.schedule()
}

// Presence recounts the seats' live subscriptions and tells every
// subscriber of a change.
func (l *Live) Presence() {
	for range 4 { // a notice may drop slow subscribers, which may change presence again
		on := l.host.Subscribed()
		changed := false
		for i := range on {
			if on[i] == l.online[i] {
				continue
			}
			l.online[i] = on[i]
			l.seen[i] = l.now()
			changed = true
			online := on[i]
			n := &protocol.Notice{Type: "presence", Seat: i + 1, Online: &online,
				GraceSeconds: int(l.cfg.Grace / time.Second)}
			if at := l.claimAt(i + 1); !at.IsZero() {
				at = at.UTC()
				n.ClaimAt = &at
			}
			l.host.Notify(n)
		}
		if !changed {
			return
		}
	}
}

// Online reports which seats are connected (the bot's seat counts as
// connected).
func (l *Live) Online() [2]bool {
	var on [2]bool
	for i := range on {
		on[i] = l.online[i] || isBot(l.host.Header(), i+1)
	}
	return on
}

// Stop cancels the live side's timers and drops what its searches answer,
// when its table stops.
func (l *Live) Stop() {
	l.stopped = true
	l.stopClock()
	l.stopBot()
	if l.offerStop != nil {
		l.offerStop()
		l.offerStop = nil
	}
}
