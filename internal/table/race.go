package table

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/hint"
	"dsol/internal/klondike"
	"dsol/internal/race"
	"dsol/internal/store"
)

// BotPlayerID is the player row of the server's bot, which holds seat 2 of
// the races played against the computer (named game.BotName).
const BotPlayerID = store.BotPlayerID

// NextRaceID is the id of the race offered after race id (its rematch or the
// next game of its series): one per race, so that both players asking get
// the same one.
func NextRaceID(id string) string {
	h := sha256.Sum256([]byte("dsol rematch\x00" + id))
	return base64.RawURLEncoding.EncodeToString(h[:12])
}

// DefaultRematchTimeout is how long a rematch offer waits for an answer.
const DefaultRematchTimeout = 60 * time.Second

// rematchOf tells where the race offered after another stands; an offer
// still waiting lapses timeout after it was made.
func rematchOf(next store.Game, timeout time.Duration) *RematchView {
	o, _ := game.ParseRaceOptions(next.Options)
	v := &RematchView{ID: next.ID, By: o.OfferedBy, Status: "accepted"}
	switch {
	case next.Status == "waiting":
		v.Status = "offered"
		exp := next.CreatedAt.Add(timeout).UTC()
		v.Expires = &exp
	case next.Status == "over" && len(next.Result) == 0:
		// ended unanswered: declined, or lapsed when it ended at its time
		v.Status = "declined"
		if !next.UpdatedAt.Before(next.CreatedAt.Add(timeout)) {
			v.Status = "lapsed"
		}
	}
	return v
}

// offerClock makes a waiting rematch offer lapse once its time is up (at
// once when that time has passed, as for a table loaded late): the race is
// then over without a result, as a declined one, and the race it was
// offered after is told.
func (l *raceLive) offerClock() {
	t, e := l.t, l.eng()
	if e.opts.RematchOf == "" || l.offerStop != nil || t.Game().Status != "waiting" {
		return
	}
	left := max(0, t.Game().CreatedAt.Add(t.cfg.RematchTimeout).Sub(l.now()))
	l.offerStop = t.cfg.AfterFunc(left, func() { _ = t.call(context.Background(), l.lapse) })
}

// lapse ends a rematch offer nobody answered in time.
func (l *raceLive) lapse() {
	t := l.t
	l.offerStop = nil
	g := t.Game()
	if t.rl != l || g.Status != "waiting" {
		return // answered meanwhile, or the table moved on
	}
	g.Status, g.UpdatedAt = "over", l.now()
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	if err := t.cfg.Store.UpdateGame(ctx, g); err != nil {
		t.cfg.Logger.Error("table: a rematch offer lapses", "game", t.id, "err", err)
		return
	}
	t.game.Store(&g)
	if !l.over && t.eng.Status() == "over" {
		l.over = true
		t.notify(&Notice{Type: "over"})
	}
	t.cfg.rematchLapsed(l.eng().opts.RematchOf)
}

// loadRematch reads the rematch offered after this race, if any.
func (l *raceLive) loadRematch(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, l.t.cfg.StoreTimeout)
	defer cancel()
	next, err := l.t.cfg.Store.Game(ctx, NextRaceID(l.t.id))
	switch {
	case errors.Is(err, store.ErrNotFound):
		l.rematch = nil
		return nil
	case err != nil:
		return err
	}
	l.rematch = rematchOf(next, l.t.cfg.RematchTimeout)
	return nil
}

// RematchChanged tells a finished race's table that the rematch offered
// after it was offered, accepted or declined: the table reads it again and
// sends its subscribers {"type": "rematch", "rematch"}.
func (r *Registry) RematchChanged(ctx context.Context, id string) error {
	return r.headerChanged(ctx, id, func(t *Table, l *raceLive, _ store.Game) error {
		if err := l.loadRematch(ctx); err != nil {
			return err
		}
		t.notify(&Notice{Type: "rematch", Rematch: l.rematch})
		return nil
	})
}

