package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// Nginx returns the path of an nginx binary for the tests that run the
// shipped proxy configuration (DSOL_NGINX, else /usr/sbin/nginx, else nginx
// on PATH), or skips the test when there is none.
func Nginx(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("DSOL_NGINX"); p != "" {
		return p
	}
	if st, err := os.Stat("/usr/sbin/nginx"); err == nil && !st.IsDir() {
		return "/usr/sbin/nginx"
	}
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	missing(tb, "nginx is not installed (no DSOL_NGINX, no /usr/sbin/nginx, no nginx on PATH; apt-get install nginx)")
	return ""
}
