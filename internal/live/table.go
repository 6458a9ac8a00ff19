// Package live runs the live games: one goroutine per game (an actor,
// Table) owns the game's single engine instance, orders its actions,
// commits them to the action log through the group-commit Committer and,
// only once they are durable, answers the sender and fans the events out
// to subscribers as frames and deltas.
//
// A Registry finds or rebuilds tables by game id (header + deal code + the
// action log replayed through the engine), evicts idle ones and hands a
// game over when another node takes it. A race's live side (presence,
// clocks, bot) is package racelive's; the game service (package service)
// is what the transports call, and it reaches the tables through here.
package live

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"dsol/internal/engine"
	"dsol/internal/live/recent"
	"dsol/internal/protocol"
	"dsol/internal/racelive"
	"dsol/internal/store"
)

// Table is one live game. Its methods are safe for concurrent use; all game
// state is owned by the table's goroutine.
type Table struct {
	id   string
	cfg  *Config
	do   chan *doReq // nil while parked; written under mu (park.go)
	ops  chan func()
	quit chan struct{} // closed to stop the table
	done chan struct{} // closed when the goroutine has exited
	err  error         // why the table stopped; written before done is closed
	// mu guards the goroutine's start and park (park.go): running, ended,
	// and senders, the Submits and calls under way, which may still put a
	// request in do as done closes (see refuseLeft).
	mu       sync.Mutex
	running  bool
	ended    bool
	senders  int
	lastSeen atomic.Int64 // last, in Unix nanoseconds, read off the goroutine (Sweep)

	game atomic.Pointer[store.Game]
	// durable is the seq of the last durable action, which seq never falls
	// below: for the store reads done off the goroutine (see Subscribe).
	durable atomic.Int64
	// window is the oldest seq the window holds (recent.First), for the
	// same reads.
	window atomic.Int64

	// Owned by the goroutine.
	eng       engine.Engine
	seq       int64
	recent    recent.Events // the last events
	snapAt    int64         // the seq of the last snapshot taken
	play      time.Duration // seconds of play after the last committed event (store.AddGap)
	clientIDs recent.ClientIDs
	subs      subscribers
	views     viewBases // each viewer's view at the last event or subscription, the base of its next delta
	spare     viewBases // the array of the views before, which the next batch fills
	last      time.Time // last activity
	stopping  bool
	stopped   func(*Table)   // called last as the goroutine ends
	rl        *racelive.Live // live state of a race (presence, clocks, bot); nil for solo
	checkStop func()         // cancels the live check in flight (check.go); nil for none
}

type doReq struct {
	ctx    context.Context
	cmd    protocol.Command
	answer func(protocol.Result, error) // called once, on the table's goroutine
}

// ID returns the game id.
func (t *Table) ID() string { return t.id }

// Game returns the game header as the table last stored or loaded it.
func (t *Table) Game() store.Game { return *t.game.Load() }

// Done is closed when the table has stopped.
func (t *Table) Done() <-chan struct{} { return t.done }

// Do applies a command and returns once the action is durable (or refused).
// Refusals are *klondike.Error (from the engine) or *Error (conflict,
// unavailable); ErrStopped means the table stopped before taking the command
// and nothing was applied (Registry.Do retries then).
//
// Checks, in order: a client id already applied returns the earlier result
// (even if the seq moved on or the game is over since: a resend after a lost
// answer must find its action); the engine's game_over/turn checks; the
// expected seq (conflict); then the engine applies the action.
func (t *Table) Do(ctx context.Context, cmd protocol.Command) (protocol.Result, error) {
	type reply struct {
		res protocol.Result
		err error
	}
	c := make(chan reply, 1)
	if err := t.Submit(ctx, cmd, func(res protocol.Result, err error) { c <- reply{res, err} }); err != nil {
		return protocol.Result{}, err
	}
	select {
	case rep := <-c:
		return rep.res, rep.err
	case <-ctx.Done():
		return protocol.Result{}, ctx.Err()
	}
}

// Submit hands a command to the table and returns without waiting for it:
// answer is called once with what Do would return, on the table's goroutine,
// after the commit and after the action's event went to the subscribers, so
// it must not block. Commands submitted one after the
// other by one goroutine are applied in that order. Submit itself waits only
// while the table's queue is full; it returns ErrStopped (answer is not
// called) when the table has stopped, or ctx's error. A command handed over
// that the table stops before taking is answered ErrStopped: nothing was
// applied (refuseLeft).
func (t *Table) Submit(ctx context.Context, cmd protocol.Command, answer func(protocol.Result, error)) error {
	t.enter()
	defer t.leave()
	select {
	case <-t.done: // first: a stopped table never takes a command
		return protocol.ErrStopped
	default:
	}
	r := &doReq{ctx: ctx, cmd: cmd, answer: answer}
	select {
	case t.do <- r:
		return nil
	case <-t.done:
		return protocol.ErrStopped
	case <-ctx.Done():
		return ctx.Err()
	}
}

