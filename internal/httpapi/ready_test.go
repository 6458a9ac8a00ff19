package httpapi

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/game"
	"dsol/internal/store"
	"dsol/internal/store/postgres"
	"dsol/internal/store/sqlite"
	"dsol/internal/testenv"
)

// failingAppends is a store whose AppendActions fails while fail holds an
// error.
type failingAppends struct {
	store.Store
	fail atomic.Pointer[error]
}

func (f *failingAppends) AppendActions(ctx context.Context, actions []store.Action) error {
	if err := f.fail.Load(); err != nil {
		return *err
	}
	return f.Store.AppendActions(ctx, actions)
}

// move plays the next card of a solo game of DS1-D1N (a draw, or a recycle
// once the stock is empty) and returns the status of the answer.
func move(t *testing.T, c *client, game string) int {
	t.Helper()
	path := "/api/v1/games/" + game + "/actions"
	status, raw := c.Do(t, "POST", path, `{"action":{"type":"draw"}}`)
	if status == 422 {
		status, raw = c.Do(t, "POST", path, `{"action":{"type":"recycle"}}`)
	}
	if status != 200 && status != 503 {
		t.Fatalf("action: %d %s", status, raw)
	}
	return status
}

// readyzWhileWritesFail plays on ts until the actions fail once fail has
// broken the store's writes, checks that /readyz is then 503 with reason in
// its message, and that it is 200 again once heal let a write through.
func readyzWhileWritesFail(t *testing.T, ts *testServer, fail, heal func(), reason string) {
	t.Helper()
	probe := ts.anon()
	probe.MustJSON(t, "GET", "/readyz", nil, 200, nil)
	p := ts.mustPlayer(t)
	g := p.mustGame(t, "DS1-D1N-AAAAAAB").ID
	if move(t, p, g) != 200 {
		t.Fatal("the first action failed")
	}
	probe.MustJSON(t, "GET", "/readyz", nil, 200, nil)

	fail()
	n := 1
	for ; move(t, p, g) == 200; n++ {
		if n == 2000 {
			t.Fatal("2000 actions stored on a store that cannot write")
		}
	}
	t.Logf("action %d failed", n+1)
	var e errorBody
	probe.MustJSON(t, "GET", "/readyz", nil, 503, &e)
	if e.Error.Code != game.Unavailable || !strings.Contains(e.Error.Message, reason) {
		t.Fatalf("readyz while writes fail: %+v, want %s with %q", e.Error, game.Unavailable, reason)
	}
	t.Logf("readyz: %s", e.Error.Message)
	if strings.Contains(e.Error.Message, "postgres") || strings.Contains(e.Error.Message, "sqlite") {
		t.Fatalf("readyz tells the store's own error to anyone: %s", e.Error.Message)
	}
	ts.clock.Advance(time.Second) // a new ping: the store still answers
	probe.MustError(t, "GET", "/readyz", nil, 503, game.Unavailable)
	// Without writes the failure stops counting after writeFailureHolds:
	// an unready node gets no traffic that could clear it. The next failed
	// write makes it unready again.
	ts.clock.Advance(writeFailureHolds)
	probe.MustJSON(t, "GET", "/readyz", nil, 200, nil)
	if move(t, p, g) == 200 {
		t.Fatal("an action stored on a store that cannot write")
	}
	probe.MustError(t, "GET", "/readyz", nil, 503, game.Unavailable)

	heal()
	if s := move(t, p, g); s != 200 {
		t.Fatalf("action after the store healed: %d", s)
	}
	probe.MustJSON(t, "GET", "/readyz", nil, 200, nil)
}

// fillDisk writes path until the file system has no byte left.
func fillDisk(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, size := range []int{64 << 10, 4 << 10, 1} {
		buf := make([]byte, size)
		for {
			if _, err = f.Write(buf); err != nil {
				break
			}
		}
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("filling the disk: %v", err)
		}
	}
}

// TestReadyzDiskFull: SQLite on a full disk. As root on Linux the database
// lives on a small tmpfs that the test fills; elsewhere the write failure is
// injected.
func TestReadyzDiskFull(t *testing.T) {
	dir := t.TempDir()
	if err := testenv.MountTmpfs(t, dir, 4<<20); err != nil {
		t.Logf("no tmpfs (%v): injecting the write failure instead", err)
		st := &failingAppends{Store: openSQLite(t, filepath.Join(dir, "dsol.db"))}
		full := fmt.Errorf("sqlite: append actions: %w: database or disk is full (injected)", store.ErrUnavailable)
		readyzWhileWritesFail(t, mustServer(t, st),
			func() { st.fail.Store(&full) }, func() { st.fail.Store(nil) }, "the store cannot write")
		return
	}
	t.Log("SQLite on a 4 MiB tmpfs, filled to the last byte")
	st := openSQLite(t, filepath.Join(dir, "dsol.db"))
	filler := filepath.Join(dir, "filler")
	readyzWhileWritesFail(t, mustServer(t, st), func() { fillDisk(t, filler) }, func() {
		if err := os.Remove(filler); err != nil {
			t.Fatal(err)
		}
	}, "the store cannot write")
}