// EngineOptions maps stored race options to the engine's. Options the
// engine does not take are refused as game.RaceOptions.Check words it.
func EngineOptions(o game.RaceOptions) (race.Options, error) {
	t, okTurns := race.ParseTurns(o.Turns)
	first, okFirst := race.ParseFirst(o.First)
	if !okTurns || !okFirst {
		if err := o.Check(); err != nil {
			return race.Options{}, err
		}
		return race.Options{}, game.Errorf(game.BadRequest, "the race options %q and %q are not the engine's", o.Turns, o.First)
	}
	opts := race.Options{Turns: t, First: first, SoloOutBonus: o.SoloOutBonus, Series: o.Series}
	if t == race.Alternating {
		opts.FirstSeat = o.FirstSeat
	}
	return opts, nil
}

// RaceSeatView is one seat of the race view: the engine's seat view plus the
// player, whether they are connected, and when the opponent may claim the win
// if they are not.
type RaceSeatView struct {
	Player *game.PlayerRef `json:"player"`
	race.SeatView
	Online  bool       `json:"online"`
	Bot     bool       `json:"bot,omitempty"`
	ClaimAt *time.Time `json:"claimAt,omitempty"`
}

// SeriesView is the series a race belongs to: its length, the index of this
// game (1-based) and each seat's cards on the foundations over the finished
// games. Winner is set once the series is done (null: tied totals).
type SeriesView struct {
	ID     string `json:"id"`
	Games  int    `json:"games"`
	Index  int    `json:"index"`
	Totals [2]int `json:"totals"`
	Done   bool   `json:"done"`
	Winner *int   `json:"winner,omitempty"`
}

// RaceView is the race view: the engine's view plus the game id, the seq,
// the "waiting" status, the players, presence, the viewer's seat (you: null
// for a spectator), the disconnect grace, the turn clock, the series and the
// fairness keys. Invite is set only in the creator's answer to POST
// /api/v1/races.
//
// Commitment is SHA-256 of the code and the race's secret salt
// (cards.Commitment), shown from creation on; Code and Salt are shown only
// once the race is over, so that nothing sent during play tells the deal and
// anyone can check afterwards that it was fixed before the first move.
// ChosenDeal marks a race created from a code its creator chose.
type RaceView struct {
	ID         string `json:"id"`
	Seq        int64  `json:"seq"`
	Code       string `json:"code,omitempty"`
	Salt       string `json:"salt,omitempty"`
	Commitment string `json:"commitment"`
	ChosenDeal bool   `json:"chosenDeal"`
	race.View
	Status       string         `json:"status"`
	Seats        []RaceSeatView `json:"seats"`
	You          *int           `json:"you"`
	First        string         `json:"first,omitempty"`
	GraceSeconds int            `json:"graceSeconds"`
	ClaimAt      *time.Time     `json:"claimAt,omitempty"` // when the viewer may claim (opponent away)
	TurnSeconds  int            `json:"turnSeconds,omitempty"`
	TurnDeadline *time.Time     `json:"turnDeadline,omitempty"`
	Bot          string         `json:"bot,omitempty"`
	Series       SeriesView     `json:"series"`
	Invite       string         `json:"invite,omitempty"`
	// Cancelled is set on a race its creator cancelled while it waited: its
	// status is "over" and it has no result (a declined rematch too).
	Cancelled bool `json:"cancelled,omitempty"`
	// RematchOf names the race this one was offered after (see
	// game.RaceOptions.RematchOf); Rematch, on a finished race, the rematch one
	// of its players offered and where it stands.
	RematchOf string       `json:"rematchOf,omitempty"`
	Rematch   *RematchView `json:"rematch,omitempty"`
	// OfferExpires is when this race, a rematch offer still waiting for an
	// answer, lapses.
	OfferExpires *time.Time `json:"offerExpires,omitempty"`
	// Ratings is each seat's rating before and after the race, once it is
	// over and rated (see rated.go); absent otherwise.
	Ratings []SeatRating `json:"ratings,omitempty"`
}

// RematchView is the rematch offered after a race: the next race's id, the
// seat that offered it, and "offered", "accepted", "declined" or "lapsed"
// (unanswered in time).
type RematchView struct {
	ID     string `json:"id"`
	By     int    `json:"by"`
	Status string `json:"status"`
	// Expires is when an offer still waiting lapses.
	Expires *time.Time `json:"expires,omitempty"`
}

