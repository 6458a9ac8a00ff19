package live

import (
	"context"
	"errors"

	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/solo"
)

// CheckFunc decides whether a solo position can still be won (the live
// check): true, false, or nil when it cannot tell (a budget ran out, or ctx
// ended: a newer action came, or the table stopped). It runs on a goroutine
// of its own, never the table's, and may wait (for a free solver slot).
type CheckFunc func(ctx context.Context, b klondike.Board, f klondike.Foundations) *bool

// SetCheck turns the live check on for a solo game: stored first
// (store.SetChecked: the game counts as assisted from then on), then in the
// table, which starts checking its current position unless it is checking
// it already. It returns the player's view, stillWinnable still null until
// the answer comes (a "check" notice to the subscribers, and every view
// from then on until the next action).
func (t *Table) SetCheck(ctx context.Context) (protocol.View, error) {
	if t.Game().Kind != "solo" {
		return nil, game.Errorf(game.Forbidden, "the check is for solo games, not races")
	}
	sctx, cancel := context.WithTimeout(ctx, t.cfg.StoreTimeout)
	defer cancel()
	if err := t.cfg.Store.SetChecked(sctx, t.id); err != nil {
		return nil, err
	}
	var v protocol.View
	err := t.call(ctx, func() {
		t.touch()
		if g := *t.game.Load(); !g.Checked {
			g.Checked = true
			t.game.Store(&g)
		}
		if e, ok := t.eng.(*engine.Solo); ok && !e.Checked() {
			e.CheckOn()
			t.startCheck()
		}
		v = t.eng.View(1, t.id, t.seq)
	})
	return v, err
}

// SetCheck turns the live check on for a game (loading its table if
// needed, and again when the one it found stopped).
func (r *Registry) SetCheck(ctx context.Context, id string) (protocol.View, error) {
	for {
		t, err := r.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		v, err := t.SetCheck(ctx)
		if !errors.Is(err, protocol.ErrStopped) {
			return v, err
		}
	}
}

// startCheck begins the live check of the current position of a solo game
// with the check on, on the table's goroutine: the check of an earlier
// position is cancelled, the view's answer is null again, and the position
// (a copy) is decided off the table. The answer is kept only if no action
// came meanwhile; it then goes to the subscribers as a notice
// {"type":"check","seq":N,"stillWinnable":…}, and the viewers' delta bases
// at seq N take it, so that the next event's delta says when it changes.
func (t *Table) startCheck() {
	e, ok := t.eng.(*engine.Solo)
	if !ok || !e.Checked() {
		return
	}
	if t.checkStop != nil {
		t.checkStop()
		t.checkStop = nil
	}
	e.SetStill(nil, false)
	f := t.cfg.Check
	if f == nil || e.Game().Status() != solo.Playing {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.checkStop = cancel
	seq, b, found := t.seq, *e.Game().Board(), *e.Game().Foundations()
	go func() {
		v := f(ctx, b, found)
		_ = t.call(ctx, func() {
			e, ok := t.eng.(*engine.Solo)
			if ctx.Err() != nil || t.seq != seq || !ok {
				return
			}
			e.SetStill(v, true)
			for i := range t.views {
				if b := &t.views[i]; b.seq == seq {
					b.view = t.eng.View(b.viewer, t.id, seq)
				}
			}
			t.notify(checkNotice(seq, v))
		})
	}()
}

// checkNotice is the check message of the answer v for the view at seq.
func checkNotice(seq int64, v *bool) *protocol.Notice {
	return &protocol.Notice{Type: "check", Seq: &seq, StillWinnable: protocol.StillJSON(v)}
}

// answeredCheck returns the check message of the answer at the table's
// seq, or nil when no answer has come for it (the check is off, or still
// working): a new subscriber gets it after its view, since it may have
// missed the notice.
func (t *Table) answeredCheck() *protocol.Notice {
	if e, ok := t.eng.(*engine.Solo); ok {
		if v, answered := e.Still(); answered {
			return checkNotice(t.seq, v)
		}
	}
	return nil
}
