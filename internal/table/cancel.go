package table

import (
	"context"
	"errors"
)

// Cancelled tells a race's table that its creator cancelled it while it
// waited (store.Store.CancelRace): the table reloads the header, so that the
// race is over with no result, and sends its subscribers {"type": "over"}
// with the view.
func (r *Registry) Cancelled(ctx context.Context, id string) error {
	for {
		t, err := r.Get(ctx, id)
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
			l := t.rl
			if l == nil || l.over || t.eng.Status() != "over" {
				return
			}
			l.over = true
			t.notify(&Notice{Type: "over"})
			l.schedule()
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
