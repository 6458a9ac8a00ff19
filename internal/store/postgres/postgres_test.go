package postgres_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"dsol/internal/store"
	"dsol/internal/store/postgres"
	"dsol/internal/store/storetest"
	"dsol/internal/testenv"
	"dsol/migrations"
)

func mustOpen(tb testing.TB, url string) *postgres.Store {
	tb.Helper()
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return mustOpen(t, testenv.PostgresSchemaURL(t))
	})
}

func TestReopen(t *testing.T) {
	ctx := context.Background()
	u := testenv.PostgresSchemaURL(t)
	s := mustOpen(t, u)
	if err := s.CreatePlayer(ctx, storetest.NewPlayer("alice")); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateGame(ctx, storetest.NewSolo("g1", "alice", time.Now())); err != nil {
		t.Fatal(err)
	}
	want := []store.Action{storetest.NewAction("g1", 1, 1, "x")}
	if err := s.AppendActions(ctx, want); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = mustOpen(t, u)
	got, err := s.Actions(ctx, "g1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := storetest.EqualActions(got, want); d != "" {
		t.Fatal(d)
	}
}

func TestConcurrentMigrations(t *testing.T) {
	// Several replicas starting at once: the advisory lock lets one migrate
	// while the others wait, and all of them come up.
	u := testenv.PostgresSchemaURL(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := postgres.Open(context.Background(), u)
			if err == nil {
				err = s.Ping(context.Background())
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if err := postgres.Migrate(context.Background(), u); err != nil {
		t.Fatal(err)
	}
}

func TestUnavailable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Nothing listens on port 1 of the loopback address.
	_, err := postgres.Open(ctx, "postgres://dsol:dsol@127.0.0.1:1/dsol?sslmode=disable&connect_timeout=2")
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("Open on a closed port: %v, want ErrUnavailable", err)
	}

	s := mustOpen(t, testenv.PostgresSchemaURL(t))
	s.Close()
	err = s.Ping(ctx)
	if err == nil {
		t.Fatal("Ping after Close succeeded")
	}
}

