package live

import (
	"context"
	"iter"
	"slices"
	"sync"
	"sync/atomic"

	"dsol/internal/protocol"
	"dsol/internal/store"
)

// seqView is a view and the seq it reflects.
type seqView struct {
	seq  int64
	view protocol.View
}

// viewBases are the bases of a table's viewers' next deltas: a few, one per
// viewer (the seats, the spectators), so a slice, walked for every event,
// and copied for every batch without allocating.
type viewBases []viewBase

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
	stored := t.readStore(ctx, since) // before the call: the table goes on meanwhile
	stale := false
	err := t.call(ctx, func() {
		if stale = stored.stale(t); stale {
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
			st.Missed, st.Resumed = t.since(since, stored.acts)
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
// came: the header and the actions after a seq the table had reached, or
// after the seq the subscriber resumes from when the table's window no
// longer holds it. It is read off the table's goroutine, so that a
// subscriber never holds the table up for the store's round trips.
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
func (t *Table) readStore(ctx context.Context, since int64) storeState {
	ctx, cancel := context.WithTimeout(ctx, t.cfg.StoreTimeout)
	defer cancel()
	st := storeState{seats: t.game.Load().Seats, after: t.durable.Load()}
	if since >= 0 && since < t.window.Load()-1 && since >= st.after-protocol.MaxResume {
		st.after = since
	}
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

type viewBase struct {
	viewer int
	seqView
}