// call runs f on the table's goroutine and waits for it. The ops channel is
// unbuffered and the goroutine runs an op as soon as it receives it, so once
// f is handed over call waits for it to finish: returning earlier would let f
// write the caller's variables while the caller reads them.
func (t *Table) call(ctx context.Context, f func()) error {
	ran := make(chan struct{})
	op := func() { f(); close(ran) }
	t.enter()
	select {
	case t.ops <- op:
	case <-t.done:
		t.leave()
		return protocol.ErrStopped
	case <-ctx.Done():
		t.leave()
		return ctx.Err()
	}
	t.leave()
	<-ran
	return nil
}

// Snapshot returns the current seq and the viewer's view (a seat, or 0 for
// a spectator).
func (t *Table) Snapshot(ctx context.Context, viewer int) (seq int64, view protocol.View, err error) {
	err = t.call(ctx, func() {
		t.touch()
		seq, view = t.seq, t.eng.View(viewer, t.id, t.seq)
	})
	return seq, view, err
}

// EventsSince returns the committed events with seq > since, in seq order,
// at most protocol.MaxResume of them (the last ones): from the table's
// window, and from the store before it.
func (t *Table) EventsSince(ctx context.Context, since int64) ([]protocol.Event, error) {
	older, err := t.olderEvents(ctx, since)
	if err != nil {
		return nil, err
	}
	var out []protocol.Event
	err = t.call(ctx, func() {
		t.touch()
		out, _ = t.since(since, older)
	})
	return out, err
}

// olderEvents reads from the store, off the table's goroutine, the events
// after since that the window may no longer hold (none when it does, or
// when since is more than protocol.MaxResume behind).
func (t *Table) olderEvents(ctx context.Context, since int64) ([]store.Action, error) {
	if since < 0 || since >= t.window.Load()-1 || since < t.durable.Load()-protocol.MaxResume {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, t.cfg.StoreTimeout)
	defer cancel()
	return t.cfg.Store.Actions(ctx, t.id, since)
}

// since returns the events after seq, from the window and, before it,
// older (the store's actions after seq, read before the call); ok false
// when they are not all there, or more than protocol.MaxResume.
func (t *Table) since(seq int64, older []store.Action) (_ []protocol.Event, ok bool) {
	seq = max(seq, 0)
	if seq >= t.seq {
		return nil, seq == t.seq
	}
	if t.seq-seq > protocol.MaxResume {
		return nil, false
	}
	out := make([]protocol.Event, 0, t.seq-seq)
	from := t.recent.First()
	for _, a := range older {
		if a.Seq > seq+int64(len(out)) && a.Seq < from && a.Seq == seq+int64(len(out))+1 {
			out = append(out, protocol.Event{Seq: a.Seq, Seat: a.Seat, Action: a.Action, Status: t.statusAt(a.Seq), At: a.At})
		}
	}
	for s := seq + int64(len(out)) + 1; s <= t.seq; s++ {
		rec, ok := t.recent.Get(s)
		if !ok {
			return nil, false
		}
		out = append(out, rec.Event(s, t.statusAt(s)))
	}
	return out, true
}

// statusAt is the game's status after the action of seq: in play, but for
// the last action, which may have ended it.
func (t *Table) statusAt(seq int64) string {
	if seq == t.seq {
		return t.eng.Status()
	}
	return "playing"
}

func (t *Table) touch() {
	t.last = t.cfg.Clock()
	t.lastSeen.Store(t.last.UnixNano())
}

// run is the table's goroutine, from its start or a wake (park.go) until
// it parks or stops.
func (t *Table) run() {
	if t.serve() {
		return // parked
	}
	t.mu.Lock()
	t.ended = true
	t.mu.Unlock()
	defer t.stopped(t)   // last
	defer t.refuseLeft() // once done is closed
	defer close(t.done)
	t.raceStop()
	if t.checkStop != nil {
		t.checkStop()
	}
	t.snapshot(true)
	why := t.err
	if why == nil {
		why = protocol.ErrStopped
	}
	for s := range t.subs.all() {
		t.drop(s, why)
	}
}

// serve handles the table's commands and calls until it stops (false) or
// parks (true).
func (t *Table) serve() (parked bool) {
	var batch []*doReq
	bell := t.cfg.bell.wait()
	for {
		select {
		case r := <-t.do:
			if batch == nil {
				batch = make([]*doReq, 0, t.cfg.MaxBatch)
			}
			batch = append(batch[:0], r)
		gather:
			for len(batch) < t.cfg.MaxBatch {
				select {
				case r := <-t.do:
					batch = append(batch, r)
				default:
					break gather
				}
			}
			t.handle(batch)
			clear(batch)
		case op := <-t.ops:
			op()
		case <-t.quit:
		case <-bell:
			bell = t.cfg.bell.wait()
			if t.park() {
				return true
			}
		}
		if t.stopping || isClosed(t.quit) {
			return false
		}
	}
}

// refuseLeft answers ErrStopped, once the table has stopped (done is
// closed), the commands handed over that it never took: every Submit that
// returned nil gets its answer. A Submit under way as done closed may still
// put its command in the queue, so the queue is drained until none is under
// way; one that begins later sees done and returns ErrStopped.
func (t *Table) refuseLeft() {
	for {
		last := t.idleSenders() // then what they queued is in do: drained below
		for drained := false; !drained; {
			select {
			case r := <-t.do:
				r.answer(protocol.Result{}, protocol.ErrStopped)
			default:
				drained = true
			}
		}
		if last {
			return
		}
		runtime.Gosched()
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