func openSQLite(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestReadyzPostgresWriteFailure: PostgreSQL refuses to insert actions (a
// trigger raises disk_full, as a full volume would).
func TestReadyzPostgresWriteFailure(t *testing.T) {
	u := testenv.PostgresSchemaURL(t)
	ctx := context.Background()
	st, err := postgres.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	exec := func(sql string) {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	exec(`CREATE FUNCTION refuse_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`)
	readyzWhileWritesFail(t, mustServer(t, st),
		func() { exec(`CREATE TRIGGER refuse_insert BEFORE INSERT ON actions EXECUTE FUNCTION refuse_insert()`) },
		func() { exec(`DROP TRIGGER refuse_insert ON actions`) },
		"the store cannot write")
}

// countPings counts the pings that reach the store; each takes a while, so
// that concurrent probes overlap.
type countPings struct {
	store.Store
	pings atomic.Int64
	fail  atomic.Bool
	hold  chan struct{} // when set, a ping waits for it to close
}

func (s *countPings) Ping(ctx context.Context) error {
	s.pings.Add(1)
	time.Sleep(20 * time.Millisecond)
	if s.hold != nil {
		<-s.hold
	}
	if s.fail.Load() {
		return errors.New("ping: connection refused")
	}
	return s.Store.Ping(ctx)
}

// flood sends n concurrent GET /readyz and returns how many answered each
// status.
func flood(t *testing.T, ts *testServer, n int) map[int]int {
	t.Helper()
	var mu sync.Mutex
	got := map[int]int{}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			res, err := ts.Client().Get(ts.URL + "/readyz")
			if err != nil {
				t.Error(err)
				return
			}
			res.Body.Close()
			mu.Lock()
			got[res.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	return got
}

func TestReadyzProbeFlood(t *testing.T) {
	st := &countPings{Store: openSQLite(t, filepath.Join(t.TempDir(), "dsol.db"))}
	ts := mustServer(t, st)
	const n = 64
	if got := flood(t, ts, n); got[200] != n {
		t.Fatalf("statuses %v", got)
	}
	if p := st.pings.Load(); p != 1 {
		t.Fatalf("%d concurrent probes pinged %d times, want once", n, p)
	}
	ts.clock.Advance(time.Second)
	flood(t, ts, n)
	if p := st.pings.Load(); p != 2 {
		t.Fatalf("%d pings after a second, want 2", p)
	}
	// A ping that fails is reused for its second too.
	st.fail.Store(true)
	if got := flood(t, ts, n); got[200] != n {
		t.Fatalf("statuses %v within the second of a good ping", got)
	}
	ts.clock.Advance(time.Second)
	if got := flood(t, ts, n); got[503] != n {
		t.Fatalf("statuses %v once the store stopped answering", got)
	}
	if p := st.pings.Load(); p != 3 {
		t.Fatalf("%d pings after three seconds, want 3", p)
	}
	var e errorBody
	ts.anon().MustJSON(t, "GET", "/readyz", nil, 503, &e)
	if !strings.Contains(e.Error.Message, "not reachable") {
		t.Fatalf("readyz %+v", e.Error)
	}
}

// TestReadinessPingRate probes as fast as 8 goroutines can for 1.5 s of
// real time: the store is pinged at most once a second.
func TestReadinessPingRate(t *testing.T) {
	st := &countPings{Store: openSQLite(t, filepath.Join(t.TempDir(), "dsol.db"))}
	rd := newReadiness(st, nil, time.Now)
	deadline := time.Now().Add(1500 * time.Millisecond)
	var probes atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if err := rd.check(context.Background()); err != nil {
					t.Error(err)
					return
				}
				probes.Add(1)
			}
		})
	}
	wg.Wait()
	if p := st.pings.Load(); p < 1 || p > 2 {
		t.Fatalf("%d pings for %d probes in 1.5 s, want 1 or 2", p, probes.Load())
	}
	t.Logf("%d pings for %d probes", st.pings.Load(), probes.Load())
}

// A probe that gives up while another one pings leaves at once.
func TestReadinessWaitEndsWithTheProbe(t *testing.T) {
	st := &countPings{Store: openSQLite(t, filepath.Join(t.TempDir(), "dsol.db")), hold: make(chan struct{})}
	rd := newReadiness(st, nil, time.Now)
	done := make(chan error)
	go func() { done <- rd.check(context.Background()) }()
	for st.pings.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := rd.check(ctx) // the ping is held: it cannot have ended
	close(st.hold)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("check with an ended context: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the probe that pinged: %v", err)
	}
}
