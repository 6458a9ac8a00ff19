package live

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"dsol/internal/engine"
	"dsol/internal/live/snapshot"
	"dsol/internal/ownership"
	"dsol/internal/protocol"
	"dsol/internal/racelive"
	"dsol/internal/store"
)

// Committer writes actions durably; *store.Committer (group commit) is the
// implementation, tests may wrap it.
type Committer interface {
	Commit(ctx context.Context, actions ...store.Action) error
}

// Hooks are optional observers of the tables (metrics).
type Hooks struct {
	// Action is called for every handled command: the action type and ""
	// when accepted, else the error code.
	Action func(actionType, code string)
	// Live is called with +1 when a table starts and -1 when it stops.
	Live func(delta int)
	// Races is called with +1 when a race's table starts and -1 when it stops.
	Races func(delta int)
	// Moved is called when a table stopped because its game moved away.
	Moved func()
	// Finished is called, on the table's goroutine, once the end of a race
	// with a result is stored: g is its header as stored.
	Finished func(g store.Game)
}

// Config holds the dependencies and settings of a Registry.
type Config struct {
	Store     store.Store
	Committer Committer
	Engines   map[string]engine.NewEngine // by game kind; nil means DefaultEngines()
	Logger    *slog.Logger
	Clock     func() time.Time
	Hooks     Hooks
	// IdleAfter is how long a table without subscribers and commands stays in
	// memory. Zero disables the background sweeper (call Sweep yourself).
	IdleAfter time.Duration
	// ParkAfter is how long a table stays idle before its goroutine parks
	// (park.go; default DefaultParkAfter, negative: never).
	ParkAfter time.Duration
	// SubscriberBuffer is the number of updates a subscriber may lag behind
	// before it is dropped (default 64).
	SubscriberBuffer int
	// MaxBatch is the most commands one table applies and commits together
	// (default 64).
	MaxBatch int
	// StoreTimeout bounds the table's own store reads and header writes
	// (default 10s).
	StoreTimeout time.Duration
	// AfterFunc runs f once d has passed on the table clock and returns a
	// function that cancels it (default: time.AfterFunc). Races use it for
	// the turn clock and the bot; tests pass a manual clock's.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// Grace is how long a seated race player may stay disconnected before
	// the opponent may claim the win (default 60s).
	Grace time.Duration
	// RematchTimeout is how long a rematch offer waits for the opponent's
	// answer before it lapses, as if declined (default DefaultRematchTimeout).
	RematchTimeout time.Duration
	// Check decides the live check of the solo games that have it on; nil:
	// their stillWinnable stays null. Think works out the strong race
	// bot's searches; nil: each runs on a goroutine of its own.
	Check CheckFunc
	Think racelive.ThinkFunc
	// rematchLapsed tells the race an offer lapsed after (set by the registry).
	rematchLapsed func(old string)
	// snaps writes the tables' snapshots (the registry's).
	snaps *snapshot.Writer
	// bell tells idle tables to park (the registry's).
	bell *parkBell
	// Owner shares the games with the other nodes of the store: this node
	// runs a game's table only while it holds its lease (package
	// ownership). Nil: a node alone, which owns every game.
	Owner *ownership.Owner
}

// Registry finds live tables by game id, loads them on demand and evicts idle
// ones.
type Registry struct {
	cfg   Config
	owner *ownership.Owner

	mu      sync.Mutex
	tables  map[string]*entry
	closed  bool
	wg      sync.WaitGroup // table goroutines and the sweepers
	stopSwp chan struct{}
}

type entry struct {
	t     *Table
	err   error
	ready chan struct{}
}

