package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"testing"

	"github.com/jackc/pgx/v5"
)

// PostgresSchemaURL creates a fresh schema in the test database of
// PostgresURL, dropped when the test ends, and returns a URL whose search_path
// points at it, so that tests (and test packages) running in parallel never
// see each other's tables. It skips the test when PostgreSQL is not
// configured.
func PostgresSchemaURL(tb testing.TB) string {
	tb.Helper()
	base := PostgresURL(tb)
	ctx := context.Background()
	schema := "dsol_test_" + hex.EncodeToString(randomBytes(6))
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

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}
