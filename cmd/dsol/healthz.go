package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"dsol/internal/cli"
)

// runHealthz is dsol healthz: GET /healthz of a server and succeed when it
// answers 200, for the healthcheck of a container that has neither a shell
// nor curl. The address is --addr, else the port of DSOL_ADDR on 127.0.0.1,
// else 127.0.0.1:8080.
func runHealthz(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	fs := flag.NewFlagSet("healthz", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", localAddr(env(getenv, "DSOL_ADDR", ":8080")),
		"the server: host:port or an http:// URL (default: 127.0.0.1 and the port of DSOL_ADDR)")
	timeout := fs.Duration("timeout", 5*time.Second, "bound on the request")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return cli.Usagef("healthz: %v", err)
	}
	if fs.NArg() > 0 {
		return cli.Usagef("healthz takes no arguments, only flags (got %q)", fs.Arg(0))
	}
	u := strings.TrimSuffix(*addr, "/")
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		u = "http://" + u
	}
	u += "/healthz"
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return cli.Usagef("healthz: %v", err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthz: %w", err)
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("healthz: %s answered %s", u, res.Status)
	}
	return nil
}

// localAddr turns a listen address into one to dial on this machine: a
// missing or unspecified host (":8080", "0.0.0.0:8080", "[::]:8080")
// becomes 127.0.0.1.
func localAddr(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
