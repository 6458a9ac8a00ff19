package ws

import (
	"sync/atomic"
	"testing"
	"time"
)

// fakeSocket records what the watchdog and the guard asked of it.
type fakeSocket struct {
	writing int64 // when its write began, or 0
	dropped atomic.Bool
	revoked atomic.Bool
}

func (f *fakeSocket) close(int, string) {}
func (f *fakeSocket) closeNow()         {}
func (f *fakeSocket) revoke()           { f.revoked.Store(true) }
func (f *fakeSocket) overdue(since int64) {
	if f.writing != 0 && f.writing < since {
		f.dropped.Store(true)
	}
}

// TestWatchdog: the watchdog drops a socket whose write began more than the
// write timeout ago, leaves the others, and stops with the last socket.
func TestWatchdog(t *testing.T) {
	k := newSockets[*fakeSocket]("sockets", 8, 80*time.Millisecond, nil, nil)
	stuck := &fakeSocket{writing: time.Now().UnixNano()}
	idle := &fakeSocket{}
	fresh := &fakeSocket{writing: time.Now().Add(time.Hour).UnixNano()}
	for _, s := range []*fakeSocket{stuck, idle, fresh} {
		if !k.track(s, "p", nil) {
			t.Fatal("not tracked")
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for !stuck.dropped.Load() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !stuck.dropped.Load() || idle.dropped.Load() || fresh.dropped.Load() {
		t.Fatalf("dropped: stuck %v, idle %v, fresh %v", stuck.dropped.Load(), idle.dropped.Load(), fresh.dropped.Load())
	}
	for _, s := range []*fakeSocket{stuck, idle, fresh} {
		k.untrack(s)
	}
	if k.stopWatch != nil {
		t.Fatal("the watchdog runs without sockets")
	}
}
