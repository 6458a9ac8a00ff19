package store

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// ErrClosed is returned by Committer.Commit after Close.
var ErrClosed = errors.New("store: committer closed")

// CommitTimeout bounds one write of a Committer batch. A batch is shared by many
// callers, so it runs under its own deadline rather than any caller's context.
const CommitTimeout = 30 * time.Second

// Committer is the group-commit writer of the action log. Callers (one table
// goroutine per live game) hand it actions with Commit; a single goroutine
// gathers the requests of many games for at most a short window, or until
// maxBatch actions, writes them with one Store.AppendActions (one transaction,
// one fsync or round trip) and answers every caller.
//
// A request is never split: its actions are written together or not at all. If
// a batch fails with ErrConflict or ErrNotFound, each of its requests is written
// again on its own, so only the offending requests fail. Within such a retry,
// once a request of a game fails, the later requests of the same game in that
// batch fail with ErrConflict too, so a game's log never gets a gap.
//
// A Committer is safe for concurrent use; it allocates nothing per request in
// the steady state.
type Committer struct {
	s        ActionLog
	window   time.Duration
	maxBatch int
	observe  func(batchSize int, d time.Duration, err error)

	failed atomic.Pointer[failure] // the last write's failure, nil once one succeeds

	reqs chan *commitReq
	pool sync.Pool // of *commitReq, the committer's own: its channels belong with its goroutines (a synctest bubble)
	quit chan struct{}
	done chan struct{}
	once sync.Once

	// Owned by the run goroutine.
	batch   []*commitReq
	actions []Action
}

// commitReq is one call of Commit, recycled through the committer's pool.
type commitReq struct {
	actions []Action
	err     chan error // buffered (1): the committer never blocks on a caller
}

// NewCommitter starts a group-commit writer over s (its AppendActions). A
// batch is written at most window after its first request arrived, or as
// soon as it holds maxBatch actions (maxBatch <= 0 means 256). observe, if not nil, is called from the
// writer goroutine after every AppendActions with the number of actions written,
// the time the write took and its error; it must be quick (a metrics update).
func NewCommitter(s ActionLog, window time.Duration, maxBatch int, observe func(batchSize int, d time.Duration, err error)) *Committer {
	if maxBatch <= 0 {
		maxBatch = 256
	}
	if window < 0 {
		window = 0
	}
	c := &Committer{
		s:        s,
		window:   window,
		maxBatch: maxBatch,
		observe:  observe,
		reqs:     make(chan *commitReq),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	c.pool.New = func() any { return &commitReq{err: make(chan error, 1)} }
	go c.run()
	return c
}

// Commit writes actions durably, together with the actions of other callers,
// and returns once they are stored (nil) or have failed: ErrConflict when one
// of them collides with a stored action (same game and seq, or same game, seat
// and client id), ErrNotFound when its game does not exist, ErrUnavailable when
// the database cannot be reached, ErrClosed after Close.
//
// ctx only bounds the wait for a place in a batch: when it ends first, Commit
// returns ctx.Err() and nothing was written. Once the actions are in a batch
// Commit waits for the outcome of the write (bounded by CommitTimeout), so its
// answer is always definite. Commit with no actions returns nil at once.
func (c *Committer) Commit(ctx context.Context, actions ...Action) error {
	if len(actions) == 0 {
		return nil
	}
	r := c.pool.Get().(*commitReq)
	r.actions = append(r.actions[:0], actions...)
	select {
	case c.reqs <- r:
	case <-c.quit:
		c.release(r)
		return ErrClosed
	case <-ctx.Done():
		c.release(r)
		return ctx.Err()
	}
	err := <-r.err
	c.release(r)
	return err
}

// release clears the request and returns it to the pool.
func (c *Committer) release(r *commitReq) {
	clear(r.actions)
	r.actions = r.actions[:0]
	c.pool.Put(r)
}

// Close writes the requests already accepted, stops the writer and waits for
// it. Later calls of Commit return ErrClosed. Close does not close the Store.
func (c *Committer) Close() error {
	c.once.Do(func() { close(c.quit) })
	<-c.done
	return nil
}

// failure is a failed write of the action log and when it ended.
type failure struct {
	err error
	at  time.Time
}

// LastError returns when the last write failed and its error, if it failed
// for want of the database (any error but ErrConflict and ErrNotFound, which
// are answers to the request, not failures of the store); a zero time and nil
// when no write has failed or a later one succeeded. It tells a readiness probe
// whether the action log can be written.
func (c *Committer) LastError() (time.Time, error) {
	if p := c.failed.Load(); p != nil {
		return p.at, p.err
	}
	return time.Time{}, nil
}

// run is the writer goroutine.
func (c *Committer) run() {
	defer close(c.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		var first *commitReq
		select {
		case first = <-c.reqs:
		case <-c.quit:
			return
		}
		c.add(first)
		n := len(first.actions)
		if n < c.maxBatch && c.window > 0 {
			timer.Reset(c.window)
		gather:
			for n < c.maxBatch {
				select {
				case r := <-c.reqs:
					c.add(r)
					n += len(r.actions)
				case <-timer.C:
					break gather
				case <-c.quit:
					break gather
				}
			}
			timer.Stop()
		}
		// Take whatever is already waiting, without waiting any longer.
	drain:
		for n < c.maxBatch {
			select {
			case r := <-c.reqs:
				c.add(r)
				n += len(r.actions)
			default:
				break drain
			}
		}
		c.flush()
	}
}

func (c *Committer) add(r *commitReq) {
	c.batch = append(c.batch, r)
	c.actions = append(c.actions, r.actions...)
}

// flush writes the gathered batch and answers its requests.
func (c *Committer) flush() {
	err := c.write(c.actions)
	if len(c.batch) > 1 && (errors.Is(err, ErrConflict) || errors.Is(err, ErrNotFound)) {
		c.isolate()
	} else {
		for _, r := range c.batch {
			r.err <- err
		}
	}
	clear(c.batch)
	c.batch = c.batch[:0]
	clear(c.actions)
	c.actions = c.actions[:0]
}

// isolate writes the requests of a failed batch one by one, in order.
func (c *Committer) isolate() {
	var failed map[string]bool // games with a failed request in this batch
	for _, r := range c.batch {
		var err error
		for i := range r.actions {
			if failed[r.actions[i].GameID] {
				err = ErrConflict
				break
			}
		}
		if err == nil {
			err = c.write(r.actions)
		}
		if err != nil {
			if failed == nil {
				failed = make(map[string]bool)
			}
			for i := range r.actions {
				failed[r.actions[i].GameID] = true
			}
		}
		r.err <- err
	}
}

// write appends actions under CommitTimeout, keeps the outcome for LastError
// and reports the write to observe.
func (c *Committer) write(actions []Action) error {
	ctx, cancel := context.WithTimeout(context.Background(), CommitTimeout)
	start := time.Now()
	err := c.s.AppendActions(ctx, actions)
	d := time.Since(start)
	cancel()
	switch {
	case err == nil:
		if c.failed.Load() != nil {
			c.failed.Store(nil)
		}
	case !errors.Is(err, ErrConflict) && !errors.Is(err, ErrNotFound):
		c.failed.Store(&failure{err: err, at: time.Now()}) // only a failure allocates
	}
	if c.observe != nil {
		c.observe(len(actions), d, err)
	}
	return err
}
