package table

import (
	"context"
	"errors"
	"slices"

	"dsol/internal/store"
)

// Cancelled tells a race's table that its creator cancelled it while it
// waited (store.Store.CancelRace): the table reloads the header, so that the
// race is over with no result, and sends its subscribers {"type": "over"}
// with the view.
func (r *Registry) Cancelled(ctx context.Context, id string) error {
	return r.headerChanged(ctx, id, func(t *Table, l *raceLive, _ store.Game) error {
		if l.over || t.eng.Status() != "over" {
			return nil
		}
		l.over = true
		t.notify(&Notice{Type: "over"})
		l.schedule()
		return nil
	})
}

// headerChanged reloads the header of a game's table from the store, in the
// table's goroutine, and then, for a race, runs f there.
func (r *Registry) headerChanged(ctx context.Context, id string, f func(t *Table, l *raceLive, g store.Game) error) error {
	for {
		t, err := r.Get(ctx, id)
		if isElsewhere(err) {
			// Another node runs the game and was just asked to hand it
			// over: its table stops, and the one loaded next reads the new
			// header from the store.
			return nil
		}
		if err != nil {
			return err
		}
		var ierr error
		err = t.call(ctx, func() {
			g, err := t.cfg.Store.Game(ctx, id)
			if err != nil {
				ierr = err
				return
			}
			t.touch()
			t.game.Store(&g)
			if t.rl != nil {
				ierr = f(t, t.rl, g)
			}
		})
		if errors.Is(err, ErrStopped) {
			continue
		}
		if err != nil {
			return err
		}
		return ierr
	}
}

// Evict stops this node's live tables of the games ids, at once and
// whatever their subscribers (who reconnect), so that the next request
// builds each from the store again: for the games a deleted player's data
// took with it, or whose seat passed to store.DeletedPlayerID. Games not
// live here are left alone.
func (r *Registry) Evict(ids []string) {
	for _, t := range r.liveTables() {
		if slices.Contains(ids, t.id) {
			r.stopMoved(t, false)
		}
	}
}
