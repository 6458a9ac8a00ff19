package live

import (
	"context"
	"errors"
	"strconv"
	"time"

	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// readHeader reads a game's header, of a kind this build plays.
func readHeader(ctx context.Context, cfg *Config, id string) (store.Game, error) {
	g, err := cfg.Store.Game(ctx, id)
	if err != nil {
		return store.Game{}, err
	}
	if cfg.Engines[g.Kind] == nil {
		return store.Game{}, &game.Error{Code: game.Internal, Msg: "unknown game kind " + g.Kind}
	}
	return g, nil
}

// load builds the table's game from the store, for its header as the table
// holds it: from the newest snapshot and the actions after it (and the
// Window before it, for the window and the client ids), or, without a
// snapshot or with one it cannot read, by replaying the whole log.
func (t *Table) load(ctx context.Context) error {
	snap, err := t.cfg.Store.Snapshot(ctx, t.id)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return err
	default:
		from := max(0, snap.Seq-Window)
		acts, err := t.cfg.Store.Actions(ctx, t.id, from)
		if err != nil {
			return err
		}
		err = t.rebuild(from, acts, &snap)
		if !errors.Is(err, errSnapshot) {
			return err
		}
		t.cfg.Logger.Warn("table: a snapshot passed over", "game", t.id, "seq", snap.Seq, "err", err)
	}
	acts, err := t.cfg.Store.Actions(ctx, t.id, 0)
	if err != nil {
		return err
	}
	return t.rebuild(0, acts, nil)
}

// rebuild makes the table's state from acts, the game's actions after seq
// from to the last: the engine, from snap when given (a snapshot of a seq
// among acts, or from), replaying the actions after it, else from the
// game's start; the window of the last events; the client ids of each
// seat's last actions; the time of play.
func (t *Table) rebuild(from int64, acts []store.Action, snap *store.Snapshot) error {
	g := t.game.Load()
	eng, err := t.cfg.Engines[g.Kind](*g)
	if err != nil {
		return err
	}
	var (
		ids    clientIDs
		rec    = recent{last: from}
		play   time.Duration
		replay = int64(0) // the actions up to this seq are in the snapshot
	)
	if snap != nil {
		if snap.Seq < from || snap.Seq > from+int64(len(acts)) {
			return errSnapshot
		}
		if play, err = loadSnapshot(eng, snap.State, snap.Seq); err != nil {
			return err
		}
		replay = snap.Seq
	}
	for i := range acts {
		a := &acts[i]
		if a.Seq != from+int64(i+1) {
			return &game.Error{Code: game.Internal, Msg: "the action log has a gap at seq " + itoa(from+int64(i+1))}
		}
		act, err := protocol.DecodeAction(a.Action)
		if err == nil && a.Seq > replay {
			if a.Seq > 1 {
				play = store.AddGap(play, time.UnixMicro(rec.lastAtMicro()), a.At)
			}
			_, err = eng.Apply(a.Seat, act)
		}
		if err != nil {
			return &game.Error{Code: game.Internal, Msg: "the action log does not replay", Err: errors.Join(errors.New("seq "+itoa(a.Seq)), err)}
		}
		rec.add(record{at: a.At.UnixMicro(), action: act, seat: uint8(a.Seat)})
		if a.ClientID != "" {
			ids.put(a.Seat, a.ClientID, a.Seq)
		}
	}
	t.eng, t.recent, t.seq, t.clientIDs, t.play = eng, rec, rec.last, ids, play
	t.snapAt = t.seq
	t.durable.Store(t.seq)
	t.window.Store(t.recent.first())
	if e, ok := eng.(*engine.Solo); ok {
		e.SetClock(t.cfg.Clock) // the replayed actions were taken in time; the next ones must be
	}
	t.raceAttach()
	t.startCheck()
	return nil
}

// restore rebuilds the table's game from the store, after a commit failed:
// the engine never runs ahead of the log. The header and the subscribers
// stay.
func (t *Table) restore() error {
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	return t.load(ctx)
}

// reload rebuilds the table from the store and drops its subscribers, whose
// feeds may now miss events written by another node.
func (t *Table) reload() error {
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	g, err := readHeader(ctx, t.cfg, t.id)
	if err != nil {
		return err
	}
	t.game.Store(&g)
	if err := t.load(ctx); err != nil {
		return err
	}
	for s := range t.subs.all() {
		t.drop(s, protocol.ErrReloaded)
	}
	return nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// newTable loads a game and starts its goroutine, which calls stopped
// with the table as it ends (not when newTable fails).
func newTable(ctx context.Context, cfg *Config, id string, stopped func(*Table)) (*Table, error) {
	g, err := readHeader(ctx, cfg, id)
	if err != nil {
		return nil, err
	}
	t := &Table{
		id:      id,
		cfg:     cfg,
		do:      make(chan *doReq, cfg.MaxBatch), // a sender waits while the table commits only once this many queue
		ops:     make(chan func()),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
		stopped: stopped,
	}
	t.game.Store(&g)
	if err := t.load(ctx); err != nil {
		return nil, err
	}
	t.touch()
	if err := t.raceInit(ctx); err != nil {
		return nil, err
	}
	if st := t.eng.Status(); st != g.Status {
		t.storeStatus(st) // a status write that failed after its commit
	}
	go t.run()
	return t, nil
}
