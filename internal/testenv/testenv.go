// Package testenv finds the outside services that some tests need (PostgreSQL,
// Chromium, a small file system of their own). When a service is missing a
// test is skipped with a clear message, unless DSOL_REQUIRE_ALL is set (CI
// sets it), in which case the test fails.
package testenv

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
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

// MountTmpfs mounts a tmpfs of size bytes on dir, an empty directory, and
// unmounts it when the test ends, after the cleanups registered later (such
// as closing a database that lives on it). It needs root on Linux; the error
// says why it could not mount.
func MountTmpfs(tb testing.TB, dir string, size int64) error {
	tb.Helper()
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		return errors.New("not root on Linux")
	}
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+strconv.FormatInt(size, 10), "tmpfs", dir).CombinedOutput()
	if err != nil {
		return fmt.Errorf("mount: %v: %s", err, strings.TrimSpace(string(out)))
	}
	tb.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			tb.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return nil
}

// Tmpfs mounts a tmpfs of size bytes on dir as MountTmpfs does, or skips the
// test when it cannot (a full disk cannot be had otherwise without filling
// the machine's).
func Tmpfs(tb testing.TB, dir string, size int64) {
	tb.Helper()
	if err := MountTmpfs(tb, dir, size); err != nil {
		missing(tb, fmt.Sprintf("cannot mount a %d-byte tmpfs (%v): the test needs root on Linux", size, err))
	}
}
