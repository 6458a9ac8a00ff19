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
	"errors"
	"iter"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/racelive"
	"dsol/internal/store"
)

// Table is one live game. Its methods are safe for concurrent use; all game
// state is owned by the table's goroutine.
type Table struct {
	id   string
	cfg  *Config
	do   chan *doReq
	ops  chan func()
	quit chan struct{} // closed to stop the table
	done chan struct{} // closed when the goroutine has exited
	err  error         // why the table stopped; written before done is closed
	// senders counts the Submits under way, which may still put a request
	// in do as done closes (see refuseLeft).
	senders atomic.Int64

	game atomic.Pointer[store.Game]
	// durable is the seq of the last durable action, which seq never falls
	// below: for the store reads done off the goroutine (see Subscribe).
	durable atomic.Int64

	// Owned by the goroutine.
	eng       engine.Engine
	seq       int64
	events    []protocol.Event
	play      time.Duration // seconds of play after the last committed event (store.AddGap)
	clientIDs clientIDs
	subs      subscribers
	views     viewBases // each viewer's view at the last event or subscription, the base of its next delta
	spare     viewBases // the array of the views before, which the next batch fills
	last      time.Time // last activity
	stopping  bool
	rl        *racelive.Live // live state of a race (presence, clocks, bot); nil for solo
	checkStop func()         // cancels the live check in flight (check.go); nil for none
}

type doReq struct {
	ctx    context.Context
	cmd    protocol.Command
	answer func(protocol.Result, error) // called once, on the table's goroutine
}

// seqView is a view and the seq it reflects.
type seqView struct {
	seq  int64
	view protocol.View
}

// viewBases are the bases of a table's viewers' next deltas: a few, one per
// viewer (the seats, the spectators), so a slice, walked for every event,
// and copied for every batch without allocating.
type viewBases []viewBase

type viewBase struct {
	viewer int
	seqView
}

func (vb viewBases) get(viewer int) (seqView, bool) {
	for _, b := range vb {
		if b.viewer == viewer {
			return b.seqView, true
		}
	}
	return seqView{}, false
}

func (vb *viewBases) set(viewer int, v seqView) {
	for i := range *vb {
		if (*vb)[i].viewer == viewer {
			(*vb)[i].seqView = v
			return
		}
	}
	*vb = append(*vb, viewBase{viewer, v})
}

// subscribers are a table's subscriptions: a few, so a slice, which is
// cheaper than a map to walk for every event.
type subscribers []*Subscription

// remove forgets s and tells whether it was there.
func (ss *subscribers) remove(s *Subscription) bool {
	i := slices.Index(*ss, s)
	if i < 0 {
		return false
	}
	*ss = slices.Delete(*ss, i, i+1)
	return true
}

// all yields the subscriptions from the last one, so that the one yielded
// may be removed meanwhile.
func (ss *subscribers) all() iter.Seq[*Subscription] {
	return func(yield func(*Subscription) bool) {
		for i := len(*ss) - 1; i >= 0; i-- {
			if i < len(*ss) && !yield((*ss)[i]) {
				return
			}
		}
	}
}

// frameOf returns the viewer's frame among an event's, nil when none.
func frameOf(frames []*protocol.Frame, viewer int) *protocol.Frame {
	for _, f := range frames {
		if f.Viewer == viewer {
			return f
		}
	}
	return nil
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
	t.senders.Add(1)
	defer t.senders.Add(-1)
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
	select {
	case t.ops <- op:
	case <-t.done:
		return protocol.ErrStopped
	case <-ctx.Done():
		return ctx.Err()
	}
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

// EventsSince returns the committed events with seq > since, in seq order.
func (t *Table) EventsSince(ctx context.Context, since int64) ([]protocol.Event, error) {
	var out []protocol.Event
	err := t.call(ctx, func() {
		t.touch()
		out = t.since(since)
	})
	return out, err
}

// since copies the events after seq.
func (t *Table) since(seq int64) []protocol.Event {
	if seq < 0 {
		seq = 0
	}
	if seq >= int64(len(t.events)) {
		return nil
	}
	return append([]protocol.Event(nil), t.events[seq:]...)
}

// Subscription is a live feed of a game's events for one viewer
// (protocol.Feed).
type Subscription struct {
	start *protocol.Start // until ReleaseStart

	t      *Table
	viewer int
	err    atomic.Pointer[error]
	once   sync.Once
	ready  atomic.Pointer[func()] // see OnReady

	// The updates not yet taken. A subscription lives as long as its socket
	// and is idle most of that time: the queue then holds nothing (a
	// buffered channel of SubscriberBuffer updates would keep its slots).
	mu    sync.Mutex
	q     []protocol.Update
	ended bool // no update comes after those in q
}

// The most updates a queue keeps room for once taken: more is a burst's,
// which an idle subscription gives back.
const keepQueue = 8

// push queues an update on the table's goroutine; false when the
// subscriber is SubscriberBuffer updates behind (the table then drops it).
func (s *Subscription) push(u protocol.Update) bool {
	s.mu.Lock()
	if len(s.q) >= s.t.cfg.SubscriberBuffer {
		s.mu.Unlock()
		return false
	}
	s.q = append(s.q, u)
	s.mu.Unlock()
	s.signal()
	return true
}

// end marks the queue ended, on the table's goroutine.
func (s *Subscription) end() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	s.signal()
}

