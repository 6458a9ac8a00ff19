package table

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/hint"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
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

// newRaceLive returns the live state of the table's race, whose timers
// wake it on the table's goroutine.
func (t *Table) newRaceLive() *raceLive {
	var l *raceLive
	l = newRaceLive(raceEnv{now: t.cfg.Clock, afterFunc: t.cfg.AfterFunc, grace: t.cfg.Grace,
		rematchTimeout: t.cfg.RematchTimeout,
		wake:           func(w raceWake) { _ = t.call(context.Background(), func() { t.raceDue(l, w) }) }})
	return l
}

// raceEng returns the engine of a race table.
func (t *Table) raceEng() *engine.Race { return t.eng.(*engine.Race) }

// raceSchedule sets or cancels the turn clock and the bot's next move.
func (t *Table) raceSchedule(l *raceLive) { l.schedule(t.raceEng(), t.Game(), t.seq) }

// raceInit sets up the live state of a race table just loaded: players,
// presence, series totals, the turn clock and the bot.
func (t *Table) raceInit(ctx context.Context) error {
	g := t.Game()
	if g.Kind != "race" {
		return nil
	}
	l := t.newRaceLive()
	t.rl = l
	t.raceAttach()
	if err := t.loadHeader(ctx, l, g); err != nil {
		return err
	}
	if t.cfg.Hooks.Races != nil {
		t.cfg.Hooks.Races(1)
	}
	l.over = t.eng.Status() == "over"
	if l.over {
		if err := t.loadRematch(ctx, l); err != nil {
			return err
		}
		if err := t.loadRatings(ctx, l); err != nil {
			return err
		}
	}
	t.raceSchedule(l)
	return nil
}