// Notice is a message of a table that is not an event of the log, ready to be
// sent as is on the WebSocket: {"type": "presence", "seat", "online",
// "claimAt", "graceSeconds"}, {"type": "over", "result", "ratings"}
// (ratings only when the race is rated), or a solo game's live check
// {"type": "check", "seq", "stillWinnable"} (check.go).
type Notice struct {
	Type         string          `json:"type"`
	Seat         int             `json:"seat,omitempty"`
	Online       *bool           `json:"online,omitempty"`
	ClaimAt      *time.Time      `json:"claimAt,omitempty"`
	GraceSeconds int             `json:"graceSeconds,omitempty"`
	Result       json.RawMessage `json:"result,omitempty"`
	Rematch      *RematchView    `json:"rematch,omitempty"`
	Ratings      []SeatRating    `json:"ratings,omitempty"`
	// Seq and StillWinnable are a check's: the seq of the view it decided,
	// and true, false or null.
	Seq           *int64          `json:"seq,omitempty"`
	StillWinnable json.RawMessage `json:"stillWinnable,omitempty"`
}

// raceEngine adapts race.Race to Engine.
type raceEngine struct {
	r          *race.Race
	opts       game.RaceOptions
	code, salt string // shown once the race is over
	secret     bool   // a server-dealt DR2 code, not a numbered one
	commitment string
	turns      int       // turn changes so far (alternating)
	live       *raceLive // nil while the log replays: no clock rules then
}

// NewRace builds the engine of a race header.
func NewRace(h store.Game) (Engine, error) {
	code, err := cards.ParseCode(h.Code)
	if err != nil {
		return nil, err
	}
	if code.Kind != cards.Race {
		return nil, fmt.Errorf("table: game %s: its code is not a race code", h.ID) // never the code: it tells the deal
	}
	o, err := game.ParseRaceOptions(h.Options)
	if err != nil {
		return nil, err
	}
	eo, err := EngineOptions(o)
	if err != nil {
		return nil, err
	}
	r, err := race.New(code, eo)
	if err != nil {
		return nil, err
	}
	salt := hex.EncodeToString(h.Salt)
	return &raceEngine{r: r, opts: o, code: code.String(), salt: salt, secret: code.Secret,
		commitment: cards.Commitment(code.String(), h.Salt)}, nil
}

var (
	errWaiting = &klondike.Error{Code: klondike.NotYourTurn, Msg: "the race starts when the second player joins"}
	errRaceOn  = &klondike.Error{Code: klondike.GameOver, Msg: "the race is over"}
)

func (e *raceEngine) waiting() bool {
	return e.live != nil && e.live.t.Game().Status == "waiting"
}

// cancelled reports whether the race ended while it waited: its creator
// cancelled it (store.Store.CancelRace), or the rematch it offered was
// declined. The header says over and the log did not end it.
func (e *raceEngine) cancelled() bool {
	return e.live != nil && e.r.Status() != race.Over && e.live.t.Game().Status == "over"
}

func (e *raceEngine) Check(seat int) error {
	if e.r.Status() == race.Over || e.cancelled() {
		return errRaceOn
	}
	if e.waiting() {
		return errWaiting
	}
	return nil
}

func (e *raceEngine) Apply(seat int, a klondike.Action) (Outcome, error) {
	if l := e.live; l != nil {
		if e.waiting() {
			return Outcome{}, errWaiting
		}
		if a.Type == klondike.Claim && e.r.Status() == race.Playing {
			if err := l.mayClaim(seat); err != nil {
				return Outcome{}, err
			}
		}
	}
	out, err := e.r.Apply(seat, a)
	if err != nil {
		return Outcome{}, err
	}
	if out.TurnEnded {
		e.turns++
	}
	if l := e.live; l != nil {
		l.seen[seat-1] = l.now()
	}
	return Outcome{Action: out.Action}, nil
}

