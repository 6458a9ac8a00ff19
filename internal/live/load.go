package live

import (
	"context"
	"errors"
	"strconv"
	"time"

	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// rebuild replays a game's log through a fresh engine and makes it the
// table's state: the engine, the window of the last events, the client ids
// of each seat's last actions and the time of play.
func (t *Table) rebuild(acts []store.Action) error {
	g := t.game.Load()
	eng, err := t.cfg.Engines[g.Kind](*g)
	if err != nil {
		return err
	}
	var (
		ids  clientIDs
		rec  recent
		play time.Duration
	)
	for i := range acts {
		a := &acts[i]
		if a.Seq != int64(i+1) {
			return &game.Error{Code: game.Internal, Msg: "the action log has a gap at seq " + itoa(int64(i+1))}
		}
		if i > 0 {
			play = store.AddGap(play, acts[i-1].At, a.At)
		}
		act, err := klondike.DecodeAction(a.Action)
		if err == nil {
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
	t.eng, t.recent, t.seq, t.clientIDs, t.play = eng, rec, int64(len(acts)), ids, play
	t.durable.Store(t.seq)
	if e, ok := eng.(*engine.Solo); ok {
		e.SetClock(t.cfg.Clock) // the replayed actions were taken in time; the next ones must be
	}
	t.raceAttach()
	t.startCheck()
	return nil
}

// restore rebuilds the table's game from the store's log, after a commit
// failed: the engine never runs ahead of the log. The header and the
// subscribers stay.
func (t *Table) restore() error {
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	acts, err := t.cfg.Store.Actions(ctx, t.id, 0)
	if err != nil {
		return err
	}
	return t.rebuild(acts)
}

// reload rebuilds the table from the store and drops its subscribers, whose
// feeds may now miss events written by another node.
func (t *Table) reload() error {
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	g, acts, err := loadLog(ctx, t.cfg, t.id)
	if err != nil {
		return err
	}
	t.game.Store(&g)
	if err := t.rebuild(acts); err != nil {
		return err
	}
	for s := range t.subs.all() {
		t.drop(s, protocol.ErrReloaded)
	}
	return nil
}

// loadLog reads a game's header and its whole action log.
func loadLog(ctx context.Context, cfg *Config, id string) (store.Game, []store.Action, error) {
	g, err := cfg.Store.Game(ctx, id)
	if err != nil {
		return store.Game{}, nil, err
	}
	if cfg.Engines[g.Kind] == nil {
		return store.Game{}, nil, &game.Error{Code: game.Internal, Msg: "unknown game kind " + g.Kind}
	}
	acts, err := cfg.Store.Actions(ctx, id, 0)
	if err != nil {
		return store.Game{}, nil, err
	}
	return g, acts, nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// newTable loads a game and starts its goroutine, which calls stopped
// with the table as it ends (not when newTable fails).
func newTable(ctx context.Context, cfg *Config, id string, stopped func(*Table)) (*Table, error) {
	g, acts, err := loadLog(ctx, cfg, id)
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
	if err := t.rebuild(acts); err != nil {
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
