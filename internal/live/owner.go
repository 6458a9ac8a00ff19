package live

import (
	"context"
	"errors"

	"dsol/internal/protocol"
)

// Ownership across nodes (package ownership): a table loads only once this
// node holds its game's lease; the registry holds the leases of its live
// tables, and a table whose game moved to another node stops at once
// (stopMoved).

// stopMoved stops a table whose game is no longer this node's, at once and
// whatever its subscribers.
func (r *Registry) stopMoved(t *Table) {
	err := t.call(context.Background(), func() {
		t.stopping = true
		t.err = protocol.ErrMoved
	})
	if err != nil {
		return // stopped already
	}
	<-t.done
	r.forgetTable(t)
	if r.cfg.Hooks.Moved != nil {
		r.cfg.Hooks.Moved()
	}
}

// liveTable returns the table of game id in memory, if it has loaded.
func (r *Registry) liveTable(id string) *Table {
	r.mu.Lock()
	e, ok := r.tables[id]
	r.mu.Unlock()
	if !ok {
		return nil
	}
	select {
	case <-e.ready:
		if e.t != nil && !isClosed(e.t.done) {
			return e.t
		}
	default:
	}
	return nil
}

// liveTables returns the tables in memory that have loaded.
func (r *Registry) liveTables() []*Table {
	r.mu.Lock()
	defer r.mu.Unlock()
	ts := make([]*Table, 0, len(r.tables))
	for _, e := range r.tables {
		select {
		case <-e.ready:
			if e.t != nil && !isClosed(e.t.done) {
				ts = append(ts, e.t)
			}
		default:
		}
	}
	return ts
}

// Node returns this node's name in the game leases and the address it
// advertises ("" without leases).
func (r *Registry) Node() (name, addr string) { return r.owner.Node() }

// Games returns the ids of the games whose tables this node runs now.
func (r *Registry) Games() []string {
	ts := r.liveTables()
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.id
	}
	return ids
}

// Has reports whether the table of game id is live on this node.
func (r *Registry) Has(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.tables[id]
	return ok
}

// Preview returns the seq and a viewer's view of a game as stored, without
// starting its table when it is not live here: no engine goroutine, no
// clock, no bot and no lease. The answer to creating a game uses it, so that
// only the node the game's requests are routed to runs it. A live table
// answers for itself.
func (r *Registry) Preview(ctx context.Context, id string, viewer int) (int64, protocol.View, error) {
	r.mu.Lock()
	e, ok := r.tables[id]
	r.mu.Unlock()
	if ok {
		select {
		case <-e.ready:
			if e.t != nil && !isClosed(e.t.done) {
				if seq, v, err := e.t.Snapshot(ctx, viewer); !errors.Is(err, protocol.ErrStopped) {
					return seq, v, err
				}
			}
		default:
		}
	}
	g, err := readHeader(ctx, &r.cfg, id)
	if err != nil {
		return 0, nil, err
	}
	t := &Table{id: id, cfg: &r.cfg}
	t.game.Store(&g)
	if err := t.load(ctx); err != nil {
		return 0, nil, err
	}
	if g.Kind == "race" {
		if err := t.newRaceLive().LoadHeader(ctx, g); err != nil {
			return 0, nil, err
		}
	}
	return t.seq, t.eng.View(viewer, id, t.seq), nil
}
