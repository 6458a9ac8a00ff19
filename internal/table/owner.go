package table

import (
	"context"
	"errors"
	"fmt"
	"time"

	"dsol/internal/game"
	"dsol/internal/matchmaking"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// Ownership across nodes. With Config.Leases set, a node runs a game's
// table — its engine, bot, clocks and grace timers — only while it holds the
// game's lease in the shared store (store.Leases):
//
//   - loading a table first takes the lease; a game another node holds is
//     answered with an *ElsewhereError (unavailable: retry), never from a
//     local copy, and the holder is asked to hand the game over;
//   - the registry renews its leases every LeaseTTL/3; a game it no longer
//     holds, or that another node asked for, stops at once (its subscribers
//     reconnect and land where the routing sends them), and a handed-over
//     game's lease is released;
//   - an idle table's lease is released when it is evicted, and Close
//     releases every lease, so a graceful shutdown hands all games over at
//     once; a killed node's leases expire after at most LeaseTTL.
//
// The action log's (game_id, seq) key stays the fence behind all this: a
// node that lost its lease but has not noticed yet cannot fork a game.

// ElsewhereError is the answer for a game whose lease another live node
// holds.
type ElsewhereError struct {
	Lease store.Lease
}

// GameError implements protocol.CodedError: the client retries.
func (e *ElsewhereError) GameError() *game.Error {
	return &game.Error{Code: game.Unavailable, Msg: "the game is moving between nodes; retry", Err: e}
}

// Error implements error.
func (e *ElsewhereError) Error() string {
	if e.Lease.Node == "" {
		return fmt.Sprintf("table: game %s was just handed over to another node", e.Lease.Game)
	}
	return fmt.Sprintf("table: game %s runs on node %s", e.Lease.Game, e.Lease.Node)
}

// DefaultLeaseTTL is how long a lease lasts unless renewed.
const DefaultLeaseTTL = 3 * time.Second

// acquire takes the lease of a game before its table loads. A game this
// node handed over less than a lease's length ago is not taken back yet:
// the requests still arriving here come from before the handover, and
// taking it back would have the two nodes pass it to and fro.
func (r *Registry) acquire(ctx context.Context, id string) error {
	ls := r.cfg.Leases
	if ls == nil {
		return nil
	}
	r.mu.Lock()
	at, handed := r.handed[id]
	if handed && r.cfg.Clock().Sub(at) >= r.cfg.LeaseTTL {
		delete(r.handed, id)
		handed = false
	}
	r.mu.Unlock()
	if handed {
		if r.cfg.Hooks.Elsewhere != nil {
			r.cfg.Hooks.Elsewhere()
		}
		return &ElsewhereError{Lease: store.Lease{Game: id}}
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.StoreTimeout)
	defer cancel()
	l, ok, err := ls.Acquire(ctx, id, r.cfg.Node, r.cfg.Addr, r.cfg.Clock(), r.cfg.LeaseTTL)
	if err != nil {
		return err
	}
	if !ok {
		if r.cfg.Hooks.Elsewhere != nil {
			r.cfg.Hooks.Elsewhere()
		}
		return &ElsewhereError{Lease: l}
	}
	return nil
}

// release gives up the leases of games (nil: all of this node's).
func (r *Registry) release(games []string) {
	ls := r.cfg.Leases
	if ls == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.StoreTimeout)
	defer cancel()
	if err := ls.Release(ctx, r.cfg.Node, games); err != nil {
		r.cfg.Logger.Warn("table: release leases", "games", len(games), "err", err)
	}
}

// leaser renews this node's leases until the registry closes.
func (r *Registry) leaser() {
	defer r.wg.Done()
	tick := time.NewTicker(r.cfg.LeaseTTL / 3)
	defer tick.Stop()
	lastOK := r.cfg.Clock()
	for {
		select {
		case <-tick.C:
		case <-r.stopSwp:
			return
		}
		if r.renew() {
			lastOK = r.cfg.Clock()
		} else if r.cfg.Clock().Sub(lastOK) >= r.cfg.LeaseTTL {
			// The leases may have expired meanwhile: another node may own
			// these games by now.
			for _, t := range r.liveTables() {
				r.stopMoved(t, false)
			}
			r.q.Drop()
		}
	}
}

// renew extends the leases of the live tables and stops the tables whose
// game this node no longer holds or another node asked for. It reports
// whether the store answered.
func (r *Registry) renew() bool {
	r.mu.Lock()
	for id, at := range r.handed {
		if r.cfg.Clock().Sub(at) >= r.cfg.LeaseTTL {
			delete(r.handed, id)
		}
	}
	r.mu.Unlock()
	ts := r.liveTables()
	ids := make([]string, len(ts), len(ts)+1)
	for i, t := range ts {
		ids[i] = t.id
	}
	queue := r.q.Live()
	if queue {
		ids = append(ids, matchmaking.ID)
	}
	if len(ids) == 0 {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.LeaseTTL/3)
	defer cancel()
	held, err := r.cfg.Leases.Renew(ctx, r.cfg.Node, ids, r.cfg.Clock(), r.cfg.LeaseTTL)
	if err != nil {
		r.cfg.Logger.Warn("table: renew leases", "games", len(ids), "err", err)
		return false
	}
	for _, t := range ts {
		wanted, ok := held[t.id]
		if !ok || wanted {
			r.stopMoved(t, ok)
		}
	}
	if wanted, ok := held[matchmaking.ID]; queue && (!ok || wanted) {
		// The queue moved: its players re-queue where the routing sends them.
		r.q.Drop()
		if ok {
			r.mu.Lock()
			r.handed[matchmaking.ID] = r.cfg.Clock()
			r.mu.Unlock()
			r.release([]string{matchmaking.ID})
		}
	}
	return true
}

// stopMoved stops a table whose game is no longer this node's, at once and
// whatever its subscribers; with release, it then gives up the lease (a
// game handed over to the node that asked for it).
func (r *Registry) stopMoved(t *Table, release bool) {
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
	if release {
		r.mu.Lock()
		r.handed[t.id] = r.cfg.Clock()
		r.mu.Unlock()
		r.release([]string{t.id})
	}
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
func (r *Registry) Node() (name, addr string) { return r.cfg.Node, r.cfg.Addr }

// Games returns the ids of the games whose tables this node runs now.
func (r *Registry) Games() []string {
	ts := r.liveTables()
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.id
	}
	return ids
}

// isElsewhere reports whether err is an ElsewhereError.
func isElsewhere(err error) bool {
	var e *ElsewhereError
	return errors.As(err, &e)
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
	g, events, err := loadLog(ctx, &r.cfg, id)
	if err != nil {
		return 0, nil, err
	}
	t := &Table{id: id, cfg: &r.cfg}
	t.game.Store(&g)
	if err := t.rebuild(events); err != nil {
		return 0, nil, err
	}
	if g.Kind == "race" {
		l := t.newRaceLive()
		t.rl = l
		t.raceAttach()
		if err := t.loadHeader(ctx, l, g); err != nil {
			return 0, nil, err
		}
	}
	return t.seq, t.eng.View(viewer, id, t.seq), nil
}