// NewRegistry returns a registry over cfg.Store and cfg.Committer. With
// IdleAfter > 0 it sweeps idle tables in the background until Close.
func NewRegistry(cfg Config) *Registry {
	if cfg.Engines == nil {
		cfg.Engines = engine.DefaultEngines()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.SubscriberBuffer <= 0 {
		cfg.SubscriberBuffer = 64
	}
	if cfg.ParkAfter == 0 {
		cfg.ParkAfter = DefaultParkAfter
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = 64
	}
	if cfg.StoreTimeout <= 0 {
		cfg.StoreTimeout = 10 * time.Second
	}
	if cfg.AfterFunc == nil {
		cfg.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	if cfg.Grace <= 0 {
		cfg.Grace = 60 * time.Second
	}
	if cfg.RematchTimeout <= 0 {
		cfg.RematchTimeout = racelive.DefaultRematchTimeout
	}
	if cfg.Owner == nil {
		cfg.Owner = ownership.New(ownership.Config{})
	}
	r := &Registry{cfg: cfg, owner: cfg.Owner, tables: make(map[string]*entry), stopSwp: make(chan struct{})}
	r.cfg.snaps = snapshot.NewWriter(cfg.Store, cfg.Logger, cfg.StoreTimeout)
	r.cfg.bell = newParkBell()
	r.cfg.rematchLapsed = func(old string) {
		// off the lapsed race's goroutine: the old race's table is another
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			if err := r.RematchChanged(context.Background(), old); err != nil {
				r.cfg.Logger.Error("table: tell a race its rematch offer lapsed", "game", old, "err", err)
			}
		}()
	}
	if cfg.IdleAfter > 0 {
		r.wg.Add(1)
		go r.sweeper()
	}
	if r.cfg.ParkAfter > 0 {
		r.wg.Add(1)
		go r.ringer()
	}
	r.owner.Hold(ownership.Holder{Held: r.Games, Lost: func(id string) {
		if t := r.liveTable(id); t != nil {
			r.stopMoved(t)
		}
	}})
	return r
}

// RematchTimeout is how long a rematch offer waits for an answer.
func (r *Registry) RematchTimeout() time.Duration { return r.cfg.RematchTimeout }

// sweeper evicts idle tables a few times per IdleAfter.
func (r *Registry) sweeper() {
	defer r.wg.Done()
	tick := time.NewTicker(max(r.cfg.IdleAfter/4, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			r.Sweep(r.cfg.Clock())
		case <-r.stopSwp:
			return
		}
	}
}

// Get returns the live table of a game, loading it from the store when it is
// not in memory. A game that does not exist is store.ErrNotFound.
func (r *Registry) Get(ctx context.Context, id string) (*Table, error) {
	for {
		r.mu.Lock()
		if r.closed {
			r.mu.Unlock()
			return nil, protocol.ErrClosed
		}
		e, ok := r.tables[id]
		if !ok {
			e = &entry{ready: make(chan struct{})}
			r.tables[id] = e
			r.mu.Unlock()
			t, err := r.load(ctx, id)
			r.mu.Lock()
			e.t, e.err = t, err
			r.mu.Unlock()
			close(e.ready)
			if e.err != nil {
				r.forget(id, e)
				return nil, e.err
			}
			return e.t, nil
		}
		r.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e.err == nil && !isClosed(e.t.done) {
			return e.t, nil
		}
		if e.err != nil && ctx.Err() == nil && !errors.Is(e.err, context.Canceled) && !errors.Is(e.err, context.DeadlineExceeded) {
			return nil, e.err
		}
		r.forget(id, e) // stopped, or its loader gave up: load again
	}
}

// load takes the game's lease and builds its table, and counts it.
func (r *Registry) load(ctx context.Context, id string) (*Table, error) {
	if err := r.owner.Acquire(ctx, id); err != nil {
		return nil, err
	}
	live := func(delta int) {
		if r.cfg.Hooks.Live != nil {
			r.cfg.Hooks.Live(delta)
		}
	}
	r.wg.Add(1)
	live(1)
	t, err := newTable(ctx, &r.cfg, id, func(t *Table) {
		r.forgetTable(t)
		live(-1)
		r.wg.Done()
	})
	if err != nil {
		live(-1)
		r.wg.Done()
		r.owner.Release([]string{id})
		return nil, err
	}
	return t, nil
}

// forget removes the map entry of id if it is still e.
func (r *Registry) forget(id string, e *entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tables[id] == e {
		delete(r.tables, id)
	}
}

// forgetTable removes the map entry of a stopped table if it is still there.
func (r *Registry) forgetTable(t *Table) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.tables[t.id]; ok && e.t == t {
		delete(r.tables, t.id)
	}
}

// Do sends a command to a game's table, loading it if needed, and retries on
// a table that stopped before taking the command.
func (r *Registry) Do(ctx context.Context, id string, cmd protocol.Command) (protocol.Result, error) {
	for {
		t, err := r.Get(ctx, id)
		if err != nil {
			return protocol.Result{}, err
		}
		res, err := t.Do(ctx, cmd)
		if errors.Is(err, protocol.ErrStopped) {
			continue
		}
		return res, err
	}
}

// Snapshot returns the current seq and a viewer's view of a game.
func (r *Registry) Snapshot(ctx context.Context, id string, viewer int) (int64, protocol.View, error) {
	for {
		t, err := r.Get(ctx, id)
		if err != nil {
			return 0, nil, err
		}
		seq, v, err := t.Snapshot(ctx, viewer)
		if errors.Is(err, protocol.ErrStopped) {
			continue
		}
		return seq, v, err
	}
}

// Live returns the number of tables in memory.
func (r *Registry) Live() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.tables)
}

// Sweep evicts the tables that have had no subscribers and no requests since
// now - IdleAfter, and returns how many it evicted. The next request rebuilds
// them from the store.
func (r *Registry) Sweep(now time.Time) int {
	cutoff := now.Add(-r.cfg.IdleAfter)
	r.mu.Lock()
	ts := make([]*Table, 0, len(r.tables))
	for _, e := range r.tables {
		select {
		case <-e.ready:
			if e.t != nil {
				ts = append(ts, e.t)
			}
		default:
		}
	}
	r.mu.Unlock()
	n := 0
	for _, t := range ts {
		if t.lastSeen.Load() > cutoff.UnixNano() {
			continue // not idle: no need to wake it if parked
		}
		evicted := false
		err := t.call(context.Background(), func() {
			if len(t.subs) == 0 && !t.last.After(cutoff) {
				t.stopping, evicted = true, true
			}
		})
		if err == nil && evicted {
			<-t.done
			r.forgetTable(t)
			r.owner.Release([]string{t.id})
			n++
		}
	}
	return n
}

// Close stops accepting requests, lets every table finish the batch it is
// committing, stops the tables and waits for them (or for ctx). Close the
// Committer and the Store after it.
func (r *Registry) Close(ctx context.Context) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	es := make([]*entry, 0, len(r.tables))
	for _, e := range r.tables {
		es = append(es, e)
	}
	r.mu.Unlock()
	close(r.stopSwp)

	for _, e := range es {
		select {
		case <-e.ready:
		case <-ctx.Done():
			return ctx.Err()
		}
		if e.t != nil {
			e.t.stop()
		}
	}
	done := make(chan struct{})
	go func() {
		r.wg.Wait()
		r.cfg.snaps.Close() // the snapshots of the tables that stopped
		close(done)
	}()
	select {
	case <-done:
		r.owner.Release(nil) // hand every game over at once
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
