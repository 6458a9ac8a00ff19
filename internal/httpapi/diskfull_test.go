package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"dsol/internal/game"
	"dsol/internal/store"
	"dsol/internal/store/storetest"
	"dsol/internal/testenv"
)

// mustSeed writes at path a SQLite database of at least size bytes: a
// player and a game of padded actions, made in a directory of the test's
// and copied.
func mustSeed(t *testing.T, path string, size int64) {
	t.Helper()
	ctx := context.Background()
	seed := filepath.Join(t.TempDir(), "seed.db")
	st := openSQLite(t, seed)
	if err := st.CreatePlayer(ctx, storetest.NewPlayer("seed")); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateGame(ctx, storetest.NewSolo("seed", "seed", time.Now())); err != nil {
		t.Fatal(err)
	}
	pad := fmt.Sprintf("%0200d", 0)
	for seq := int64(1); ; {
		as := make([]store.Action, 1000)
		for i := range as {
			as[i] = store.Action{GameID: "seed", Seq: seq, Seat: 1, Action: []byte(`{"type":"draw","pad":"` + pad + `"}`), At: time.Now()}
			seq++
		}
		if err := st.AppendActions(ctx, as); err != nil {
			t.Fatal(err)
		}
		// Closed, the store has no WAL left: the file holds it all.
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(seed)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() >= size {
			break
		}
		st = openSQLite(t, seed)
	}
	b, err := os.ReadFile(seed)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("a database of %.1f MiB", float64(len(b))/(1<<20))
}

// player is one client of TestDiskFullRecovers, playing a solo game in a
// closed loop and keeping the seqs the server acknowledged.
type player struct {
	c     *client
	game  string
	acked []int64 // the seqs answered 200, in order
}

// play posts the next action of p's game (a draw, else a recycle) and
// returns the status of the answer; 200 keeps the acknowledged seq. Any
// answer but 200 and a 503 unavailable is an error of the test.
func (p *player) play(t *testing.T) int {
	path := "/api/v1/games/" + p.game + "/actions"
	status, raw, err := p.c.Request(context.Background(), "POST", path, `{"action":{"type":"draw"}}`)
	if err == nil && status == 422 {
		status, raw, err = p.c.Request(context.Background(), "POST", path, `{"action":{"type":"recycle"}}`)
	}
	switch {
	case err != nil:
		t.Errorf("action: %v", err)
	case status == 200:
		var v view
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Errorf("action: %v: %s", err, raw)
		}
		p.acked = append(p.acked, v.Seq)
	case status == 503:
		var e errorBody
		if err := json.Unmarshal(raw, &e); err != nil || e.Error.Code != game.Unavailable {
			t.Errorf("action refused with %s, want %s", raw, game.Unavailable)
		}
	default:
		t.Errorf("action: %d %s", status, raw)
	}
	return status
}

