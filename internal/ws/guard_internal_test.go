package ws

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"dsol/internal/game"
)

// fakeAuth answers the guard's checks from a table of tokens and counts
// them.
type fakeAuth struct {
	mu      sync.Mutex
	answers map[string]error // a token's answer: nil (valid), or the error
	valid   time.Duration
	checks  map[string]int
}

func (a *fakeAuth) check(_ context.Context, token []byte) (time.Duration, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.checks[string(token)]++
	if err := a.answers[string(token)]; err != nil {
		return 0, err
	}
	return a.valid, nil
}

func (a *fakeAuth) set(token string, err error) {
	a.mu.Lock()
	a.answers[token] = err
	a.mu.Unlock()
}

func (a *fakeAuth) count(token string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.checks[token]
}

// eventually waits for cond, failing the test after a few seconds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGuard: the guard checks a token when its first socket opens and
// again each time the answer runs out; an unauthorized token closes its
// sockets (and only them), a check that fails otherwise closes nothing;
// revoke closes one token's sockets or a player's; the guard stops with the
// last socket.
func TestGuard(t *testing.T) {
	a := &fakeAuth{answers: map[string]error{}, checks: map[string]int{}, valid: 30 * time.Millisecond}
	k := newSockets[*fakeSocket]("sockets", 8, time.Minute, a.check, slog.New(slog.DiscardHandler))
	a1, a2, b1, c1 := &fakeSocket{}, &fakeSocket{}, &fakeSocket{}, &fakeSocket{}
	k.track(a1, "ada", []byte("ta"))
	k.track(a2, "ada", []byte("ta"))
	k.track(b1, "ada", []byte("tb"))
	k.track(c1, "cy", []byte("tc"))
	eventually(t, "each token checked on connect", func() bool {
		return a.count("ta") >= 1 && a.count("tb") >= 1 && a.count("tc") >= 1
	})
	eventually(t, "checked again once the answer ran out", func() bool { return a.count("ta") >= 3 })

	a.set("tc", errors.New("the store is down"))
	n := a.count("tc")
	eventually(t, "a failed check retried", func() bool { return a.count("tc") > n })
	if c1.revoked.Load() {
		t.Fatal("a check that could not answer closed the socket")
	}

	a.set("ta", game.Errorf(game.Unauthorized, "unknown token"))
	eventually(t, "the revoked token's sockets closed", func() bool { return a1.revoked.Load() && a2.revoked.Load() })
	if b1.revoked.Load() || c1.revoked.Load() {
		t.Fatal("another token's socket closed")
	}

	k.revoke("cy", []byte("other"))
	if c1.revoked.Load() {
		t.Fatal("Revoke of another token closed the socket")
	}
	k.revoke("ada", nil)
	if !b1.revoked.Load() || c1.revoked.Load() {
		t.Fatalf("Revoke of ada: b1 %v, c1 %v", b1.revoked.Load(), c1.revoked.Load())
	}

	for _, s := range []*fakeSocket{a1, a2, b1, c1} {
		k.untrack(s)
	}
	if k.stopWatch != nil || len(k.signIns) != 0 {
		t.Fatalf("after the last socket: watch %v, %d sign-ins", k.stopWatch != nil, len(k.signIns))
	}
}
