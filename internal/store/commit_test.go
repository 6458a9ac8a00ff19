package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"dsol/internal/store"
)

// memLog is an in-memory action log with the store's uniqueness rules; only
// AppendActions does anything.
type memLog struct {
	store.Store // nil: the other methods are not used

	mu      sync.Mutex
	delay   time.Duration
	fail    error // returned by every AppendActions while set
	seqs    map[string]int64
	clients map[string]bool
	calls   int
	entered atomic.Int32 // AppendActions calls begun, counted before the lock
}

func newMemLog() *memLog {
	return &memLog{seqs: map[string]int64{}, clients: map[string]bool{}}
}

func (m *memLog) AppendActions(ctx context.Context, actions []store.Action) error {
	m.entered.Add(1)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	if m.delay > 0 {
		time.Sleep(m.delay)
	}
	if m.fail != nil {
		return m.fail
	}
	seqs := map[string]int64{}
	clients := map[string]bool{}
	for _, a := range actions {
		last, ok := seqs[a.GameID]
		if !ok {
			last = m.seqs[a.GameID]
		}
		if a.Seq <= last {
			return fmt.Errorf("mem: %s seq %d: %w", a.GameID, a.Seq, store.ErrConflict)
		}
		if a.Seq != last+1 {
			return fmt.Errorf("mem: %s seq %d after %d: a gap", a.GameID, a.Seq, last)
		}
		seqs[a.GameID] = a.Seq
		if a.ClientID != "" {
			k := fmt.Sprintf("%s/%d/%s", a.GameID, a.Seat, a.ClientID)
			if m.clients[k] || clients[k] {
				return fmt.Errorf("mem: client id %s: %w", k, store.ErrConflict)
			}
			clients[k] = true
		}
	}
	for g, s := range seqs {
		m.seqs[g] = s
	}
	for k := range clients {
		m.clients[k] = true
	}
	return nil
}

func (m *memLog) last(game string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seqs[game]
}

// batchSizes records what observe saw.
type batchSizes struct {
	mu    sync.Mutex
	sizes []int
	errs  []error
}

func (b *batchSizes) observe(n int, _ time.Duration, err error) {
	b.mu.Lock()
	b.sizes = append(b.sizes, n)
	b.errs = append(b.errs, err)
	b.mu.Unlock()
}

func (b *batchSizes) largest() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := 0
	for _, n := range b.sizes {
		m = max(m, n)
	}
	return m
}

func action(game string, seq int64, client string) store.Action {
	return store.Action{GameID: game, Seq: seq, Seat: 1, Action: []byte(`{"type":"draw"}`), ClientID: client}
}

func mustCommit(tb testing.TB, c *store.Committer, actions ...store.Action) {
	tb.Helper()
	if err := c.Commit(tb.Context(), actions...); err != nil {
		tb.Fatalf("Commit(%v): %v", actions, err)
	}
}

