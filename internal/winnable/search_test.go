package winnable

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"dsol/internal/solver/tally"
	"dsol/internal/store"
	"dsol/internal/store/sqlite"
)

// fakeMeter is a process whose other threads keep busy cores busy (set by
// the test) and whose search thread uses no CPU at all.
type fakeMeter struct {
	mu    sync.Mutex
	busy  float64 // cores
	last  time.Time
	total time.Duration
}

func (f *fakeMeter) set(cores float64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.advance()
	f.busy = cores
}

func (f *fakeMeter) advance() {
	now := time.Now()
	if !f.last.IsZero() {
		f.total += time.Duration(f.busy * float64(now.Sub(f.last)))
	}
	f.last = now
}

func (f *fakeMeter) Process() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.advance()
	return f.total
}

func (f *fakeMeter) Thread() time.Duration { return 0 }

// events records what Run reports.
type events struct {
	mu       sync.Mutex
	states   []string
	searched map[Mode]int
	won      map[Mode]int
}

func (e *events) hooks() Hooks {
	e.searched, e.won = map[Mode]int{}, map[Mode]int{}
	return Hooks{
		Searched: func(m Mode, won bool) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.searched[m]++
			if won {
				e.won[m]++
			}
		},
		State: func(s string) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.states = append(e.states, s)
		},
	}
}

func (e *events) state() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.states) == 0 {
		return ""
	}
	return e.states[len(e.states)-1]
}

func (e *events) all() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.states...)
}

func (e *events) total() (searched, won int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, n := range e.searched {
		searched += n
	}
	for _, n := range e.won {
		won += n
	}
	return searched, won
}

func openSQLite(t *testing.T, path string) store.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// start runs Run in the background until the test ends or stop is called,
// which waits for Run to return.
func start(t *testing.T, cfg Config) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, cfg)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Error("Run did not return within 5 s of its context ending")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 20 s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSearchYieldsUnderLoad: while the rest of the process keeps the CPUs
// busy the search yields and searches nothing; once they are idle it
// searches, stores what it wins, and stops with its context.
func TestSearchYieldsUnderLoad(t *testing.T) {
	st := openSQLite(t, filepath.Join(t.TempDir(), "w.db"))
	meter := &fakeMeter{busy: 1.5} // of 2 CPUs: more than half
	var ev events
	pool := &Pool{}
	stop := start(t, Config{Store: st, Pool: pool, Target: 2, Budget: 3000, Meter: meter, CPUs: 2,
		Window: 10 * time.Millisecond, Hooks: ev.hooks()})
	eventually(t, "yielding", func() bool { return ev.state() == "yielding" })
	time.Sleep(200 * time.Millisecond) // twenty windows
	if n, _ := ev.total(); n != 0 || ev.state() != "yielding" {
		t.Fatalf("under load: %d deals searched, state %q", n, ev.state())
	}
	meter.set(0.2)
	eventually(t, "two Normal deals of each draw", func() bool { return pool.Size(D1N) >= 2 && pool.Size(D3N) >= 2 })
	if states := ev.all(); len(states) < 2 || states[1] != "searching" {
		t.Fatalf("states %v", states)
	}
	meter.set(2)
	eventually(t, "yielding again", func() bool { return ev.state() == "yielding" })
	stop()
	stored, err := st.WinnableDeals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) < 4 {
		t.Fatalf("%d deals stored", len(stored))
	}
	for _, d := range stored {
		got, err := fromStore(d)
		if err != nil || !pool.Has(got.Mode, got.Number) || got.Budget != 3000 || got.Positions < 1 || got.Positions > 3000 {
			t.Fatalf("stored %+v: %v", d, err)
		}
	}
	if _, won := ev.total(); won != len(stored) {
		t.Fatalf("%d deals won, %d stored", won, len(stored))
	}
}

