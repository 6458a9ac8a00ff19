package live

import (
	"context"

	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/racelive"
	"dsol/internal/store"
)

// raceHost is a race's table as its live side (racelive.Live) uses it.
type raceHost struct{ t *Table }

func (h raceHost) ID() string                            { return h.t.id }
func (h raceHost) Seq() int64                            { return h.t.seq }
func (h raceHost) Header() *store.Game                   { return h.t.game.Load() }
func (h raceHost) SetHeader(g store.Game)                { h.t.game.Store(&g) }
func (h raceHost) Engine() *engine.Race                  { return h.t.eng.(*engine.Race) }
func (h raceHost) Notify(n *protocol.Notice)             { h.t.notify(n) }
func (h raceHost) Act(seat int, a klondike.Action) error { return h.t.serverAction(seat, a) }
func (h raceHost) Call(f func())                         { _ = h.t.call(context.Background(), f) }

func (h raceHost) Subscribed() [2]bool {
	var on [2]bool
	for _, s := range h.t.subs {
		if s.viewer == 1 || s.viewer == 2 {
			on[s.viewer-1] = true
		}
	}
	return on
}

// newRaceLive returns the live side of the table's race, attached to its
// engine.
func (t *Table) newRaceLive() *racelive.Live {
	c := t.cfg
	t.rl = racelive.New(raceHost{t}, racelive.Config{Store: c.Store, Logger: c.Logger,
		Clock: c.Clock, AfterFunc: c.AfterFunc, Grace: c.Grace, RematchTimeout: c.RematchTimeout,
		StoreTimeout: c.StoreTimeout, Think: c.Think, RematchLapsed: c.rematchLapsed})
	t.raceAttach()
	return t.rl
}

// raceInit sets up the live side of a race table just loaded: players,
// presence, series totals, the turn clock and the bot.
func (t *Table) raceInit(ctx context.Context) error {
	if t.Game().Kind != "race" {
		return nil
	}
	if err := t.newRaceLive().Load(ctx); err != nil {
		return err
	}
	if t.cfg.Hooks.Races != nil {
		t.cfg.Hooks.Races(1)
	}
	return nil
}

// raceAttach gives a freshly built race engine the table's live side, once
// its log has replayed.
func (t *Table) raceAttach() {
	if e, ok := t.eng.(*engine.Race); ok && t.rl != nil {
		e.Attach(t.rl)
	}
}

// raceStop cancels the race's timers when the table stops.
func (t *Table) raceStop() {
	if t.rl == nil {
		return
	}
	t.rl.Stop()
	if t.cfg.Hooks.Races != nil {
		t.cfg.Hooks.Races(-1)
	}
	t.rl = nil
}

// racePresence recounts the seats' live subscriptions of a race.
func (t *Table) racePresence() {
	if t.rl != nil {
		t.rl.Presence()
	}
}

// RematchChanged tells a finished race's table that the rematch offered
// after it was offered, accepted or declined: the table reads it again and
// sends its subscribers {"type": "rematch", "rematch"}.
func (r *Registry) RematchChanged(ctx context.Context, id string) error {
	return r.headerChanged(ctx, id, func(l *racelive.Live, _ store.Game) error {
		return l.RematchChanged(ctx)
	})
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
		if t.rl != nil {
			on = t.rl.Online()
		}
	})
	return on, err
}