func (e *raceEngine) View(viewer int, id string, seq int64) View {
	v := RaceView{ID: id, Seq: seq, View: e.r.View(viewer), Status: e.Status(),
		Series: SeriesView{Games: e.opts.Series, Index: 1}, Bot: e.opts.Bot,
		Commitment: e.commitment, ChosenDeal: e.opts.Chosen}
	if v.Status == "over" {
		v.Code, v.Salt = e.code, e.salt
	}
	if viewer == 1 || viewer == 2 {
		you := viewer
		v.You = &you
	}
	if v.Turns == "alternating" {
		v.First = e.opts.First
		if v.First == "" {
			v.First = "random"
		}
		v.TurnSeconds = e.opts.TurnSeconds
	}
	v.Seats = make([]RaceSeatView, len(v.View.Seats))
	for i := range v.Seats {
		v.Seats[i] = RaceSeatView{SeatView: v.View.Seats[i]}
	}
	if l := e.live; l != nil {
		l.fill(&v, viewer)
	}
	if v.Status == "waiting" || e.cancelled() {
		v.Turn = nil
	}
	v.Cancelled = e.cancelled()
	v.RematchOf = e.opts.RematchOf
	if l := e.live; l != nil && v.RematchOf != "" && v.Status == "waiting" {
		exp := l.t.Game().CreatedAt.Add(l.t.cfg.RematchTimeout).UTC()
		v.OfferExpires = &exp
	}
	if l := e.live; l != nil && l.rematch != nil {
		r := *l.rematch
		v.Rematch = &r
	}
	if l := e.live; l != nil && v.Status == "over" {
		v.Ratings = slices.Clone(l.ratings)
	}
	return v
}

func (e *raceEngine) Status() string {
	if e.r.Status() == race.Over || e.cancelled() {
		return "over"
	}
	if e.waiting() {
		return "waiting"
	}
	return "playing"
}

func (e *raceEngine) Result() []byte {
	if e.r.Status() != race.Over {
		return nil
	}
	b, _ := json.Marshal(e.r.View(0).Result)
	return b
}

// raceLive is the live side of a race table, owned by the table goroutine:
// the players, which seats are connected, since when a seat is away, the turn
// clock, the bot and the series totals. Nothing of it is in the log; the
// actions it causes (a pass when the turn clock runs out, the bot's moves, a
// claim) are.
type raceLive struct {
	t       *Table
	players [2]game.PlayerRef
	online  [2]bool
	seen    [2]time.Time // last connection or action of each seat
	started bool         // the race was playing when last looked at

	turnCount   int // e.turns when the turn clock was last set
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
	rematch     *RematchView // the rematch offered after this race, once over; nil: none
	ratings     []SeatRating // the seats' ratings before and after, once over and rated
}

func (l *raceLive) now() time.Time { return l.t.cfg.Clock() }

func (l *raceLive) eng() *raceEngine { return l.t.eng.(*raceEngine) }

// isBot reports whether seat is played by the server's bot.
func (l *raceLive) isBot(seat int) bool {
	return l.t.Game().Seats[seat-1] == BotPlayerID
}

// claimAt returns when the opponent may claim the win over an absent seat
// (zero: the seat is connected, a bot, or the race is not in play).
func (l *raceLive) claimAt(seat int) time.Time {
	if l.online[seat-1] || l.isBot(seat) || l.eng().Status() != "playing" {
		return time.Time{}
	}
	return l.seen[seat-1].Add(l.t.cfg.Grace)
}

// mayClaim refuses a claim by seat before the opponent's grace has run out.
func (l *raceLive) mayClaim(seat int) error {
	opp := 3 - seat
	at := l.claimAt(opp)
	switch {
	case at.IsZero():
		return game.Errorf(game.Conflict, "your opponent is connected: there is no win to claim")
	case l.now().Before(at):
		return game.Errorf(game.Conflict, "your opponent may still come back: you can claim the win from %s", at.UTC().Format(time.RFC3339))
	}
	return nil
}

// fill adds the live state to a view.
func (l *raceLive) fill(v *RaceView, viewer int) {
	v.GraceSeconds = int(l.t.cfg.Grace / time.Second)
	for i := range v.Seats {
		s := &v.Seats[i]
		if l.players[i].ID != "" {
			p := l.players[i]
			s.Player = &p
		}
		s.Bot = l.isBot(i + 1)
		if s.Player != nil {
			s.Player.Bot = s.Bot
		}
		s.Online = l.online[i] || s.Bot
		if at := l.claimAt(i + 1); !at.IsZero() {
			at = at.UTC()
			s.ClaimAt = &at
			if viewer == 2-i {
				v.ClaimAt = &at
			}
		}
	}
	if !l.deadline.IsZero() && v.Status == "playing" {
		d := l.deadline.UTC()
		v.TurnDeadline = &d
	}
	v.Series.ID, v.Series.Index, v.Series.Totals = l.seriesID, l.seriesIndex, l.prevTotals
	if res := l.eng().r.Result(); res.Reason != race.NotOver {
		v.Series.Totals[0] += res.Counts[0]
		v.Series.Totals[1] += res.Counts[1]
		if v.Series.Index >= v.Series.Games {
			v.Series.Done = true
			if t := v.Series.Totals; t[0] != t[1] {
				w := 1
				if t[1] > t[0] {
					w = 2
				}
				v.Series.Winner = &w
			}
		}
	}
}