// SeatPlayers reads the players of a race's seats (an empty seat is the
// zero game.PlayerRef).
func SeatPlayers(ctx context.Context, st store.Store, g store.Game) ([2]game.PlayerRef, error) {
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

// loadHeader reads the players' names and the series totals of header g
// into the live state l.
func (t *Table) loadHeader(ctx context.Context, l *raceLive, g store.Game) error {
	ctx, cancel := context.WithTimeout(ctx, t.cfg.StoreTimeout)
	defer cancel()
	players, err := SeatPlayers(ctx, t.cfg.Store, g)
	if err != nil {
		return err
	}
	l.players = players
	l.seriesID, l.seriesIndex = g.SeriesID, max(g.SeriesGame, 1)
	l.prevTotals = [2]int{}
	prev := t.raceEng().Options().Prev
	for n := 0; prev != "" && n < 100; n++ {
		pg, err := t.cfg.Store.Game(ctx, prev)
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

// loadRematch reads the rematch offered after this race, if any, into the
// live state l.
func (t *Table) loadRematch(ctx context.Context, l *raceLive) error {
	ctx, cancel := context.WithTimeout(ctx, t.cfg.StoreTimeout)
	defer cancel()
	next, err := t.cfg.Store.Game(ctx, NextRaceID(t.id))
	switch {
	case errors.Is(err, store.ErrNotFound):
		l.rematch = nil
		return nil
	case err != nil:
		return err
	}
	l.rematch = rematchOf(next, t.cfg.RematchTimeout)
	return nil
}

// RematchChanged tells a finished race's table that the rematch offered
// after it was offered, accepted or declined: the table reads it again and
// sends its subscribers {"type": "rematch", "rematch"}.
func (r *Registry) RematchChanged(ctx context.Context, id string) error {
	return r.headerChanged(ctx, id, func(t *Table, l *raceLive, _ store.Game) error {
		if err := t.loadRematch(ctx, l); err != nil {
			return err
		}
		t.notify(&protocol.Notice{Type: "rematch", Rematch: l.rematch})
		return nil
	})
}

// raceAttach gives a freshly built race engine the table's live state, once
// its log has replayed.
func (t *Table) raceAttach() {
	if t.rl == nil {
		return
	}
	if e, ok := t.eng.(*engine.Race); ok {
		e.Attach(raceSide{t, t.rl})
	}
}

// raceSide is a race table's live side as its engine reads it
// (engine.RaceLive).
type raceSide struct {
	t *Table
	l *raceLive
}

func (s raceSide) Header() *store.Game { return s.t.game.Load() }

func (s raceSide) MayClaim(seat int) error {
	return s.l.mayClaim(seat, s.t.raceEng(), s.t.game.Load())
}

func (s raceSide) Acted(seat int) { s.l.seen[seat-1] = s.l.now() }

func (s raceSide) Fill(v *protocol.RaceView, viewer int) {
	s.l.fill(v, viewer, s.t.raceEng(), s.t.game.Load())
}

// raceStop cancels the race timers when the table stops.
func (t *Table) raceStop() {
	l := t.rl
	if l == nil {
		return
	}
	l.stop()
	if t.cfg.Hooks.Races != nil {
		t.cfg.Hooks.Races(-1)
	}
	t.rl = nil
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
		t.notify(&protocol.Notice{Type: "over", Result: t.eng.Result(), Ratings: slices.Clone(l.ratings)})
	}
	t.racePresence()
	t.raceSchedule(l)
}

// raceDue runs a timer of the live state l that came due, on the table's
// goroutine: the turn clock's pass, the bot's move, a rematch offer's
// lapse. A live state the table no longer runs is left alone.
func (t *Table) raceDue(l *raceLive, w raceWake) {
	if t.rl != l {
		return
	}
	switch w.kind {
	case wakeClock:
		if seat, pass := l.turnClock(t.raceEng(), w.turns); pass {
			_ = t.serverAction(seat, klondike.Simple(klondike.Pass))
		}
	case wakeBot:
		if l.botStop != nil && l.botGen == w.gen {
			l.botStop = nil
			t.botMove(l)
		}
	case wakeLapse:
		t.raceLapse(l)
	}
}

// raceLapse ends a rematch offer nobody answered in time.
func (t *Table) raceLapse(l *raceLive) {
	l.offerStop = nil
	g := t.Game()
	if g.Status != "waiting" {
		return // answered meanwhile
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
		t.notify(&protocol.Notice{Type: "over"})
	}
	t.cfg.rematchLapsed(t.raceEng().Options().RematchOf)
}

// botMove applies the bot's next action for seat 2; the strong bot's, when
// it wants a hint, once its search has come back (think).
func (t *Table) botMove(l *raceLive) {
	s := t.raceEng().Race().Seen(2)
	switch {
	case l.strong == nil:
		a, ok := l.bot.Next(s)
		t.botAct(l, a, ok)
	case l.strong.Wants(s):
		t.think(l, s)
	default:
		a, ok := l.strong.Play(s, hint.Hint{})
		t.botAct(l, a, ok)
	}
}

// botAct applies the bot's action a for seat 2, or with none (ok false)
// waits for the opponent's next action.
func (t *Table) botAct(l *raceLive, a klondike.Action, ok bool) {
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
	t.handle([]*doReq{{ctx: context.Background(), cmd: protocol.Command{Seat: seat, Action: a},
		answer: func(_ protocol.Result, e error) { err = e }}})
	if err != nil && protocol.AsError(err).Code != game.Conflict {
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
		for _, s := range t.subs {
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
			n := &protocol.Notice{Type: "presence", Seat: i + 1, Online: &online,
				GraceSeconds: int(t.cfg.Grace / time.Second)}
			if at := l.claimAt(i+1, t.raceEng(), t.game.Load()); !at.IsZero() {
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
func (t *Table) notify(n *protocol.Notice) {
	for s := range t.subs.all() {
		if !s.push(protocol.Update{Notice: n}) {
			t.drop(s, protocol.ErrSlow)
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
				on[i] = l.online[i] || isBot(t.game.Load(), i+1)
			}
		}
	})
	return on, err
}
