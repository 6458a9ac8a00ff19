package table

import (
	"context"
	"errors"
	"slices"

	"dsol/internal/ownership"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// cancelled is what a race's table does once its creator cancelled it
// while it waited (store.Store.CancelRace), or the rematch it offered was
// declined, and it read the header again: the race is over with no result,
// and its subscribers get {"type": "over"} with the view.
func cancelled(t *Table, l *raceLive, _ store.Game) error {
	if l.over || t.eng.Status() != "over" {
		return nil
	}
	l.over = true
	t.notify(&protocol.Notice{Type: "over"})
	t.raceSchedule(l)
	return nil
}

// headerChanged reloads the header of a game's table from the store, in the
// table's goroutine, and then, for a race, runs f there.
func (r *Registry) headerChanged(ctx context.Context, id string, f func(t *Table, l *raceLive, g store.Game) error) error {
	for {
		t, err := r.Get(ctx, id)
		if ownership.IsElsewhere(err) {
			// Another node runs the game and was just asked to hand it
			// over: its table stops, and the one loaded next reads the new
			// header from the store.
			return nil
		}
		if err != nil {
			return err
		}
		var ierr error
		err = t.call(ctx, func() { ierr = t.reread(ctx, f) })
		if errors.Is(err, protocol.ErrStopped) {
			continue
		}
		if err != nil {
			return err
		}
		return ierr
	}
}

// reread reads the table's header from the store again, on the table's
// goroutine, and then, for a race, runs f with it.
func (t *Table) reread(ctx context.Context, f func(t *Table, l *raceLive, g store.Game) error) error {
	g, err := t.cfg.Store.Game(ctx, t.id)
	if err != nil {
		return err
	}
	t.touch()
	t.game.Store(&g)
	if t.rl != nil {
		return f(t, t.rl, g)
	}
	return nil
}

// inTable runs f on the live table of game id, in its goroutine, and
// returns what f returns: f reads the header from the store, checks it,
// writes the store and changes the table (Table.reread), as one step in the
// order of the game's own actions. When another node runs the game (it was
// just asked to hand it over), f runs here with a nil table and writes the
// store alone: the table loaded next reads the new header.
func (r *Registry) inTable(ctx context.Context, id string, f func(t *Table) error) error {
	for {
		t, err := r.Get(ctx, id)
		if ownership.IsElsewhere(err) {
			return f(nil)
		}
		if err != nil {
			return err
		}
		var ferr error
		err = t.call(ctx, func() { ferr = f(t) })
		if errors.Is(err, protocol.ErrStopped) {
			continue
		}
		if err != nil {
			return err
		}
		return ferr
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
			r.stopMoved(t)
		}
	}
}
