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

// rebuild replays events through a fresh engine and makes them the table's
// state.
func (t *Table) rebuild(events []protocol.Event) error {
	g := t.game.Load()
	eng, err := t.cfg.Engines[g.Kind](*g)
	if err != nil {
		return err
	}
	var ids clientIDs
	var play time.Duration
	for i := range events {
		ev := &events[i]
		if i > 0 {
			play = store.AddGap(play, events[i-1].At, ev.At)
		}
		a, err := klondike.DecodeAction(ev.Action)
		if err == nil {
			_, err = eng.Apply(ev.Seat, a)
		}
		if err != nil {
			return &game.Error{Code: game.Internal, Msg: "the action log does not replay", Err: errors.Join(errors.New("seq "+itoa(ev.Seq)), err)}
		}
		ev.Status = eng.Status()
		if ev.ClientID != "" {
			ids.put(ev.Seat, ev.ClientID, ev.Seq)
		}
	}
	t.eng, t.events, t.seq, t.clientIDs, t.play = eng, events, int64(len(events)), ids, play
	t.durable.Store(t.seq)
	if e, ok := eng.(*engine.Solo); ok {
		e.SetClock(t.cfg.Clock) // the replayed actions were taken in time; the next ones must be
	}
	t.raceAttach()
	t.startCheck()
	return nil
}

// reload rebuilds the table from the store and drops its subscribers, whose
// feeds may now miss events written by another node.
func (t *Table) reload() error {
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	g, events, err := loadLog(ctx, t.cfg, t.id)
	if err != nil {
		return err
	}
	t.game.Store(&g)
	if err := t.rebuild(events); err != nil {
		return err
	}
	for s := range t.subs.all() {
		t.drop(s, protocol.ErrReloaded)
	}
	return nil
}

// loadLog reads a game's header and its whole action log.
func loadLog(ctx context.Context, cfg *Config, id string) (store.Game, []protocol.Event, error) {
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
	events := make([]protocol.Event, len(acts))
	for i, a := range acts {
		if a.Seq != int64(i+1) {
			return store.Game{}, nil, &game.Error{Code: game.Internal, Msg: "the action log has a gap at seq " + itoa(int64(i+1))}
		}
		events[i] = protocol.Event{Seq: a.Seq, Seat: a.Seat, Action: a.Action, At: a.At, ClientID: a.ClientID}
	}
	return g, events, nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// newTable loads a game and starts its goroutine.
func newTable(ctx context.Context, cfg *Config, id string) (*Table, error) {
	g, events, err := loadLog(ctx, cfg, id)
	if err != nil {
		return nil, err
	}
	t := &Table{
		id:   id,
		cfg:  cfg,
		do:   make(chan *doReq, cfg.MaxBatch), // a sender waits while the table commits only once this many queue
		ops:  make(chan func()),
		quit: make(chan struct{}),
		done: make(chan struct{}),
	}
	t.game.Store(&g)
	if err := t.rebuild(events); err != nil {
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