// TestPoolSurvivesRestart: the deals found before a restart are read back
// into a new pool, with the search off as with it on.
func TestPoolSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	st := openSQLite(t, path)
	pool := &Pool{}
	stop := start(t, Config{Store: st, Pool: pool, Target: 3, Budget: 3000, Meter: &fakeMeter{}, CPUs: 2,
		Window: 10 * time.Millisecond})
	eventually(t, "three Normal deals", func() bool { return pool.Size(D1N) >= 3 })
	stop()
	st.Close()

	again := &Pool{}
	var ev events
	stop = start(t, Config{Store: openSQLite(t, path), Pool: again, Target: 0, Hooks: ev.hooks()})
	eventually(t, "the stored pool read", func() bool { return again.Size(D1N) >= 3 })
	for _, m := range Modes {
		if again.Size(m) != pool.Size(m) {
			t.Errorf("%s: %d deals after the restart, %d before", m, again.Size(m), pool.Size(m))
		}
	}
	eventually(t, "off", func() bool { return ev.state() == "off" })
	stop()
}

// TestGateShare: the search's share of a core keeps the process under half
// its CPUs, and at most one core.
func TestGateShare(t *testing.T) {
	for _, tc := range []struct {
		cpus   int
		others float64
		want   float64
	}{
		{2, 0, 1}, {2, 0.5, 0.5}, {2, 1, 0}, {8, 1, 1}, {8, 3.5, 0.5}, {1, 0, 0.5},
	} {
		// The fake meter's clock is read apart from the gate's, so a pause
		// between the two reads counts as others' CPU time; a window of
		// 100 ms keeps a pause of a millisecond on a loaded machine within
		// the tolerance (a window of 20 ms did not, once in CI).
		m := &fakeMeter{busy: tc.others}
		g := newGate(m, tc.cpus, 100*time.Millisecond, func(string) {}, func(time.Duration) {})
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		open := g.wait(ctx)
		cancel()
		if open != (tc.want >= minShare) {
			t.Errorf("%d CPUs, others %.1f: open %v", tc.cpus, tc.others, open)
		}
		if d := g.share - tc.want; d > 0.05 || d < -0.05 {
			t.Errorf("%d CPUs, others %.1f: share %.2f, want %.2f", tc.cpus, tc.others, g.share, tc.want)
		}
	}
}

// TestSearchVegasWithBeam: with a beam, the search wins Vegas deals, stores
// how it won each (the beam for Vegas, depth first for Normal), and each
// stored deal is won again the same way after the same positions.
func TestSearchVegasWithBeam(t *testing.T) {
	st := openSQLite(t, filepath.Join(t.TempDir(), "w.db"))
	pool := &Pool{}
	const budget, beam = 300_000, 100
	stop := start(t, Config{Store: st, Pool: pool, Target: 1, Budget: budget, Beam: beam, Meter: &fakeMeter{}, CPUs: 2,
		Window: 10 * time.Millisecond})
	// A draw-1 Vegas deal: the search's own, or a draw-3 one it carries.
	eventually(t, "a deal of each Normal mode and a draw-1 Vegas deal", func() bool {
		return pool.Size(D1N) >= 1 && pool.Size(D3N) >= 1 && pool.Size(D1V) >= 1
	})
	stop()
	stored, err := st.WinnableDeals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	vegas := 0
	s := tally.New()
	for _, sd := range stored {
		d, err := fromStore(sd)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if d.Mode.Vegas() {
			want = beam
			vegas++
		}
		if d.Beam != want || d.Budget != budget {
			t.Fatalf("stored %+v: want a beam of %d and a budget of %d", d, want, budget)
		}
		res, won, err := SolveTally(s, d.Mode, d.Number, d.Budget, d.Beam, nil)
		if err != nil || !won || res.Positions != d.Positions {
			t.Fatalf("%s solved again: won %v after %d positions (%v); stored after %d", d.Code(), won, res.Positions, err, d.Positions)
		}
	}
	if vegas == 0 {
		t.Fatalf("no Vegas deal stored: %+v", stored)
	}
}