func TestCommitterConcurrent(t *testing.T) {
	m := newMemLog()
	m.delay = time.Millisecond // a write takes a while, as an fsync does
	var bs batchSizes
	c := store.NewCommitter(m, time.Millisecond, 32, bs.observe)
	defer c.Close()
	const games, perGame = 50, 40
	var wg sync.WaitGroup
	for g := range games {
		wg.Go(func() {
			id := fmt.Sprintf("g%d", g)
			for seq := int64(1); seq <= perGame; seq++ {
				if err := c.Commit(t.Context(), action(id, seq, fmt.Sprint(seq))); err != nil {
					t.Errorf("%s seq %d: %v", id, seq, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for g := range games {
		if got := m.last(fmt.Sprintf("g%d", g)); got != perGame {
			t.Fatalf("g%d: last seq %d, want %d", g, got, perGame)
		}
	}
	total := 0
	for _, n := range bs.sizes {
		total += n
		if n > 32 {
			t.Errorf("batch of %d actions, more than maxBatch", n)
		}
	}
	if total != games*perGame {
		t.Errorf("observed %d actions written, want %d", total, games*perGame)
	}
	if bs.largest() < 2 {
		t.Errorf("largest batch %d: no batching happened", bs.largest())
	}
	t.Logf("%d writes for %d actions, largest batch %d", len(bs.sizes), total, bs.largest())
}

func TestCommitterMaxBatch(t *testing.T) {
	m := newMemLog()
	var bs batchSizes
	// A long window: only maxBatch can close the batch early.
	c := store.NewCommitter(m, time.Hour, 4, bs.observe)
	defer c.Close()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() { mustCommit(t, c, action(fmt.Sprintf("g%d", g), 1, "")) })
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a full batch was not written before the window ended")
	}
	if fmt.Sprint(bs.sizes) != "[4]" {
		t.Fatalf("batches %v, want [4]", bs.sizes)
	}
}

func TestCommitterConflictIsolation(t *testing.T) {
	m := newMemLog()
	var bs batchSizes
	c := store.NewCommitter(m, 50*time.Millisecond, 100, bs.observe)
	defer c.Close()
	mustCommit(t, c, action("a", 1, "x"))

	type result struct {
		name string
		err  error
	}
	requests := []struct {
		name    string
		actions []store.Action
		want    error
	}{
		{"good-b", []store.Action{action("b", 1, ""), action("b", 2, "")}, nil},
		{"stale-seq", []store.Action{action("a", 1, "")}, store.ErrConflict},
		{"good-c", []store.Action{action("c", 1, "")}, nil},
		{"reused-client-id", []store.Action{action("d", 1, ""), action("a", 2, "x")}, store.ErrConflict},
	}
	results := make(chan result, len(requests))
	for i, r := range requests {
		go func() {
			// Stagger the requests so that they enter one batch in this order.
			time.Sleep(time.Duration(i) * 5 * time.Millisecond)
			results <- result{r.name, c.Commit(t.Context(), r.actions...)}
		}()
	}
	got := map[string]error{}
	for range requests {
		r := <-results
		got[r.name] = r.err
	}
	for _, r := range requests {
		if r.want == nil && got[r.name] != nil || r.want != nil && !errors.Is(got[r.name], r.want) {
			t.Errorf("%s: %v, want %v", r.name, got[r.name], r.want)
		}
	}
	for game, want := range map[string]int64{"a": 1, "b": 2, "c": 1, "d": 0} {
		if got := m.last(game); got != want {
			t.Errorf("%s: last seq %d, want %d", game, got, want)
		}
	}
	if !slicesHave(bs.sizes, 6) {
		t.Errorf("batches %v: the four requests were not written as one batch of 6 first", bs.sizes)
	}
}

func slicesHave(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestCommitterNoGapAfterConflict(t *testing.T) {
	// a:2 (already stored) and a:3 share a batch with b:1. Once a:2 fails, a:3
	// must fail too: a game whose request conflicted must reload, not go on.
	// The three queue up while a slow write of game z is under way, so they
	// form the next batch together however busy the machine is.
	m := newMemLog()
	c := store.NewCommitter(m, 0, 100, nil)
	defer c.Close()
	mustCommit(t, c, action("a", 1, ""), action("a", 2, ""))
	m.mu.Lock()
	m.delay = 300 * time.Millisecond
	m.mu.Unlock()
	gate := make(chan error, 1)
	go func() { gate <- c.Commit(t.Context(), action("z", 1, "")) }()
	for m.entered.Load() < 2 { // the slow write has begun
		time.Sleep(time.Millisecond)
	}
	errs := make([]error, 3)
	reqs := [][]store.Action{
		{action("b", 1, "")},
		{action("a", 2, "")}, // already stored
		{action("a", 3, "")},
	}
	var wg sync.WaitGroup
	for i, r := range reqs {
		wg.Go(func() {
			time.Sleep(time.Duration(i) * 20 * time.Millisecond)
			errs[i] = c.Commit(t.Context(), r...)
		})
	}
	wg.Wait()
	if err := <-gate; err != nil {
		t.Fatal(err)
	}
	if errs[0] != nil || !errors.Is(errs[1], store.ErrConflict) || !errors.Is(errs[2], store.ErrConflict) {
		t.Fatalf("errors %v, want [nil conflict conflict]", errs)
	}
	if m.last("a") != 2 || m.last("b") != 1 {
		t.Fatalf("a at %d, b at %d", m.last("a"), m.last("b"))
	}
}

func TestCommitterOtherErrors(t *testing.T) {
	m := newMemLog()
	m.fail = fmt.Errorf("mem: %w", store.ErrUnavailable)
	var bs batchSizes
	c := store.NewCommitter(m, 20*time.Millisecond, 100, bs.observe)
	defer c.Close()
	var wg sync.WaitGroup
	for g := range 5 {
		wg.Go(func() {
			err := c.Commit(t.Context(), action(fmt.Sprintf("g%d", g), 1, ""))
			if !errors.Is(err, store.ErrUnavailable) {
				t.Errorf("g%d: %v, want ErrUnavailable", g, err)
			}
		})
	}
	wg.Wait()
	m.mu.Lock()
	calls := m.calls
	m.mu.Unlock()
	if calls >= 5 {
		t.Errorf("%d writes for 5 failing requests: a database outage should not be retried request by request", calls)
	}
}

func TestCommitterLastError(t *testing.T) {
	m := newMemLog()
	c := store.NewCommitter(m, 0, 100, nil)
	defer c.Close()
	if _, err := c.LastError(); err != nil {
		t.Fatalf("LastError before any write: %v", err)
	}
	full := fmt.Errorf("mem: %w: disk full", store.ErrUnavailable)
	m.mu.Lock()
	m.fail = full
	m.mu.Unlock()
	if err := c.Commit(t.Context(), action("g", 1, "")); !errors.Is(err, full) {
		t.Fatalf("Commit: %v, want %v", err, full)
	}
	if _, err := c.LastError(); !errors.Is(err, full) {
		t.Fatalf("LastError after a failed write: %v, want %v", err, full)
	}
	m.mu.Lock()
	m.fail = nil
	m.mu.Unlock()
	// A conflict is an answer to the request, not news about the store.
	mustCommit(t, c, action("h", 1, ""))
	if err := c.Commit(t.Context(), action("h", 1, "")); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("Commit: %v, want ErrConflict", err)
	}
	if _, err := c.LastError(); err != nil {
		t.Fatalf("LastError after a success and a conflict: %v", err)
	}
	m.mu.Lock()
	m.fail = full
	m.mu.Unlock()
	c.Commit(t.Context(), action("g", 1, ""))
	m.mu.Lock()
	m.fail = fmt.Errorf("mem: %w", store.ErrConflict)
	m.mu.Unlock()
	c.Commit(t.Context(), action("g", 1, ""))
	if _, err := c.LastError(); !errors.Is(err, full) {
		t.Fatalf("LastError after a failure and a conflict: %v, want %v", err, full)
	}
}

func TestCommitterCloseFlushes(t *testing.T) {
	m := newMemLog()
	c := store.NewCommitter(m, time.Hour, 1000, nil)
	const n = 20
	var wg sync.WaitGroup
	var ok atomic.Int64
	for g := range n {
		wg.Go(func() {
			if err := c.Commit(context.Background(), action(fmt.Sprintf("g%d", g), 1, "")); err == nil {
				ok.Add(1)
			} else if !errors.Is(err, store.ErrClosed) {
				t.Errorf("g%d: %v", g, err)
			}
		})
	}
	// Let the requests enter the (hour-long) batch, then close.
	time.Sleep(100 * time.Millisecond)
	if ok.Load() != 0 {
		t.Fatal("a request was written before the window ended")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if ok.Load() != n {
		t.Fatalf("%d of %d accepted requests written by Close", ok.Load(), n)
	}
	for g := range n {
		if m.last(fmt.Sprintf("g%d", g)) != 1 {
			t.Fatalf("g%d not written", g)
		}
	}
	if err := c.Commit(context.Background(), action("late", 1, "")); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Commit after Close: %v, want ErrClosed", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestCommitterContext(t *testing.T) {
	m := newMemLog()
	m.delay = 200 * time.Millisecond
	c := store.NewCommitter(m, 0, 100, nil)
	defer c.Close()
	// Occupy the writer, then give up waiting for a place in the next batch.
	go c.Commit(context.Background(), action("busy", 1, ""))
	time.Sleep(20 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := c.Commit(ctx, action("g", 1, "")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Commit: %v, want DeadlineExceeded", err)
	}
	if m.last("g") != 0 {
		t.Fatal("an abandoned request was written")
	}
	if err := c.Commit(context.Background()); err != nil {
		t.Fatalf("empty Commit: %v", err)
	}
}

func TestCommitterAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation count (sync.Pool drops items under the race detector)")
	}
	m := newMemLog()
	c := store.NewCommitter(m, 0, 100, nil)
	defer c.Close()
	a := action("g", 0, "")
	ctx := context.Background()
	// Warm the pool and the writer's buffers.
	for range 10 {
		a.Seq++
		mustCommit(t, c, a)
	}
	// The fake log allocates a few maps per write; count the Committer's share
	// by subtracting the cost of calling the log directly.
	direct := testing.AllocsPerRun(100, func() {
		a.Seq++
		_ = m.AppendActions(ctx, []store.Action{a})
	})
	via := testing.AllocsPerRun(100, func() {
		a.Seq++
		_ = c.Commit(ctx, a)
	})
	// Here every request is a batch of its own, which costs the batch's
	// context and timer; under load they are shared by the whole batch.
	if extra := via - direct; extra > 4 {
		t.Errorf("%.1f allocations per request beyond the store's own %.1f", extra, direct)
	}
	t.Logf("store %.1f, committer+store %.1f allocations per request", direct, via)
}
