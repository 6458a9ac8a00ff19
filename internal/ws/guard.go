package ws

import (
	"context"
	"errors"
	"time"

	"dsol/internal/game"
)

// The guard's bounds: one check waits at most checkTimeout, and a check
// that could not answer (the store is down: not a revocation) is tried
// again after checkRetry.
const (
	checkTimeout = 5 * time.Second
	checkRetry   = 5 * time.Second
)

// guard checks again the tokens of the open sessions (Deps.Check) while
// sessions are open (track starts it, untrack of the last one stops it):
// each token when it is tracked, and again when the answer runs out, which
// for players.Service.CheckToken is when this node's sign-in cache forgets
// the token. A token revoked on another node is thus found within the
// cache's lifetime, and its sessions are closed with CloseSignedOut. One
// goroutine and one timer for all the handler's sockets; the checks run
// one after the other, never on a session's goroutine.
func (k *sockets[S]) guard(stop <-chan struct{}) {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		now := time.Now()
		due, next := k.dueTokens(now)
		for _, in := range due {
			k.recheck(in)
		}
		if len(due) > 0 {
			continue // the checks took time: look again
		}
		wait := time.Hour // no token: a track kicks
		if !next.IsZero() {
			wait = next.Sub(now)
		}
		t.Reset(wait)
		select {
		case <-stop:
			return
		case <-k.kick:
		case <-t.C:
		}
	}
}

// dueTokens returns the tokens due for a check at now, marked as being
// checked, and when the next of the others falls due (zero: none).
func (k *sockets[S]) dueTokens(now time.Time) (due []*signIn, next time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, in := range k.signIns {
		switch {
		case in.token == nil || in.checking:
		case !in.due.After(now):
			in.checking = true
			due = append(due, in)
		case next.IsZero() || in.due.Before(next):
			next = in.due
		}
	}
	return due, next
}

// recheck checks one token, closes its sessions when it no longer signs
// its player in, and sets when it is due again.
func (k *sockets[S]) recheck(in *signIn) {
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	valid, err := k.check(ctx, in.token)
	cancel()
	var e *game.Error
	switch {
	case errors.As(err, &e) && e.Code == game.Unauthorized:
		k.revoke(in.player, in.token)
		valid = checkRetry // a session tracked meanwhile is closed by the next check
	case err != nil:
		k.log.Warn("ws: the sign-in of open sockets could not be checked", "err", err)
		valid = checkRetry
	}
	// At least a millisecond: a cache answering to the nanosecond is asked
	// once its answer has run out, not again at once.
	valid = max(valid, time.Millisecond)
	k.mu.Lock()
	in.checking, in.due = false, time.Now().Add(valid)
	k.mu.Unlock()
	select { // a guard started meanwhile, which skipped the token, sees it
	case k.kick <- struct{}{}:
	default:
	}
}