// raceInit sets up the live state of a race table just loaded: players,
// presence, series totals, the turn clock and the bot.
func (t *Table) raceInit(ctx context.Context) error {
	g := t.Game()
	if g.Kind != "race" {
		return nil
	}
	l := &raceLive{t: t, botIdle: -1}
	now := t.cfg.Clock()
	l.seen = [2]time.Time{now, now}
	t.rl = l
	t.raceAttach()
	if err := l.loadHeader(ctx, g); err != nil {
		return err
	}
	if t.cfg.Hooks.Races != nil {
		t.cfg.Hooks.Races(1)
	}
	l.over = t.eng.Status() == "over"
	if l.over {
		if err := l.loadRematch(ctx); err != nil {
			return err
		}
		if err := l.loadRatings(ctx); err != nil {
			return err
		}
	}
	l.schedule()
	return nil
}

// seatPlayers reads the players of a race's seats (an empty seat is the
// zero game.PlayerRef).
func seatPlayers(ctx context.Context, st store.Store, g store.Game) ([2]game.PlayerRef, error) {
	var out [2]game.PlayerRef
	for i, id := range g.Seats {
		switch id {
		case "":
		case BotPlayerID:
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

// loadHeader reads the players' names and the series totals.
func (l *raceLive) loadHeader(ctx context.Context, g store.Game) error {
	ctx, cancel := context.WithTimeout(ctx, l.t.cfg.StoreTimeout)
	defer cancel()
	players, err := seatPlayers(ctx, l.t.cfg.Store, g)
	if err != nil {
		return err
	}
	l.players = players
	l.seriesID, l.seriesIndex = g.SeriesID, max(g.SeriesGame, 1)
	l.prevTotals = [2]int{}
	prev := l.eng().opts.Prev
	for n := 0; prev != "" && n < 100; n++ {
		pg, err := l.t.cfg.Store.Game(ctx, prev)
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

// raceAttach gives a freshly built race engine the table's live state, once
// its log has replayed.
func (t *Table) raceAttach() {
	if t.rl == nil {
		return
	}
	if e, ok := t.eng.(*raceEngine); ok {
		e.live = t.rl
	}
}

// raceStop cancels the race timers when the table stops.
func (t *Table) raceStop() {
	l := t.rl
	if l == nil {
		return
	}
	l.stopClock()
	l.stopBot()
	if l.offerStop != nil {
		l.offerStop()
		l.offerStop = nil
	}
	if t.cfg.Hooks.Races != nil {
		t.cfg.Hooks.Races(-1)
	}
	t.rl = nil
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

// raceAfter runs after every handled batch: it tells subscribers of the end
// of the race, sets the turn clock and wakes the bot.
func (t *Table) raceAfter() {
	l := t.rl
	if l == nil {
		return
	}
	if !l.over && t.eng.Status() == "over" {
		l.over = true
		t.notify(&Notice{Type: "over", Result: t.eng.Result(), Ratings: slices.Clone(l.ratings)})
	}
	t.racePresence()
	l.schedule()
}

// schedule sets or cancels the turn clock and the bot's next move.
func (l *raceLive) schedule() {
	t := l.t
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
	if e.opts.TurnSeconds > 0 && e.r.Turn() != 0 && l.turnCount != e.turns {
		l.stopClock()
		l.turnCount = e.turns
		d := time.Duration(e.opts.TurnSeconds) * time.Second
		l.deadline = l.now().Add(d)
		turns := e.turns
		l.clockStop = t.cfg.AfterFunc(d, func() { _ = t.call(context.Background(), func() { l.turnClock(turns) }) })
	}
	if e.opts.Bot != "" && l.isBot(2) && l.botStop == nil && l.botIdle != t.seq {
		if turn := e.r.Turn(); turn == 0 || turn == 2 {
			speed, _ := race.ParseSpeed(e.opts.Bot)
			switch {
			case l.bot != nil || l.strong != nil:
			case speed == race.Strong:
				l.strong = &race.StrongBot{Plain: race.Bot{Speed: speed}}
			default:
				l.bot = &race.Bot{Speed: speed}
			}
			l.botGen++
			gen := l.botGen
			l.botStop = t.cfg.AfterFunc(speed.Delay(), func() {
				_ = t.call(context.Background(), func() {
					if l.botStop != nil && l.botGen == gen && t.rl == l {
						l.botStop = nil
						l.botMove()
					}
				})
			})
		}
	}
}

// turnClock passes for the seat on turn when its time ran out.
func (l *raceLive) turnClock(turns int) {
	t := l.t
	if t.rl != l {
		return
	}
	e := l.eng()
	if e.turns != turns || e.Status() != "playing" {
		return // the turn ended in time
	}
	if left := l.deadline.Sub(l.now()); left > 0 {
		l.clockStop = t.cfg.AfterFunc(left, func() { _ = t.call(context.Background(), func() { l.turnClock(turns) }) })
		return
	}
	l.clockStop = nil
	l.turnCount = -2 // set a new deadline even if the pass is refused
	t.serverAction(e.r.Turn(), klondike.Simple(klondike.Pass))
}

// botMove applies the bot's next action for seat 2; the strong bot's, when
// it wants a hint, once its search has come back (think).
func (l *raceLive) botMove() {
	s := l.eng().r.Seen(2)
	switch {
	case l.strong == nil:
		l.botAct(l.bot.Next(s))
	case l.strong.Wants(s):
		l.think(s)
	default:
		l.botAct(l.strong.Play(s, hint.Hint{}))
	}
}

// botAct applies the bot's action a for seat 2, or with none (ok false)
// waits for the opponent's next action.
func (l *raceLive) botAct(a klondike.Action, ok bool) {
	t := l.t
	if !ok {
		l.botIdle = t.seq // wait for the opponent's next action
		return
	}
	if err := t.serverAction(2, a); err != nil {
		l.botIdle = t.seq
	}
}

// serverAction applies an action the server makes for a seat (turn clock,
// bot) through the same path as a player's: committed, logged, published.
func (t *Table) serverAction(seat int, a klondike.Action) error {
	var err error
	t.handle([]*doReq{{ctx: context.Background(), cmd: Command{Seat: seat, Action: a},
		answer: func(_ Result, e error) { err = e }}})
	if err != nil && AsError(err).Code != game.Conflict {
		t.cfg.Logger.Warn("table: server action refused", "game", t.id, "seat", seat,
			"action", a.Type.String(), "err", err)
	}
	return err
}

// racePresence recounts the seats' live subscriptions and tells every
// subscriber of a change.
func (t *Table) racePresence() {
	l := t.rl
	if l == nil {
		return
	}
	for range 4 { // a notice may drop slow subscribers, which may change presence again
		var on [2]bool
		for s := range t.subs {
			if s.viewer == 1 || s.viewer == 2 {
				on[s.viewer-1] = true
			}
		}
		changed := false
		for i := range on {
			if on[i] == l.online[i] {
				continue
			}
			l.online[i] = on[i]
			l.seen[i] = l.now()
			changed = true
			online := on[i]
			n := &Notice{Type: "presence", Seat: i + 1, Online: &online,
				GraceSeconds: int(t.cfg.Grace / time.Second)}
			if at := l.claimAt(i + 1); !at.IsZero() {
				at = at.UTC()
				n.ClaimAt = &at
			}
			t.notify(n)
		}
		if !changed {
			return
		}
	}
}

// notify sends a notice to every subscriber; a full subscriber is dropped.
func (t *Table) notify(n *Notice) {
	for s := range t.subs {
		select {
		case s.c <- Update{Notice: n}:
		default:
			t.drop(s, ErrSlow)
		}
	}
}

// Presence returns which seats of a race have a live subscription (the bot's
// seat counts as connected).
func (t *Table) Presence(ctx context.Context) ([2]bool, error) {
	var on [2]bool
	err := t.call(ctx, func() {
		if l := t.rl; l != nil {
			for i := range on {
				on[i] = l.online[i] || l.isBot(i+1)
			}
		}
	})
	return on, err
}