// Take appends the updates waiting to dst without blocking; open is false
// once the subscription has ended (by Close, because the subscriber fell
// behind: Err returns ErrSlow, or because the table stopped or reloaded:
// ErrStopped, ErrReloaded) and dst holds its last updates.
func (s *Subscription) Take(dst []protocol.Update) (_ []protocol.Update, open bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	dst = append(dst, s.q...)
	clear(s.q)
	if cap(s.q) > keepQueue {
		s.q = nil
	} else {
		s.q = s.q[:0]
	}
	return dst, !s.ended
}

// Pending reports whether updates wait to be taken.
func (s *Subscription) Pending() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.q) > 0
}

// OnReady has the table call f after it queues an update or ends the
// subscription, on the table's goroutine: f must not block (a subscriber
// wakes its writer with it, instead of keeping a goroutine waiting). What
// was queued before OnReady is waiting already.
func (s *Subscription) OnReady(f func()) { s.ready.Store(&f) }

// signal calls the subscriber's OnReady function, if any.
func (s *Subscription) signal() {
	if f := s.ready.Load(); f != nil {
		(*f)()
	}
}

// Start is the state the subscription started with, until ReleaseStart.
func (s *Subscription) Start() *protocol.Start { return s.start }

// ReleaseStart lets go of the state the subscription started with once the
// subscriber has sent it on: a subscription lives as long as its socket,
// and an idle one then holds no view of its own. Only the subscriber calls
// it, from the goroutine that reads the start.
func (s *Subscription) ReleaseStart() { s.start = nil }

// Kind is the kind of the game the subscription follows.
func (s *Subscription) Kind() string { return s.t.Game().Kind }

// Submit hands a command to the table the subscription follows (see
// Table.Submit).
func (s *Subscription) Submit(ctx context.Context, cmd protocol.Command, answer func(protocol.Result, error)) error {
	return s.t.Submit(ctx, cmd, answer)
}

// Viewer returns the viewer the subscription follows the game as: a seat,
// or 0 for a spectator.
func (s *Subscription) Viewer() int { return s.viewer }

// Err returns why the table ended the subscription, or nil.
func (s *Subscription) Err() error {
	if p := s.err.Load(); p != nil {
		return *p
	}
	return nil
}

// Close ends the subscription and returns once the table has forgotten it.
// It never blocks on a stopped table.
func (s *Subscription) Close() {
	s.once.Do(func() {
		_ = s.t.call(context.Background(), func() {
			if s.t.subs.remove(s) {
				s.end()
				s.t.touch()
				s.t.racePresence()
			}
		})
	})
}

