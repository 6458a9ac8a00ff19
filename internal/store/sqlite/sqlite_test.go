package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/sqlite"
	"dsol/internal/store/storetest"
	"dsol/migrations"
)

func mustOpen(tb testing.TB, path string) *sqlite.Store {
	tb.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		tb.Fatalf("Open(%s): %v", path, err)
	}
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return mustOpen(t, filepath.Join(t.TempDir(), "dsol.db"))
	})
}

func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "dsol.db")
	s := mustOpen(t, path)
	p := storetest.NewPlayer("alice")
	g := storetest.NewRace("r1", "alice", true, time.Now().UTC().Truncate(time.Microsecond))
	as := []store.Action{storetest.NewAction("r1", 1, 1, "a"), storetest.NewAction("r1", 2, 1, "")}
	if err := s.CreatePlayer(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	c := store.NewCommitter(s, time.Millisecond, 16, nil)
	if err := c.Commit(ctx, as...); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = mustOpen(t, path) // migrations run again and find nothing to do
	defer s.Close()
	gotP, err := s.PlayerByTokenHash(ctx, p.TokenHash)
	if err != nil {
		t.Fatal(err)
	}
	if d := storetest.EqualPlayer(gotP, p); d != "" {
		t.Error(d)
	}
	gotG, err := s.Game(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if d := storetest.EqualGame(gotG, g); d != "" {
		t.Error(d)
	}
	gotA, err := s.Actions(ctx, "r1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := storetest.EqualActions(gotA, as); d != "" {
		t.Error(d)
	}
}

func TestMigrate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dsol.db")
	for i := range 2 {
		if err := sqlite.Migrate(context.Background(), path); err != nil {
			t.Fatalf("Migrate #%d: %v", i+1, err)
		}
	}
}

func TestBadPath(t *testing.T) {
	for _, path := range []string{"", ":memory:", "a.db?mode=ro", "file:x.db"} {
		t.Run(fmt.Sprintf("%q", path), func(t *testing.T) {
			if s, err := sqlite.Open(context.Background(), path); err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
		})
	}
}

