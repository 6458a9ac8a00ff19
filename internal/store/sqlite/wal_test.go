package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/sqlite"
	"dsol/internal/store/storetest"
)

// TestWALStaysBounded: eight players append actions through the group
// commit as fast as they can, each reading its game's last actions back
// between two, as the tables and the API do. The -wal file, sampled every
// millisecond, never grows past sqlite.WALBound, though more than that is
// written: the file is seen to be cut back (the WAL started again from its
// beginning) five times, each after it passed a quarter of the bound. So
// it is with the checkpointer, and with the writer alone.
func TestWALStaysBounded(t *testing.T) {
	for _, c := range []struct {
		name  string
		alone bool
	}{{"checkpointer", false}, {"writer alone", true}} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dsol.db")
			s := mustOpen(t, path)
			defer s.Close()
			if c.alone {
				s.StopCheckpointer()
			}
			writeBounded(t, s, path)
		})
	}
}

// writeBounded writes s as TestWALStaysBounded tells, path being its file.
func writeBounded(t *testing.T, s *sqlite.Store, path string) {
	ctx := context.Background()
	const players = 8
	for i := range players {
		id := fmt.Sprintf("p%d", i)
		if err := s.CreatePlayer(ctx, storetest.NewPlayer(id)); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateGame(ctx, storetest.NewSolo("g"+id, id, time.Now())); err != nil {
			t.Fatal(err)
		}
	}
	c := store.NewCommitter(s, time.Millisecond, 0, nil)
	defer c.Close()
	var (
		stop    atomic.Bool
		written atomic.Int64
		wg      sync.WaitGroup
	)
	for i := range players {
		game := fmt.Sprintf("gp%d", i)
		wg.Go(func() {
			for seq := int64(1); !stop.Load(); seq++ {
				a := storetest.NewAction(game, seq, 1, fmt.Sprintf("c%d", seq))
				if err := c.Commit(ctx, a); err != nil {
					t.Errorf("commit %s %d: %v", game, seq, err)
					return
				}
				written.Add(1)
				if _, err := s.Actions(ctx, game, max(0, seq-8)); err != nil {
					t.Errorf("actions %s: %v", game, err)
					return
				}
			}
		})
	}
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()

	const wantCuts = 5
	var largest, last int64
	cuts := 0
	start := time.Now()
	for cuts < wantCuts || time.Since(start) < time.Second {
		if time.Since(start) > time.Minute {
			t.Fatalf("the WAL was cut back %d times in a minute (%d actions written, at most %d bytes of WAL): it is not checkpointed", cuts, written.Load(), largest)
		}
		if t.Failed() {
			return
		}
		size := int64(0)
		if fi, err := os.Stat(path + "-wal"); err == nil {
			size = fi.Size()
		} else if !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if size > sqlite.WALBound {
			t.Fatalf("the WAL holds %d bytes after %d actions, more than %d", size, written.Load(), sqlite.WALBound)
		}
		if size < last && last > sqlite.WALBound/4 {
			cuts++
		}
		largest, last = max(largest, size), size
		time.Sleep(time.Millisecond)
	}
	t.Logf("%d actions in %v; the WAL at most %d bytes (bound %d), cut back %d times",
		written.Load(), time.Since(start).Round(time.Millisecond), largest, sqlite.WALBound, cuts)
}
