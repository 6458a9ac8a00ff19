package ws

import (
	"context"
	"sync"
	"time"

	"dsol/internal/game"
)

// socket is an open session as its handler sees it.
type socket interface {
	comparable
	// close ends the socket with a close code, waiting for the handshake.
	close(code int, reason string)
	// closeNow drops the connection without a handshake.
	closeNow()
	// overdue drops the connection when a write began before since.
	overdue(since int64)
}

// sockets is the bookkeeping a handler keeps of its connections: each
// player's share of them (bounded), the open sessions and, for Shutdown,
// whether it still takes new ones.
type sockets[S socket] struct {
	what         string // "sockets" or "lobby sockets", for the refusal
	max          int    // per player
	writeTimeout time.Duration

	mu        sync.Mutex
	closing   bool
	sessions  map[S]struct{}
	perPlayer map[string]int
	wg        sync.WaitGroup // one per admitted connection
	stopWatch chan struct{}  // closed to stop the watchdog; nil when it does not run
}

func newSockets[S socket](what string, max int, writeTimeout time.Duration) *sockets[S] {
	return &sockets[S]{what: what, max: max, writeTimeout: writeTimeout,
		sessions: make(map[S]struct{}), perPlayer: make(map[string]int)}
}

// watch is the watchdog of the write timeout: while sessions are open (track
// starts it, untrack of the last one stops it) it looks at them every quarter of the timeout and drops those whose write has
// gone on longer than the timeout (so a write takes at most 1.25 times it).
// One goroutine and one ticker for all the handler's sockets, instead of a
// timer for every write.
func (k *sockets[S]) watch(stop <-chan struct{}) {
	t := time.NewTicker(k.writeTimeout / 4)
	defer t.Stop()
	var ss []S
	for {
		var now time.Time
		select {
		case <-stop:
			return
		case now = <-t.C:
		}
		k.mu.Lock()
		ss = ss[:0]
		for s := range k.sessions {
			ss = append(ss, s)
		}
		k.mu.Unlock()
		since := now.Add(-k.writeTimeout).UnixNano()
		for _, s := range ss {
			s.overdue(since)
		}
		clear(ss)
	}
}

// count returns the number of open sessions.
func (k *sockets[S]) count() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.sessions)
}

// admit takes one of the player's slots.
func (k *sockets[S]) admit(pid string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closing {
		return game.Errorf(game.Unavailable, "the server is restarting; reconnect")
	}
	if k.perPlayer[pid] >= k.max {
		return game.Errorf(game.RateLimited, "too many open %s (%d); close one", k.what, k.max)
	}
	k.perPlayer[pid]++
	k.wg.Add(1)
	return nil
}

// release gives the slot back.
func (k *sockets[S]) release(pid string) {
	k.mu.Lock()
	if k.perPlayer[pid]--; k.perPlayer[pid] <= 0 {
		delete(k.perPlayer, pid)
	}
	k.mu.Unlock()
	k.wg.Done()
}

// track registers an open session, unless the handler is shutting down.
func (k *sockets[S]) track(s S) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closing {
		return false
	}
	k.sessions[s] = struct{}{}
	if k.stopWatch == nil {
		k.stopWatch = make(chan struct{})
		go k.watch(k.stopWatch)
	}
	return true
}

func (k *sockets[S]) untrack(s S) {
	k.mu.Lock()
	delete(k.sessions, s)
	if len(k.sessions) == 0 && k.stopWatch != nil {
		close(k.stopWatch)
		k.stopWatch = nil
	}
	k.mu.Unlock()
}

// shutdown refuses new sockets, closes every open one with 1012 and waits
// for the admitted connections to end, or for ctx, after which it drops the
// rest.
func (k *sockets[S]) shutdown(ctx context.Context) error {
	k.mu.Lock()
	k.closing = true
	ss := make([]S, 0, len(k.sessions))
	for s := range k.sessions {
		ss = append(ss, s)
	}
	k.mu.Unlock()
	var closing sync.WaitGroup
	for _, s := range ss {
		closing.Add(1)
		go func() {
			defer closing.Done()
			s.close(CloseRestart, "server restart")
		}()
	}
	done := make(chan struct{})
	go func() { k.wg.Wait(); closing.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		for _, s := range ss {
			s.closeNow()
		}
		<-done
		return ctx.Err()
	}
}