// TestDiskFullRecovers: SQLite on an 8 MiB file system holding a 3 MB
// database, written by several players at once. The disk fills: actions are
// refused as unavailable and /readyz says so. Space is freed: /readyz is 200
// again within 5 s and stays so while the players go on, and every action
// acknowledged is in the log.
func TestDiskFullRecovers(t *testing.T) {
	dir := t.TempDir()
	testenv.Tmpfs(t, dir, 8<<20)
	path := filepath.Join(dir, "dsol.db")
	mustSeed(t, path, 3<<20)
	st := openSQLite(t, path)
	ts := mustServer(t, st)
	probe := ts.anon()
	probe.MustJSON(t, "GET", "/readyz", nil, 200, nil)

	const n = 6
	players := make([]*player, n)
	for i := range players {
		c := ts.mustPlayer(t)
		players[i] = &player{c: c, game: c.mustGame(t, "DS1-D1N-AAAAAAB").ID}
	}
	var (
		stop    atomic.Bool
		played  atomic.Int64 // actions answered 200
		refused atomic.Int64 // actions answered 503
		// recovered is set once the space is freed and /readyz said 200;
		// refusedLate counts the refusals of actions sent after that (one
		// sent before may still be answered by a commit that failed).
		recovered   atomic.Bool
		refusedLate atomic.Int64
		wg          sync.WaitGroup
	)
	for _, p := range players {
		wg.Go(func() {
			for !stop.Load() {
				late := recovered.Load()
				switch p.play(t) {
				case 200:
					played.Add(1)
				case 503:
					refused.Add(1)
					if late {
						refusedLate.Add(1)
					}
				}
			}
		})
	}
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()
	wait := func(what string, d time.Duration, done func() bool) time.Duration {
		t.Helper()
		start := time.Now()
		for !done() {
			if time.Since(start) > d || t.Failed() {
				t.Fatalf("%s: not within %v (%d actions stored, %d refused)", what, d, played.Load(), refused.Load())
			}
			time.Sleep(10 * time.Millisecond)
		}
		return time.Since(start)
	}
	ready := func() bool {
		s, _ := probe.Do(t, "GET", "/readyz", nil)
		return s == 200
	}

	wait("the first 500 actions", time.Minute, func() bool { return played.Load() >= 500 })
	if r := refused.Load(); r != 0 {
		t.Fatalf("%d actions refused before the disk filled (WAL %s)", r, walSize(path))
	}
	t.Logf("%d actions stored; WAL %s before the disk fills", played.Load(), walSize(path))

	filler := filepath.Join(dir, "filler")
	fillDisk(t, filler)
	wait("an action refused on the full disk", 30*time.Second, func() bool { return refused.Load() > 0 })
	// A commit that fits in the WAL's pages may still succeed now and then
	// on the full disk, and each success makes /readyz 200 again: it says
	// 503 while the last write failed.
	wait("readyz 503 on the full disk", 10*time.Second, func() bool {
		var e errorBody
		s, raw := probe.Do(t, "GET", "/readyz", nil)
		if s == 503 && (json.Unmarshal(raw, &e) != nil || e.Error.Code != game.Unavailable) {
			t.Fatalf("readyz on a full disk: %s", raw)
		}
		return s == 503
	})
	time.Sleep(300 * time.Millisecond) // the players go on failing a while

	full := refused.Load()
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	took := wait("readyz 200 once space is freed", 5*time.Second, ready)
	t.Logf("readyz 200 %v after the space was freed; %d actions refused on the full disk", took.Round(time.Millisecond), full)
	recovered.Store(true)
	again := played.Load()
	wait("500 more actions", time.Minute, func() bool {
		if r := refusedLate.Load(); r != 0 {
			t.Fatalf("%d actions refused after the store was ready again (WAL %s)", r, walSize(path))
		}
		return played.Load() >= again+500
	})
	if !ready() {
		t.Fatalf("readyz not 200 after 500 more actions (WAL %s)", walSize(path))
	}
	t.Logf("WAL %s after 500 more actions", walSize(path))

	stop.Store(true)
	wg.Wait()
	ts.stop()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st = openSQLite(t, path)
	for i, p := range players {
		got, err := st.Actions(context.Background(), p.game, 0)
		if err != nil {
			t.Fatal(err)
		}
		stored := make(map[int64]bool, len(got))
		for j, a := range got {
			if a.Seq != int64(j+1) {
				t.Fatalf("player %d: the log's action %d has seq %d", i, j, a.Seq)
			}
			stored[a.Seq] = true
		}
		for _, seq := range p.acked {
			if !stored[seq] {
				t.Errorf("player %d: acknowledged action %d is not in the log (%d stored)", i, seq, len(got))
			}
		}
	}
}

// walSize tells the size of the WAL of the database at path.
func walSize(path string) string {
	fi, err := os.Stat(path + "-wal")
	if errors.Is(err, os.ErrNotExist) {
		return "absent"
	}
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%.1f MiB", float64(fi.Size())/(1<<20))
}
