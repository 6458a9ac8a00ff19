package live

import (
	"context"
	"errors"
	"slices"

	"dsol/internal/ownership"
	"dsol/internal/protocol"
	"dsol/internal/racelive"
	"dsol/internal/store"
)

// Change is what changed in a race's stored header, which its table reads
// again (Table.Reread) and answers.
type Change int

const (
	// Joined: a second player took a seat, or the player offered a rematch
	// accepted it: the table loads the players, starts the race and tells
	// the subscribers.
	Joined Change = iota + 1
	// Cancelled: the race ended while it waited — its creator cancelled it,
	// or the rematch it offered was declined: the race is over with no
	// result, and its subscribers get {"type": "over"} with the view.
	Cancelled
)

// answer is what the race's live side does once its table read the header
// again after change.
func (change Change) answer(ctx context.Context) func(l *racelive.Live, g store.Game) error {
	if change == Joined {
		return func(l *racelive.Live, g store.Game) error { return l.Joined(ctx, g) }
	}
	return func(l *racelive.Live, _ store.Game) error { l.Cancelled(); return nil }
}

// HeaderChanged tells the table of game id, loading it if needed, that its
// header changed in the store as change says: it reads it again, in its
// goroutine, and answers (nothing when another node runs the game: the one
// that loads it next reads the header).
func (r *Registry) HeaderChanged(ctx context.Context, id string, change Change) error {
	return r.headerChanged(ctx, id, change.answer(ctx))
}

// headerChanged reloads the header of a game's table from the store, in the
// table's goroutine, and then, for a race, runs f there.
func (r *Registry) headerChanged(ctx context.Context, id string, f func(l *racelive.Live, g store.Game) error) error {
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

// Reread reads the table's header from the store again and answers change;
// it runs on the table's goroutine (inside Registry.InTable).
func (t *Table) Reread(ctx context.Context, change Change) error {
	return t.reread(ctx, change.answer(ctx))
}

// reread reads the table's header from the store again, on the table's
// goroutine, and then, for a race, runs f with it.
func (t *Table) reread(ctx context.Context, f func(l *racelive.Live, g store.Game) error) error {
	g, err := t.cfg.Store.Game(ctx, t.id)
	if err != nil {
		return err
	}
	t.touch()
	t.game.Store(&g)
	if t.rl != nil {
		return f(t.rl, g)
	}
	return nil
}

// InTable runs f on the live table of game id, in its goroutine, and
// returns what f returns: f reads the header from the store, checks it,
// writes the store and changes the table (Table.Reread), as one step in the
// order of the game's own actions. When another node runs the game (it was
// just asked to hand it over), f runs here with a nil table and writes the
// store alone: the table loaded next reads the new header.
func (r *Registry) InTable(ctx context.Context, id string, f func(t *Table) error) error {
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
