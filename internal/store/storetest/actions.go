package storetest

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"dsol/internal/store"
)

func testActions(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	mustCreateGame(t, s, NewSolo("g1", "alice", base))
	mustCreateGame(t, s, NewSolo("g2", "alice", base))
	var want []store.Action
	for seq := int64(1); seq <= 5; seq++ {
		a := NewAction("g1", seq, 1, fmt.Sprintf("c%d", seq))
		if seq == 3 {
			a.ClientID = ""
		}
		want = append(want, a)
	}
	mustAppend(t, s, want[:2]...)
	mustAppend(t, s, want[2:]...)
	mustAppend(t, s, NewAction("g2", 1, 1, "c1"))

	t.Run("All", func(t *testing.T) {
		if d := EqualActions(mustActions(t, s, "g1", 0), want); d != "" {
			t.Fatal(d)
		}
	})
	t.Run("AfterSeq", func(t *testing.T) {
		if d := EqualActions(mustActions(t, s, "g1", 3), want[3:]); d != "" {
			t.Fatal(d)
		}
	})
	t.Run("AfterLast", func(t *testing.T) {
		got := mustActions(t, s, "g1", 5)
		if got == nil || len(got) != 0 {
			t.Fatalf("got %v, want an empty slice", got)
		}
	})
	t.Run("UnknownGame", func(t *testing.T) {
		if got := mustActions(t, s, "nope", 0); len(got) != 0 {
			t.Fatalf("got %d actions", len(got))
		}
		err := s.AppendActions(ctx, []store.Action{NewAction("nope", 1, 1, "")})
		mustBeErr(t, "append to unknown game", err, store.ErrNotFound)
	})
	t.Run("DuplicateSeq", func(t *testing.T) {
		err := s.AppendActions(ctx, []store.Action{NewAction("g1", 5, 1, "")})
		mustBeErr(t, "append seq 5 again", err, store.ErrConflict)
	})
	t.Run("Empty", func(t *testing.T) {
		if err := s.AppendActions(ctx, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("Timestamps", func(t *testing.T) {
		got := mustActions(t, s, "g1", 0)
		if loc := got[0].At.Location(); loc != time.UTC {
			t.Fatalf("At in %v, want UTC", loc)
		}
	})
}

func testAppendAtomic(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	for _, g := range []string{"g1", "g2", "g3"} {
		mustCreateGame(t, s, NewSolo(g, "alice", base))
	}
	mustAppend(t, s, NewAction("g1", 1, 1, ""), NewAction("g2", 1, 1, "x"))

	t.Run("SeveralGames", func(t *testing.T) {
		mustAppend(t, s,
			NewAction("g1", 2, 1, ""), NewAction("g2", 2, 1, ""), NewAction("g3", 1, 1, ""),
			NewAction("g1", 3, 1, ""), NewAction("g3", 2, 1, ""))
		for game, n := range map[string]int{"g1": 3, "g2": 2, "g3": 2} {
			if got := len(mustActions(t, s, game, 0)); got != n {
				t.Errorf("%s: %d actions, want %d", game, got, n)
			}
		}
	})
	cases := []struct {
		name  string
		batch []store.Action
	}{
		{"DuplicateStoredSeq", []store.Action{
			NewAction("g1", 4, 1, ""), NewAction("g3", 3, 1, ""), NewAction("g2", 2, 1, "")}},
		{"DuplicateSeqInBatch", []store.Action{
			NewAction("g1", 4, 1, ""), NewAction("g3", 3, 1, ""), NewAction("g3", 3, 1, "")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mustBeErr(t, "AppendActions", s.AppendActions(ctx, tc.batch), store.ErrConflict)
			for game, n := range map[string]int{"g1": 3, "g2": 2, "g3": 2} {
				if got := len(mustActions(t, s, game, 0)); got != n {
					t.Errorf("%s: %d actions after a failed batch, want %d (nothing of the batch)", game, got, n)
				}
			}
		})
	}
}

// testClientID: client action ids are stored as given and read back with
// their actions, since the table rebuilds from them which ids a game has
// seen. Deciding a duplicate is the table's: the store keeps whatever it is
// handed (the same id of another seat or game, or again, and no id).
func testClientID(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	mustCreatePlayer(t, s, NewPlayer("bob"))
	mustCreateGame(t, s, NewSolo("g1", "alice", base))
	mustCreateGame(t, s, NewSolo("g2", "bob", base))
	mustAppend(t, s, NewAction("g1", 1, 1, "dup"))
	mustAppend(t, s, NewAction("g1", 2, 2, "dup"), NewAction("g2", 1, 1, "dup"))
	mustAppend(t, s, NewAction("g1", 3, 1, ""), NewAction("g1", 4, 1, ""))
	mustAppend(t, s, NewAction("g1", 5, 1, "dup"), NewAction("g1", 6, 1, "x"))
	for game, want := range map[string][]string{"g1": {"dup", "dup", "", "", "dup", "x"}, "g2": {"dup"}} {
		got := mustActions(t, s, game, 0)
		if len(got) != len(want) {
			t.Fatalf("%s: %d actions, want %d", game, len(got), len(want))
		}
		for i, a := range got {
			if a.Seq != int64(i+1) || a.ClientID != want[i] {
				t.Errorf("%s seq %d: client id %q, want %q at seq %d", game, a.Seq, a.ClientID, want[i], i+1)
			}
		}
	}
}

func testConcurrentAppends(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	const games, perGame = 8, 25
	mustCreatePlayer(t, s, NewPlayer("alice"))
	for g := range games {
		mustCreateGame(t, s, NewSolo(fmt.Sprintf("g%d", g), "alice", base))
	}
	// Two writers per game race for every seq: exactly one must win each.
	var wg sync.WaitGroup
	var wins, conflicts atomic.Int64
	for g := range games {
		for w := range 2 {
			wg.Go(func() {
				id := fmt.Sprintf("g%d", g)
				for seq := int64(1); seq <= perGame; seq++ {
					a := NewAction(id, seq, 1, fmt.Sprintf("w%d-%d", w, seq))
					err := s.AppendActions(ctx, []store.Action{a})
					switch {
					case err == nil:
						wins.Add(1)
					case errors.Is(err, store.ErrConflict):
						conflicts.Add(1)
					default:
						t.Errorf("%s seq %d: %v", id, seq, err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	if got := wins.Load(); got != games*perGame {
		t.Fatalf("%d appends won (%d conflicts), want %d", got, conflicts.Load(), games*perGame)
	}
	for g := range games {
		got := mustActions(t, s, fmt.Sprintf("g%d", g), 0)
		if len(got) != perGame {
			t.Fatalf("g%d: %d actions, want %d", g, len(got), perGame)
		}
		for i, a := range got {
			if a.Seq != int64(i+1) {
				t.Fatalf("g%d: action %d has seq %d", g, i, a.Seq)
			}
		}
	}
}

func testLargeBatch(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	mustCreateGame(t, s, NewSolo("g1", "alice", base))
	mustCreateGame(t, s, NewSolo("g2", "alice", base))
	// More rows than fit in one SQLite statement's variables.
	const n = 6000
	batch := make([]store.Action, 0, n)
	for seq := int64(1); seq <= n/2; seq++ {
		batch = append(batch, NewAction("g1", seq, 1, fmt.Sprint(seq)), NewAction("g2", seq, 1, ""))
	}
	mustAppend(t, s, batch...)
	if got := len(mustActions(t, s, "g1", 0)); got != n/2 {
		t.Fatalf("g1: %d actions, want %d", got, n/2)
	}
	// A conflict in the last row undoes the whole batch, earlier chunks included.
	more := make([]store.Action, 0, n)
	for seq := int64(n/2 + 1); seq < n; seq++ {
		more = append(more, NewAction("g1", seq, 1, ""))
	}
	more = append(more, NewAction("g2", 1, 1, ""))
	mustBeErr(t, "large batch with a conflict", s.AppendActions(ctxOf(t), more), store.ErrConflict)
	if got := len(mustActions(t, s, "g1", 0)); got != n/2 {
		t.Fatalf("g1: %d actions after a failed large batch, want %d", got, n/2)
	}
}

func testCommitter(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	const games, perGame = 16, 20
	mustCreatePlayer(t, s, NewPlayer("alice"))
	for g := range games {
		mustCreateGame(t, s, NewSolo(fmt.Sprintf("g%d", g), "alice", base))
	}
	var mu sync.Mutex
	largest := 0
	c := store.NewCommitter(s, 2*time.Millisecond, 64, func(n int, _ time.Duration, _ error) {
		mu.Lock()
		largest = max(largest, n)
		mu.Unlock()
	})
	var wg sync.WaitGroup
	for g := range games {
		wg.Go(func() {
			id := fmt.Sprintf("g%d", g)
			for seq := int64(1); seq <= perGame; seq++ {
				if err := c.Commit(ctx, NewAction(id, seq, 1, "")); err != nil {
					t.Errorf("%s seq %d: %v", id, seq, err)
					return
				}
			}
		})
	}
	wg.Wait()
	// A conflicting request fails alone.
	err := c.Commit(ctx, NewAction("g0", 1, 1, ""))
	mustBeErr(t, "commit a stored seq", err, store.ErrConflict)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for g := range games {
		if got := len(mustActions(t, s, fmt.Sprintf("g%d", g), 0)); got != perGame {
			t.Fatalf("g%d: %d actions, want %d", g, got, perGame)
		}
	}
	if largest < 2 {
		t.Errorf("largest batch %d: no batching happened", largest)
	}
}
