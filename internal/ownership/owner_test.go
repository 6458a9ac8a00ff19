package ownership

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"dsol/internal/game"
	"dsol/internal/store"
	"dsol/internal/testenv"
)

// leases is a shared store of leases in memory, for two nodes.
type leases struct {
	mu     sync.Mutex
	held   map[string]store.Lease // by id
	wanted map[string]bool        // ids another node asked for
	down   bool                   // the store does not answer
}

func newLeases() *leases {
	return &leases{held: map[string]store.Lease{}, wanted: map[string]bool{}}
}

var errDown = errors.New("down")

func (l *leases) Acquire(_ context.Context, id, node, addr string, now time.Time, ttl time.Duration) (store.Lease, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.down {
		return store.Lease{}, false, errDown
	}
	if h, ok := l.held[id]; ok && h.Node != node && now.Before(h.Expires) {
		l.wanted[id] = true
		return h, false, nil
	}
	l.held[id] = store.Lease{Game: id, Node: node, Addr: addr, Expires: now.Add(ttl)}
	delete(l.wanted, id)
	return l.held[id], true, nil
}

func (l *leases) Renew(_ context.Context, node string, ids []string, now time.Time, ttl time.Duration) (map[string]bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.down {
		return nil, errDown
	}
	out := map[string]bool{}
	for _, id := range ids {
		if h, ok := l.held[id]; ok && h.Node == node {
			h.Expires = now.Add(ttl)
			l.held[id] = h
			out[id] = l.wanted[id]
		}
	}
	return out, nil
}

func (l *leases) Release(_ context.Context, node string, ids []string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, h := range l.held {
		if h.Node == node && (ids == nil || slices.Contains(ids, id)) {
			delete(l.held, id)
		}
	}
	return nil
}

// holding is a holder of a set of ids that records what it lost.
type holding struct {
	mu   sync.Mutex
	ids  []string
	lost []string
}

func (h *holding) holder() Holder {
	return Holder{
		Held: func() []string { h.mu.Lock(); defer h.mu.Unlock(); return slices.Clone(h.ids) },
		Lost: func(id string) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.ids = slices.DeleteFunc(h.ids, func(x string) bool { return x == id })
			h.lost = append(h.lost, id)
		},
	}
}

// TestOwnership: a node takes what nobody holds; another node is refused
// (unavailable, naming the holder) and its request makes the holder hand
// the game over at its next renewal, after which the holder does not take
// it back for a lease's length; a node whose store stops answering stops
// everything once a lease's length has passed; without leases a node owns
// everything.
func TestOwnership(t *testing.T) {
	ctx := context.Background()
	ls := newLeases()
	c := testenv.NewClock()
	var elsewhere int
	a := New(Config{Leases: ls, Node: "a", Addr: "a:1", TTL: time.Hour, Clock: c.Now, Elsewhere: func() { elsewhere++ }})
	b := New(Config{Leases: ls, Node: "b", TTL: time.Hour, Clock: c.Now})
	defer a.Close()
	defer b.Close()
	var ha holding
	a.Hold(ha.holder())

	if err := a.Acquire(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	ha.ids = []string{"g1"}
	err := b.Acquire(ctx, "g1")
	var ee *ElsewhereError
	if !errors.As(err, &ee) || ee.Lease.Node != "a" || ee.GameError().Code != game.Unavailable || !IsElsewhere(err) {
		t.Fatalf("b's acquire of a's game: %v", err)
	}
	if !a.renew() || !slices.Equal(ha.lost, []string{"g1"}) {
		t.Fatalf("after b asked: a lost %v", ha.lost)
	}
	if _, ok := ls.held["g1"]; ok {
		t.Fatal("a kept the lease of the game it handed over")
	}
	if err := a.Acquire(ctx, "g1"); !IsElsewhere(err) || elsewhere != 1 {
		t.Fatalf("a took back what it just handed over: %v (elsewhere %d)", err, elsewhere)
	}
	if err := b.Acquire(ctx, "g1"); err != nil {
		t.Fatalf("b after the handover: %v", err)
	}
	c.Advance(time.Hour)
	a.renew() // forgets the handover
	b.Release([]string{"g1"})
	if err := a.Acquire(ctx, "g1"); err != nil {
		t.Fatalf("a a lease's length after the handover: %v", err)
	}

	// The store stops answering: renewals fail, nothing is lost yet.
	ha.ids, ha.lost = []string{"g1"}, nil
	ls.down = true
	if a.renew() || len(ha.lost) != 0 {
		t.Fatalf("a failed renewal: lost %v", ha.lost)
	}
	ls.down = false

	// Release(nil) gives up everything of the node.
	a.Release(nil)
	if len(ls.held) != 0 {
		t.Fatalf("held after Release(nil): %v", ls.held)
	}

	// A node alone owns everything and renews nothing.
	alone := New(Config{})
	if err := alone.Acquire(ctx, "anything"); err != nil {
		t.Fatal(err)
	}
	alone.Close()
}
