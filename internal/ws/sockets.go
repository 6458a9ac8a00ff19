package ws

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"time"

	"dsol/internal/game"
	"dsol/internal/protocol"
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
	// revoke ends the socket at once with CloseSignedOut.
	revoke()
}

// signIn is whom open sessions signed in as: the player and the token (nil
// when the handler knows none), shared by the sessions of one sign-in, and
// what the guard keeps of it.
type signIn struct {
	player   string
	token    []byte
	open     int       // the sessions open with it
	due      time.Time // when the guard checks the token again; zero: at once
	checking bool      // a check is under way
}

// signInKey finds a sign-in.
type signInKey struct{ player, token string }

// sockets is the bookkeeping a handler keeps of its connections: each
// player's share of them (bounded), the open sessions and whom they signed
// in as, the tokens they signed in with (checked again by the guard) and,
// for Shutdown, whether it still takes new ones.
type sockets[S socket] struct {
	what         string // "sockets" or "lobby sockets", for the refusal
	max          int    // per player
	writeTimeout time.Duration
	check        func(ctx context.Context, token []byte) (time.Duration, error) // nil: no guard
	log          *slog.Logger

	mu        sync.Mutex
	closing   bool
	sessions  map[S]*signIn
	signIns   map[signInKey]*signIn // the sign-ins of the open sessions
	perPlayer map[string]int
	wg        sync.WaitGroup // one per admitted connection
	stopWatch chan struct{}  // closed to stop the watchdog and the guard; nil when they do not run
	kick      chan struct{}  // capacity 1: a new token for the guard
}

func newSockets[S socket](what string, max int, writeTimeout time.Duration,
	check func(context.Context, []byte) (time.Duration, error), log *slog.Logger) *sockets[S] {
	return &sockets[S]{what: what, max: max, writeTimeout: writeTimeout, check: check, log: log,
		sessions: make(map[S]*signIn), signIns: make(map[signInKey]*signIn), perPlayer: make(map[string]int),
		kick: make(chan struct{}, 1)}
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

// track registers an open session of player, signed in with token (nil:
// none known), unless the handler is shutting down.
func (k *sockets[S]) track(s S, player string, token []byte) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closing {
		return false
	}
	in := k.signIns[signInKey{player, string(token)}]
	if in == nil {
		in = &signIn{player: player, token: token}
		k.signIns[signInKey{player, string(token)}] = in
		select { // the guard checks it at once: it may have been revoked since the upgrade began
		case k.kick <- struct{}{}:
		default:
		}
	}
	in.open++
	k.sessions[s] = in
	if k.stopWatch == nil {
		k.stopWatch = make(chan struct{})
		go k.watch(k.stopWatch)
		if k.check != nil {
			go k.guard(k.stopWatch)
		}
	}
	return true
}

func (k *sockets[S]) untrack(s S) {
	k.mu.Lock()
	if in := k.sessions[s]; in != nil {
		delete(k.sessions, s)
		if in.open--; in.open == 0 {
			delete(k.signIns, signInKey{in.player, string(in.token)})
		}
	}
	if len(k.sessions) == 0 && k.stopWatch != nil {
		close(k.stopWatch)
		k.stopWatch = nil
	}
	k.mu.Unlock()
}

// revoke ends, with CloseSignedOut, the player's open sessions signed in
// with token, or all of them for a nil token.
func (k *sockets[S]) revoke(player string, token []byte) {
	k.mu.Lock()
	var ss []S
	for s, in := range k.sessions {
		if in.player == player && (token == nil || bytes.Equal(in.token, token)) {
			ss = append(ss, s)
		}
	}
	k.mu.Unlock()
	for _, s := range ss {
		s.revoke()
	}
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
			s.close(protocol.CloseRestart, "server restart")
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
