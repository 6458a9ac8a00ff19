package live

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/engine"
	"dsol/internal/klondike"
	"dsol/internal/store"
)

// seedSolo stores a solo game of code with n actions (draws, and a
// recycle whenever the stock is out), as its table would have stored them,
// with its snapshots every SnapshotEvery and, as a table leaves it when it
// stops, at its last action.
func seedSolo(tb testing.TB, e *env, id, code string, n int) {
	seedSoloSnapshots(tb, e, id, code, n, true)
}

// seedSoloSnapshots is seedSolo, with the snapshot at the last action only
// when stopped: else the game is as a node that died leaves it.
func seedSoloSnapshots(tb testing.TB, e *env, id, code string, n int, stopped bool) {
	tb.Helper()
	mustGame(tb, e, id, code)
	g, err := e.st.Game(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	eng, err := engine.NewSolo(g)
	if err != nil {
		tb.Fatal(err)
	}
	at := e.clock.Now()
	var play time.Duration
	batch := make([]store.Action, 0, 1000)
	for seq := 1; seq <= n; seq++ {
		out, err := eng.Apply(1, klondike.Simple(klondike.Draw))
		if err != nil {
			out, err = eng.Apply(1, klondike.Simple(klondike.Recycle))
		}
		if err != nil {
			tb.Fatalf("seq %d: %v", seq, err)
		}
		if seq > 1 {
			play = store.AddGap(play, at, at.Add(time.Second))
		}
		at = at.Add(time.Second)
		batch = append(batch, store.Action{GameID: id, Seq: int64(seq), Seat: 1, Action: out.Action.AppendJSON(nil),
			ClientID: fmt.Sprintf("load-%d", seq), At: at, Tally: out.Tally})
		if len(batch) == cap(batch) || seq == n || seq%SnapshotEvery == 0 {
			if err := e.st.AppendActions(context.Background(), batch); err != nil {
				tb.Fatal(err)
			}
			batch = batch[:0]
		}
		if seq%SnapshotEvery == 0 || (stopped && seq == n) {
			s := store.Snapshot{GameID: id, Seq: int64(seq), State: snapshotOf(eng, int64(seq), play), At: at}
			if err := e.st.PutSnapshots(context.Background(), []store.Snapshot{s}); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// inUse is the memory the Go runtime holds for live objects and for
// stacks, after a collection.
func inUse() (heap, stack uint64) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, m.StackInuse
}

// BenchmarkLiveMemory reports the memory a live solo table holds, by the
// length of its game: games of that many actions are stored, then loaded
// into live tables (no subscriber), and the heap and stacks they add are
// divided among them (B/game).
//
//	go test -run '^$' -bench LiveMemory -benchtime 1x ./internal/live
func BenchmarkLiveMemory(b *testing.B) {
	for _, c := range []struct{ games, actions int }{{2000, 0}, {2000, 500}, {50, 20000}} {
		b.Run(fmt.Sprintf("actions=%d", c.actions), func(b *testing.B) {
			e := mustEnv(b)
			for i := range c.games {
				seedSolo(b, e, fmt.Sprintf("g%d", i), code, c.actions)
			}
			b.ResetTimer()
			var heap, stack float64
			for range b.N {
				e.restart(b)
				h0, s0 := inUse()
				for i := range c.games {
					if _, err := e.reg.Get(context.Background(), fmt.Sprintf("g%d", i)); err != nil {
						b.Fatal(err)
					}
				}
				h1, s1 := inUse()
				heap = (float64(h1) - float64(h0)) / float64(c.games)
				stack = (float64(s1) - float64(s0)) / float64(c.games)
			}
			b.ReportMetric(heap+stack, "B/game")
			b.ReportMetric(heap, "heap-B/game")
			b.ReportMetric(stack, "stack-B/game")
		})
	}
}

// BenchmarkReload measures how long a table takes to come back from the
// store (ns/op: one eviction and one load), by the length of its game, on
// both stores: after it stopped (evicted, handed over), with a snapshot at
// its last action, and after its node died, with the last periodic one
// (for 20,000 actions, 544 actions before the end: about the longest
// replay there is). The snapshot and the actions after it (and the window
// before it) are read, whatever the length.
//
//	source .ci/postgres.sh   # for the PostgreSQL figures
//	go test -run '^$' -bench Reload ./internal/live
func BenchmarkReload(b *testing.B) {
	apitest.ForEachStore(b, func(b *testing.B, open func(testing.TB) store.Store) {
		e := mustEnvOn(b, open(b))
		for _, c := range []struct {
			n       int
			stopped bool
		}{{500, true}, {klondike.MaxActions, true}, {klondike.MaxActions, false}} {
			n := c.n
			id := fmt.Sprintf("g%d-%v", n, c.stopped)
			seedSoloSnapshots(b, e, id, code, n, c.stopped)
			how := "stopped"
			if !c.stopped {
				how = "died"
			}
			b.Run(fmt.Sprintf("actions=%d/%s", n, how), func(b *testing.B) {
				for b.Loop() {
					e.reg.Evict([]string{id})
					if _, err := e.reg.Get(context.Background(), id); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}