// Subscribe starts a feed of the game for a viewer (a seat, or 0 for a
// spectator). With since >= 0 it also returns the events after since, when it
// still has them (see Subscription.Missed). The feed is bounded: a subscriber
// that does not take its updates is dropped, it never slows the table.
//
// A new subscriber is how a game moves between nodes (clients reconnect with
// since= to the node the proxy now routes to), so Subscribe first checks the
// store: a table that another node wrote past, or whose seats changed, stops
// (its subscribers get ErrReloaded) and Subscribe returns ErrStopped, so that
// the caller gets the game rebuilt from the store.
func (t *Table) Subscribe(ctx context.Context, viewer int, since int64) (*Subscription, error) {
	s := &Subscription{t: t, viewer: viewer}
	st := t.readStore(ctx) // before the call: the table goes on meanwhile
	stale := false
	err := t.call(ctx, func() {
		if stale = st.stale(t); stale {
			t.err, t.stopping = protocol.ErrReloaded, true
			return
		}
		t.touch()
		st := &protocol.Start{Seq: t.seq, View: t.eng.View(viewer, t.id, t.seq), Check: t.answeredCheck()}
		if base, ok := t.views.get(viewer); !ok || base.seq != t.seq {
			// Another subscriber of this viewer keeps its base: the view at the
			// same seq that its client folded.
			t.views.set(viewer, seqView{t.seq, st.View})
		}
		if since >= 0 && since <= t.seq {
			st.Missed, st.Resumed = t.since(since), true
		}
		s.start = st
		t.subs = append(t.subs, s)
		t.racePresence()
	})
	if err == nil && stale {
		<-t.done
		return nil, protocol.ErrStopped
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// storeState is what the store held of a table's game when a subscriber
// came: the header and the actions after a seq the table had reached. It
// is read off the table's goroutine, so that a subscriber never holds the
// table up for the store's round trips.
type storeState struct {
	ok     bool      // the store answered
	stored [2]string // the seats in the store's header
	seats  [2]string // the table's seats when the header was read
	after  int64     // the table's durable seq when the actions were read
	acts   []store.Action
}

// readStore reads the store's state of the game (see storeState). A store
// that cannot answer leaves the table as it is (its next commit is still
// fenced by the (game_id, seq) key).
func (t *Table) readStore(ctx context.Context) storeState {
	ctx, cancel := context.WithTimeout(ctx, t.cfg.StoreTimeout)
	defer cancel()
	st := storeState{seats: t.game.Load().Seats, after: t.durable.Load()}
	g, err := t.cfg.Store.Game(ctx, t.id)
	if err != nil {
		return st
	}
	if st.acts, err = t.cfg.Store.Actions(ctx, t.id, st.after); err != nil {
		return st
	}
	st.stored, st.ok = g.Seats, true
	return st
}

// stale reports, on the table's goroutine, whether the store held actions
// after the table's seq or other seats than the table's header: another
// node wrote the game. The table's own actions committed since the read
// are at or below its seq; seats the table itself took on since the read
// (a player joined through it) make the header read out of date, not the
// table.
func (st storeState) stale(t *Table) bool {
	if !st.ok {
		return false
	}
	if seats := t.game.Load().Seats; seats == st.seats && st.stored != seats {
		return true
	}
	n := len(st.acts)
	return n > 0 && st.acts[n-1].Seq > t.seq
}

// drop ends a subscription from the table's side.
func (t *Table) drop(s *Subscription, why error) {
	s.err.Store(&why)
	t.subs.remove(s)
	s.end()
}

func (t *Table) touch() { t.last = t.cfg.Clock() }

// run is the table's goroutine.
func (t *Table) run() {
	defer t.refuseLeft() // last, once done is closed
	defer close(t.done)
	batch := make([]*doReq, 0, t.cfg.MaxBatch)
	for {
		select {
		case r := <-t.do:
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
		}
		if t.stopping || isClosed(t.quit) {
			break
		}
	}
	t.raceStop()
	if t.checkStop != nil {
		t.checkStop()
	}
	why := t.err
	if why == nil {
		why = protocol.ErrStopped
	}
	for s := range t.subs.all() {
		t.drop(s, why)
	}
}

// refuseLeft answers ErrStopped, once the table has stopped (done is
// closed), the commands handed over that it never took: every Submit that
// returned nil gets its answer. A Submit under way as done closed may still
// put its command in the queue, so the queue is drained until none is under
// way; one that begins later sees done and returns ErrStopped.
func (t *Table) refuseLeft() {
	for {
		last := t.senders.Load() == 0 // then what they queued is in do: drained below
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

// pending is one request of a batch being handled.
type pending struct {
	r       *doReq
	res     protocol.Result
	err     error
	dupOf   int64 // seq of the earlier action with the same client id
	applied bool
	frames  []*protocol.Frame // one per viewer, for subscribers
}

// handle applies a batch of commands, commits the accepted actions in one
// Commit and only then answers and publishes.
func (t *Table) handle(batch []*doReq) {
	t.touch()
	committed := t.seq
	ps := make([]pending, len(batch))
	var actions []store.Action
	// The viewers' bases as the batch goes; they become the table's only
	// once the batch is durable.
	views := append(t.spare[:0], t.views...)
	play := t.play
	var prevAt time.Time
	if n := len(t.events); n > 0 {
		prevAt = t.events[n-1].At
	}
	for i, r := range batch {
		p := &ps[i]
		p.r = r
		if err := r.ctx.Err(); err != nil {
			p.err = err
			continue
		}
		cmd := r.cmd
		if cmd.ClientID != "" {
			if seq, ok := t.clientIDs.get(cmd.Seat, cmd.ClientID); ok {
				p.dupOf = seq
				continue
			}
		}
		if err := t.eng.Check(cmd.Seat); err != nil {
			p.err = err
			continue
		}
		if cmd.Seq != nil && *cmd.Seq != t.seq {
			p.err = game.Errorf(game.Conflict, "the game is at seq %d, not %d; reload it", t.seq, *cmd.Seq)
			continue
		}
		out, err := t.eng.Apply(cmd.Seat, cmd.Action)
		if err != nil {
			p.err = err
			continue
		}
		now := t.cfg.Clock()
		if t.seq > 0 {
			play = store.AddGap(play, prevAt, now)
		}
		prevAt = now
		if out.Tally != nil {
			out.Tally.Play = play
		}
		t.seq++
		ev := protocol.Event{
			Seq:      t.seq,
			Seat:     cmd.Seat,
			Action:   out.Action.AppendJSON(nil),
			Status:   t.eng.Status(),
			At:       now,
			ClientID: cmd.ClientID,
		}
		if cmd.ClientID != "" {
			t.clientIDs.put(cmd.Seat, cmd.ClientID, t.seq)
		}
		p.applied = true
		p.res = protocol.Result{Seq: t.seq, Event: ev, ViewSeq: t.seq}
		// The view after the action is built for the first viewer that
		// needs it and turned to the others (View.For).
		var built protocol.View
		viewOf := func(viewer int) protocol.View {
			if built == nil {
				built = t.eng.View(viewer, t.id, t.seq)
				return built
			}
			return built.For(viewer)
		}
		if len(t.subs) > 0 {
			p.frames = make([]*protocol.Frame, 0, len(t.subs))
			var first *protocol.Frame // with a delta the other viewers' frames share, in a race
			for _, s := range t.subs {
				if frameOf(p.frames, s.viewer) == nil {
					f := &protocol.Frame{Event: ev, View: viewOf(s.viewer), Viewer: s.viewer}
					if base, ok := views.get(s.viewer); ok && base.seq == t.seq-1 {
						f.Prev = base.view
						if _, race := f.View.(protocol.RaceView); race {
							if first == nil {
								first = f
							} else {
								f.Like = first
							}
						}
					}
					views.set(s.viewer, seqView{t.seq, f.View})
					p.frames = append(p.frames, f)
				}
			}
		}
		if f := frameOf(p.frames, cmd.Seat); f != nil {
			p.res.View = f.View
		} else {
			p.res.View = viewOf(cmd.Seat)
		}
		actions = append(actions, store.Action{
			GameID: t.id, Seq: ev.Seq, Seat: ev.Seat, Action: ev.Action, ClientID: ev.ClientID, At: now,
			Tally: out.Tally,
		})
	}
	if len(actions) > 0 {
		if err := t.cfg.Committer.Commit(context.Background(), actions...); err != nil {
			t.commitFailed(ps, committed, err)
			return
		}
	}
	// Durable: record, store a changed status, answer, publish.
	t.durable.Store(t.seq)
	clear(t.views) // what the bases before hold may go
	t.views, t.spare = views, t.views
	t.play = play
	statusBefore := t.game.Load().Status
	for i := range ps {
		p := &ps[i]
		if p.applied {
			t.events = append(t.events, p.res.Event)
		}
	}
	// A changed status is stored before anyone hears of the action: a
	// player told "won" finds the game won in their list.
	if st := t.eng.Status(); st != statusBefore {
		t.storeStatus(st)
	}
	for i := range ps {
		p := &ps[i]
		switch {
		case p.applied:
			t.observe(p.r.cmd, nil)
			t.publish(p.frames) // first: a subscriber's event is queued before the sender's answer
			p.r.answer(p.res, nil)
		case p.dupOf > 0:
			p.r.answer(t.dupResult(p.r.cmd, p.dupOf), nil)
		default:
			t.observe(p.r.cmd, p.err)
			p.r.answer(protocol.Result{}, p.err)
		}
	}
	if len(actions) > 0 {
		t.startCheck()
	}
	if t.rl != nil {
		t.rl.After()
	}
}

// dupResult answers a resent client id: the earlier event, the current view.
func (t *Table) dupResult(cmd protocol.Command, seq int64) protocol.Result {
	return protocol.Result{
		Seq: seq, Duplicate: true, Event: t.events[seq-1],
		View: t.eng.View(cmd.Seat, t.id, t.seq), ViewSeq: t.seq,
	}
}

// observe reports an accepted (err nil) or refused action to the hooks.
func (t *Table) observe(cmd protocol.Command, err error) {
	if t.cfg.Hooks.Action == nil {
		return
	}
	code := ""
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return
		}
		code = string(protocol.AsError(err).Code)
	}
	t.cfg.Hooks.Action(cmd.Action.Type.String(), code)
}

// publish sends an event's frames to every subscriber; a full subscriber is
// dropped.
func (t *Table) publish(frames []*protocol.Frame) {
	for s := range t.subs.all() {
		f := frameOf(frames, s.viewer)
		if f == nil { // subscribed while the batch was applied: cannot happen, but stay safe
			t.drop(s, protocol.ErrSlow)
			continue
		}
		if !s.push(protocol.Update{Frame: f}) {
			t.drop(s, protocol.ErrSlow)
		}
	}
}

// storeStatus writes a changed status (and result) to the game header; the
// end of a race with a result is stored with its rating decision, and the
// win of a daily challenge with its pace, in one transaction (rated.go). The log stays the source of truth: a failed write
// is repaired at the next load, and a race decided already is not rated
// again.
func (t *Table) storeStatus(status string) {
	g := *t.game.Load()
	g.Status = status
	g.Result = t.eng.Result()
	g.UpdatedAt = t.cfg.Clock()
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	var err error
	finished := t.rl != nil && status == "over" && len(g.Result) > 0
	switch {
	case finished:
		err = t.cfg.Store.FinishRace(ctx, g, t.raceDecision())
	case status == game.Won && game.DailyOf(g.Kind, g.Options) != "":
		err = t.cfg.Store.FinishDaily(ctx, g, paceOf(t.events).medianGap[0])
	default:
		err = t.cfg.Store.UpdateGame(ctx, g)
	}
	if err != nil {
		t.cfg.Logger.Error("table: store game status", "game", t.id, "status", status, "err", err)
		return
	}
	t.game.Store(&g)
	if finished {
		if err := t.rl.LoadRatings(ctx); err != nil {
			t.cfg.Logger.Warn("table: read the race's ratings", "game", t.id, "err", err)
		}
	}
}

// commitFailed undoes the uncommitted actions of a batch so that the engine
// never runs ahead of the log, and answers the batch. On a conflict (another
// node wrote this game) the table reloads from the store.
func (t *Table) commitFailed(ps []pending, committed int64, cerr error) {
	conflict := errors.Is(cerr, store.ErrConflict) || errors.Is(cerr, store.ErrNotFound)
	var answer error
	if conflict {
		answer = &game.Error{Code: game.Conflict, Msg: "the game was changed elsewhere; reload it", Err: cerr}
	} else {
		answer = &game.Error{Code: game.Unavailable, Msg: "the action could not be stored; retry", Err: cerr}
	}
	t.cfg.Logger.Warn("table: commit failed", "game", t.id, "err", cerr)
	var rerr error
	if conflict {
		rerr = t.reload()
	} else {
		rerr = t.rebuild(t.events[:committed])
	}
	// Requests handled before the first applied action saw only committed
	// state and keep their answers; the later ones share the failure.
	first := 0
	for first < len(ps) && !ps[first].applied {
		first++
	}
	for i := range ps {
		p := &ps[i]
		switch {
		case i >= first:
			t.observe(p.r.cmd, answer)
			p.r.answer(protocol.Result{}, answer)
		case p.dupOf > 0 && rerr == nil:
			p.r.answer(t.dupResult(p.r.cmd, p.dupOf), nil)
		case p.dupOf > 0:
			p.r.answer(protocol.Result{}, answer)
		default:
			t.observe(p.r.cmd, p.err)
			p.r.answer(protocol.Result{}, p.err)
		}
	}
	if rerr != nil {
		t.cfg.Logger.Error("table: rebuild after a failed commit", "game", t.id, "err", rerr)
		t.err = rerr
		t.stopping = true
	}
}

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
