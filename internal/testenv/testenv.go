// Package testenv finds the outside services that some tests need (PostgreSQL,
// Chromium). When a service is missing a test is skipped with a clear message,
// unless DSOL_REQUIRE_ALL is set (CI sets it), in which case the test fails.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// RequireAll reports whether missing services must fail tests instead of skipping them.
func RequireAll() bool {
	v := os.Getenv("DSOL_REQUIRE_ALL")
	return v != "" && v != "0" && v != "false"
}

func missing(tb testing.TB, what string) {
	tb.Helper()
	if RequireAll() {
		tb.Fatalf("%s (DSOL_REQUIRE_ALL is set, so this is a failure, not a skip)", what)
	}
	tb.Skipf("%s; skipping (set it up, or run .ci/run)", what)
}

// PostgresURL returns the URL of a PostgreSQL database reserved for tests, taken
// from DSOL_TEST_POSTGRES_URL, or skips the test when it is not configured.
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv("DSOL_TEST_POSTGRES_URL")
	if u == "" {
		missing(tb, "PostgreSQL is not configured: DSOL_TEST_POSTGRES_URL is empty")
	}
	return u
}

// Chromium returns the path of a Chromium binary for browser tests (DSOL_CHROMIUM,
// else chromium or chromium-browser on PATH), or skips the test when there is none.
func Chromium(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("DSOL_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	missing(tb, "Chromium is not installed (no DSOL_CHROMIUM, no chromium on PATH)")
	return ""
}