// TestAbandonedQueryUsesIndex: the sweep can find its candidates through the
// games_unfinished index (the planner is told to avoid sequential scans, as
// it would not on a large table).
func TestAbandonedQueryUsesIndex(t *testing.T) {
	ctx := context.Background()
	u := testenv.PostgresSchemaURL(t)
	mustOpen(t, u)
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SET enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(ctx, `EXPLAIN `+postgres.AbandonedQuery, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if p := strings.Join(plan, "\n"); !strings.Contains(p, "games_unfinished") {
		t.Fatalf("the sweep's query does not use games_unfinished:\n%s", p)
	}
}

// TestDeleteAbandonedOneSweeper: while another node holds the sweep's lock
// (it is sweeping), a sweep deletes nothing; once the lock is free it does.
func TestDeleteAbandonedOneSweeper(t *testing.T) {
	ctx := context.Background()
	u := testenv.PostgresSchemaURL(t)
	s := mustOpen(t, u)
	if err := s.CreatePlayer(ctx, storetest.NewPlayer("alice")); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour)
	if err := s.CreateGame(ctx, storetest.NewSolo("g1", "alice", old)); err != nil {
		t.Fatal(err)
	}
	other, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	var schema string
	if err := other.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	tx, err := other.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, postgres.RetentionLockID(schema)); err != nil {
		t.Fatal(err)
	}
	cutoff := time.Now().Add(-24 * time.Hour)
	if n, err := s.DeleteAbandoned(ctx, cutoff, 10); err != nil || n != 0 {
		t.Fatalf("sweep while another one holds the lock: %d, %v; want 0, nil", n, err)
	}
	if _, err := s.Game(ctx, "g1"); err != nil {
		t.Fatalf("the game went while another sweep held the lock: %v", err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := s.DeleteAbandoned(ctx, cutoff, 10); err != nil || n != 1 {
		t.Fatalf("sweep once the lock is free: %d, %v; want 1, nil", n, err)
	}
}

// belowStatsTables takes the schema at url below the statistics tables; up
// brings it up again, migration 00013 filling them from the games stored,
// and returns how long that took.
func belowStatsTables(tb testing.TB, url string) (up func() time.Duration) {
	tb.Helper()
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := migrations.NewProvider(ctx, stdlib.OpenDB(*cfg), migrations.Postgres)
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

// BenchmarkStats times Store.Stats of a player with 100,000 solo games of
// ten actions each, besides other players' games. They are stored below
// the statistics tables, which the migration then fills, as it does on an
// upgrade.
func BenchmarkStats(b *testing.B) {
	ctx := context.Background()
	u := testenv.PostgresSchemaURL(b)
	s := mustOpen(b, u)
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	up := belowStatsTables(b, u)
	storetest.SeedStats(b, s, func(q string) error { _, err := conn.Exec(ctx, q); return err },
		func(us string) string {
			return "(TIMESTAMPTZ '2025-01-01 00:00:00+00' + (" + us + ") * INTERVAL '1 microsecond')"
		})
	b.Logf("migration 00013 filled the statistics tables in %v", up())
	if _, err := conn.Exec(ctx, `VACUUM ANALYZE games, actions, players, solo_results, solo_figures, solo_totals, race_totals`); err != nil { // as autovacuum would have by now
		b.Fatal(err)
	}
	storetest.BenchStats(b, s)
}

// TestStatsQueryUsesIndexes: the solo statistics read the player's modes
// through the key of solo_totals and each figure of a mode through an index
// of solo_results or solo_figures, the race statistics the player's row of
// race_totals (the planner is told to avoid sequential scans, as it would
// not on large tables).
func TestStatsQueryUsesIndexes(t *testing.T) {
	ctx := context.Background()
	u := testenv.PostgresSchemaURL(t)
	mustOpen(t, u)
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SET enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(ctx, `EXPLAIN `+postgres.SoloStatsQuery, "alice")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	p := strings.Join(plan, "\n")
	for _, want := range []string{"solo_totals_pkey", "solo_figures_score", "solo_figures_play", "solo_figures_moves",
		"solo_results_games", "solo_results_runs"} {
		if !strings.Contains(p, want) {
			t.Errorf("the statistics query does not use %s:\n%s", want, p)
		}
	}
	if strings.Contains(p, "Seq Scan") {
		t.Errorf("the statistics query reads a table through:\n%s", p)
	}
	rows, err = conn.Query(ctx, `EXPLAIN `+store.RaceStatsQuery, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if plan, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		t.Fatal(err)
	}
	if p := strings.Join(plan, "\n"); !strings.Contains(p, "race_totals_pkey") || strings.Contains(p, "Seq Scan on race_totals") {
		t.Errorf("the race statistics query does not read race_totals by its key:\n%s", p)
	}
}

// TestPropertyStatsRecompute: over random histories, Stats equals the
// statistics recomputed from the games and actions read back, also after
// the schema went down below the statistics tables and up again (the
// migration fills them from the games stored). DSOL_PROPERTY_STATS sets
// the number of histories, DSOL_PROPERTY_SEED the seed.
func TestPropertyStatsRecompute(t *testing.T) {
	u := testenv.PostgresSchemaURL(t)
	s := mustOpen(t, u)
	storetest.PropertyStats(t, s, storetest.PropertyHistories(t, 8), func(t *testing.T) { belowStatsTables(t, u)() })
}

// TestPropertyLeaderboardRecompute: over random daily challenges, every
// player's leaderboard equals the one recomputed from the entries' games
// and actions read back.
func TestPropertyLeaderboardRecompute(t *testing.T) {
	s := mustOpen(t, testenv.PostgresSchemaURL(t))
	storetest.PropertyLeaderboard(t, s, storetest.PropertyHistories(t, 8))
}
