package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/postgres"
	"dsol/internal/store/storetest"
	"dsol/internal/testenv"
)

// mustSchemaURL creates a fresh schema for one test, dropped at its end, and
// returns a URL whose search_path points at it, so tests (and test packages)
// running in parallel never see each other's tables.
func mustSchemaURL(tb testing.TB) string {
	tb.Helper()
	base := testenv.PostgresURL(tb)
	ctx := context.Background()
	b := make([]byte, 6)
	rand.Read(b)
	schema := "dsol_test_" + hex.EncodeToString(b)
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		tb.Fatalf("connect to %s: %v", base, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		tb.Fatalf("create schema: %v", err)
	}
	tb.Cleanup(func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			tb.Errorf("connect to drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("DSOL_TEST_POSTGRES_URL: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

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
		return mustOpen(t, mustSchemaURL(t))
	})
}

func TestReopen(t *testing.T) {
	ctx := context.Background()
	u := mustSchemaURL(t)
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
	u := mustSchemaURL(t)
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

	s := mustOpen(t, mustSchemaURL(t))
	s.Close()
	err = s.Ping(ctx)
	if err == nil {
		t.Fatal("Ping after Close succeeded")
	}
}