func TestTwoStoresOneFile(t *testing.T) {
	// Two processes (here: two stores) writing the same file queue on the
	// busy timeout instead of failing.
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "dsol.db")
	a, b := mustOpen(t, path), mustOpen(t, path)
	defer a.Close()
	defer b.Close()
	if err := a.CreatePlayer(ctx, storetest.NewPlayer("alice")); err != nil {
		t.Fatal(err)
	}
	if err := b.CreateGame(ctx, storetest.NewSolo("g1", "alice", time.Now())); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for i, s := range []*sqlite.Store{a, b} {
		go func() {
			var err error
			for seq := int64(i + 1); seq <= 200 && err == nil; seq += 2 {
				err = s.AppendActions(ctx, []store.Action{storetest.NewAction("g1", seq, 1, "")})
			}
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	got, err := a.Actions(ctx, "g1", 0)
	if err != nil || len(got) != 200 {
		t.Fatalf("%d actions, %v", len(got), err)
	}
}

// BenchmarkCommitter measures group commit on SQLite (synchronous=FULL): many
// goroutines, one per game, each committing one action at a time and waiting
// for it to be durable.
func BenchmarkCommitter(b *testing.B) {
	for _, kind := range []string{"solo", "race"} {
		for _, window := range []time.Duration{0, time.Millisecond, 2 * time.Millisecond} {
			b.Run(fmt.Sprintf("kind=%s/window=%v", kind, window), func(b *testing.B) {
				benchmarkCommitter(b, kind, window)
			})
		}
	}
}

// benchmarkCommitter commits actions of 64 games of a kind at once through
// a Committer: a solo game's with its tally, a race's without one, by both
// seats in turn.
func benchmarkCommitter(b *testing.B, kind string, window time.Duration) {
	ctx := context.Background()
	s := mustOpen(b, filepath.Join(b.TempDir(), "dsol.db"))
	defer s.Close()
	const games = 1024
	for _, p := range []string{"alice", "bob"} {
		if err := s.CreatePlayer(ctx, storetest.NewPlayer(p)); err != nil {
			b.Fatal(err)
		}
	}
	for g := range games {
		id := fmt.Sprintf("g%d", g)
		var err error
		if kind == "race" {
			r := storetest.NewRace(id, "alice", false, time.Now())
			if err = s.CreateGame(ctx, r); err == nil {
				r.Seats[1], r.Status = "bob", "playing"
				err = s.UpdateGame(ctx, r)
			}
		} else {
			err = s.CreateGame(ctx, storetest.NewSolo(id, "alice", time.Now()))
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	var batches, actions atomic.Int64
	c := store.NewCommitter(s, window, 256, func(n int, _ time.Duration, _ error) {
		batches.Add(1)
		actions.Add(int64(n))
	})
	var next atomic.Int64
	payload := []byte(`{"type":"move","from":"c3","count":2,"to":"c7"}`)
	b.SetParallelism(32) // 64 games in flight on 2 cores
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		g := next.Add(1) - 1
		if g >= games {
			panic("too many goroutines")
		}
		id := fmt.Sprintf("g%d", g)
		a := store.Action{GameID: id, Seat: 1, Action: payload, At: time.Now()}
		for pb.Next() {
			a.Seq++
			if kind == "race" {
				a.Seat = 1 + int(a.Seq%2)
			} else {
				a.Tally = &store.Tally{Score: int(a.Seq), Moves: int(a.Seq), Play: time.Duration(a.Seq) * time.Second}
			}
			if err := c.Commit(ctx, a); err != nil {
				if errors.Is(err, store.ErrConflict) {
					panic(err)
				}
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	c.Close()
	if n := batches.Load(); n > 0 {
		b.ReportMetric(float64(actions.Load())/float64(n), "actions/batch")
	}
}

// oneGame opens a fresh store holding alice's solo game g1; it is closed
// when the test ends.
func oneGame(tb testing.TB) *sqlite.Store {
	tb.Helper()
	ctx := context.Background()
	s := mustOpen(tb, filepath.Join(tb.TempDir(), "dsol.db"))
	tb.Cleanup(func() { s.Close() })
	if err := s.CreatePlayer(ctx, storetest.NewPlayer("alice")); err != nil {
		tb.Fatal(err)
	}
	if err := s.CreateGame(ctx, storetest.NewSolo("g1", "alice", time.Now())); err != nil {
		tb.Fatal(err)
	}
	return s
}

// BenchmarkAppendActions is the baseline without group commit: one
// transaction per action.
func BenchmarkAppendActions(b *testing.B) {
	ctx := context.Background()
	s := oneGame(b)
	a := []store.Action{{GameID: "g1", Seat: 1, Action: []byte(`{"type":"draw"}`), At: time.Now()}}
	b.ReportAllocs()
	for b.Loop() {
		a[0].Seq++
		if err := s.AppendActions(ctx, a); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAbandonedQueryUsesIndex: the sweep finds its candidates through the
// games_unfinished index, not by reading every game, while it holds the
// write lock.
func TestAbandonedQueryUsesIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dsol.db")
	mustOpen(t, path).Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if p := strings.Join(queryPlan(t, db, sqlite.AbandonedQuery, 0, -1), "; "); !strings.Contains(p, "games_unfinished") {
		t.Fatalf("the sweep's query does not use games_unfinished: %s", p)
	}
}

// belowStatsTables takes the schema of the database at path below the
// statistics tables; up brings it up again, migration 00013 filling them
// from the games stored, and returns how long that took.
func belowStatsTables(tb testing.TB, path string) (up func() time.Duration) {
	tb.Helper()
	ctx := context.Background()
	// Transactions IMMEDIATE, as the store's writer migrates: a Go
	// migration that reads and then writes in a deferred transaction gets
	// SQLITE_BUSY at once, without waiting, when the open store's
	// checkpointer holds the write lock meanwhile.
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_txlock=immediate")
	if err != nil {
		tb.Fatal(err)
	}
	p, err := migrations.NewProvider(ctx, db, migrations.SQLite)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := p.DownTo(ctx, storetest.BeforeStatsTables); err != nil {
		tb.Fatal(err)
	}
	return func() time.Duration {
		defer p.Close()
		start := time.Now()
		if _, err := p.Up(ctx); err != nil {
			tb.Fatal(err)
		}
		return time.Since(start)
	}
}

// mustSeedStats opens a store at path seeded with the games of the
// statistics benchmark: stored below the statistics tables, which the
// migration then fills, as it does on an upgrade.
func mustSeedStats(tb testing.TB, path string) *sqlite.Store {
	tb.Helper()
	s := mustOpen(tb, path)
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	up := belowStatsTables(tb, path)
	storetest.SeedStats(tb, s, func(q string) error { _, err := db.Exec(q); return err },
		func(us string) string {
			return fmt.Sprintf("(%d + (%s))", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro(), us)
		})
	tb.Logf("migration 00013 filled the statistics tables in %v", up())
	if _, err := db.Exec(`ANALYZE`); err != nil {
		tb.Fatal(err)
	}
	return s
}

// BenchmarkStats times Store.Stats of a player with 100,000 solo games of
// ten actions each, besides other players' games.
func BenchmarkStats(b *testing.B) {
	s := mustSeedStats(b, filepath.Join(b.TempDir(), "dsol.db"))
	defer s.Close()
	storetest.BenchStats(b, s)
}

// TestStatsQueryUsesIndexes: the solo statistics read the player's modes
// through the key of solo_totals and each figure of a mode through an index
// of solo_results or solo_figures (a seek each, whatever the number of
// games), never by reading the player's games; the race statistics read the
// player's row of race_totals.
func TestStatsQueryUsesIndexes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dsol.db")
	s := mustOpen(t, path)
	ctx := context.Background()
	if err := s.CreatePlayer(ctx, storetest.NewPlayer("alice")); err != nil {
		t.Fatal(err)
	}
	start := time.Now().UTC().Truncate(time.Microsecond)
	if err := s.CreatePlayer(ctx, storetest.NewPlayer("bob")); err != nil {
		t.Fatal(err)
	}
	for i := range 200 { // other players' games: alice's are a few of them
		if err := s.CreateGame(ctx, storetest.NewSolo(fmt.Sprintf("b%d", i), "bob", start)); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendActions(ctx, []store.Action{storetest.NewAction(fmt.Sprintf("b%d", i), 1, 1, "")}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20 {
		p := storetest.Played{ID: fmt.Sprintf("g%d", i), Mode: store.SoloModes[i%4], Created: start.Add(time.Duration(i) * time.Minute),
			Undo: i%5 == 0}
		for j := range 40 {
			p.At = append(p.At, time.Duration(j)*time.Second)
		}
		g := storetest.NewSolo(p.ID, "alice", p.Created)
		g.Code = storetest.SoloCode(p.Mode)
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendActions(ctx, storetest.PlayedActions(p)); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`ANALYZE`); err != nil {
		t.Fatal(err)
	}
	plan := queryPlan(t, db, sqlite.SoloStatsQuery, "alice")
	p := strings.Join(plan, "; ")
	for _, want := range []string{"SEARCH t USING PRIMARY KEY (player_id=?)", "solo_figures_score", "solo_figures_play",
		"solo_figures_moves", "solo_results_games", "solo_results_runs"} {
		if !strings.Contains(p, want) {
			t.Errorf("the statistics query does not use %q: %s", want, p)
		}
	}
	for _, d := range plan {
		if f := strings.Fields(d); len(f) >= 2 && f[0] == "SCAN" && (f[1] == "r" || f[1] == "f" || f[1] == "t" || f[1] == "p") {
			t.Errorf("the statistics query reads a table through (%s): %s", d, p)
		}
	}
	if p := strings.Join(queryPlan(t, db, store.RaceStatsQuery, "alice"), "; "); !strings.Contains(p, "SEARCH t USING PRIMARY KEY (player_id=?)") {
		t.Errorf("the race statistics query does not read race_totals by its key: %s", p)
	}
}

// TestPropertyStatsRecompute: over random histories, Stats equals the
// statistics recomputed from the games and actions read back, also after
// the schema went down below the statistics tables and up again (the
// migration fills them from the games stored). DSOL_PROPERTY_STATS sets
// the number of histories, DSOL_PROPERTY_SEED the seed.
func TestPropertyStatsRecompute(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dsol.db")
	s := mustOpen(t, path)
	defer s.Close()
	storetest.PropertyStats(t, s, storetest.PropertyHistories(t, 16), func(t *testing.T) { belowStatsTables(t, path)() })
}

// TestPropertyLeaderboardRecompute: over random daily challenges, every
// player's leaderboard equals the one recomputed from the entries' games
// and actions read back.
func TestPropertyLeaderboardRecompute(t *testing.T) {
	s := mustOpen(t, filepath.Join(t.TempDir(), "dsol.db"))
	defer s.Close()
	storetest.PropertyLeaderboard(t, s, storetest.PropertyHistories(t, 12))
}

// queryPlan returns the detail lines of SQLite's EXPLAIN QUERY PLAN of query
// with args.
func queryPlan(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(`EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// TestAppendBatchSizes: batches of sizes around the statements' (a power of
// two of rows each, the rest filled with rows left out) and of a few chunks
// store every action once, in order; a batch that fails stores none of it,
// whether it is one statement on its own or a transaction of several.
func TestAppendBatchSizes(t *testing.T) {
	ctx := context.Background()
	s := oneGame(t)
	seq := int64(0)
	batch := func(n int) []store.Action {
		b := make([]store.Action, n)
		for i := range b {
			b[i] = store.Action{GameID: "g1", Seq: seq + int64(i) + 1, Seat: 1, Action: []byte(fmt.Sprintf(`{"type":"draw","n":%d}`, seq+int64(i)+1)), At: time.Now()}
		}
		return b
	}
	for _, n := range []int{1, 2, 3, 5, 7, 8, 31, 65, 100, 257, 511, 512, 513, 1024, 1100, 1} {
		if err := s.AppendActions(ctx, batch(n)); err != nil {
			t.Fatalf("a batch of %d: %v", n, err)
		}
		seq += int64(n)
	}
	for _, n := range []int{70, 700} {
		bad := batch(n)
		bad[n-10].Seq = 1 // stored already: the whole batch must fail
		if err := s.AppendActions(ctx, bad); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a batch of %d with a stored seq: %v", n, err)
		}
		bad = batch(n)
		bad[n/2].GameID = "nope" // no such game
		if err := s.AppendActions(ctx, bad); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a batch of %d with an action of a missing game: %v", n, err)
		}
	}
	got, err := s.Actions(ctx, "g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(got)) != seq {
		t.Fatalf("%d actions stored, want %d", len(got), seq)
	}
	for i, a := range got {
		if want := fmt.Sprintf(`{"type":"draw","n":%d}`, i+1); a.Seq != int64(i)+1 || string(a.Action) != want {
			t.Fatalf("action %d: seq %d %s", i, a.Seq, a.Action)
		}
	}
}

// TestCheckpointBesideTheWriter: the actions written reach the database
// file while the store stays open, far below the WAL size at which the
// writer would checkpoint by itself: the checkpointer copies them.
func TestCheckpointBesideTheWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "dsol.db")
	s := mustOpen(t, path)
	defer s.Close()
	if err := s.CreatePlayer(ctx, storetest.NewPlayer("alice")); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateGame(ctx, storetest.NewSolo("g1", "alice", time.Now())); err != nil {
		t.Fatal(err)
	}
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	for b := range 20 { // about 100 pages of WAL
		as := make([]store.Action, 100)
		for i := range as {
			seq := int64(b*100 + i + 1)
			as[i] = store.Action{GameID: "g1", Seq: seq, Seat: 1, Action: []byte(fmt.Sprintf(`{"type":"draw","n":%d,"pad":"%0100d"}`, seq, 0)), At: time.Now()}
		}
		if err := s.AppendActions(ctx, as); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(20 * time.Second); size() < before+200<<10; {
		if time.Now().After(deadline) {
			t.Fatalf("the database file stays at %d bytes (%d before the writes): the WAL is not checkpointed", size(), before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
