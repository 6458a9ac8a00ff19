package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/sqlite"
	"dsol/internal/testenv"
)

// deadAddr returns a loopback address where nothing listens (a port just
// freed).
func deadAddr(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// get returns the status, the Retry-After header and the body of a GET.
func get(tb testing.TB, u string) (int, string, string) {
	tb.Helper()
	res, err := http.Get(u)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Retry-After"), strings.TrimSpace(string(b))
}

const startingBody = `{"error":{"code":"unavailable","message":"starting: waiting for the database"}}`

// checkStarting checks the answers of a server waiting for its database:
// /healthz 200, /readyz and the API 503 unavailable with Retry-After.
func checkStarting(t *testing.T, s *server) {
	t.Helper()
	if code, _, _ := get(t, s.base+"/healthz"); code != 200 {
		t.Errorf("/healthz while waiting: %d, want 200", code)
	}
	for _, path := range []string{"/readyz", "/api/v1/lobby", "/"} {
		code, retry, body := get(t, s.base+path)
		if code != 503 || retry == "" || body != startingBody {
			t.Errorf("%s while waiting: %d, Retry-After %q, %s; want 503 with Retry-After and %s", path, code, retry, body, startingBody)
		}
	}
}

// waitLog waits (at most 30 s) until the server's logs hold text.
func waitLog(t *testing.T, s *server, text string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.logs.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the logs:\n%s", text, s.logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServeGivesUpOnTheDatabase: against a PostgreSQL URL where nothing
// listens, serve answers /healthz but not /readyz, logs each failed attempt
// without the password, and ends with an error once --db-wait has passed.
func TestServeGivesUpOnTheDatabase(t *testing.T) {
	db := "postgres://dsol:s3cret-pw@" + deadAddr(t) + "/dsol?sslmode=disable"
	start := time.Now()
	s := startServe(t, map[string]string{"DATABASE_URL": db, "DSOL_LOG_FORMAT": "text"}, "--db-wait", "2s")
	checkStarting(t, s)
	var err error
	select {
	case err = <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("serve still running 30 s after a --db-wait of 2 s:\n%s", s.logs)
	}
	s.cancel()
	s.cancel = nil
	took := time.Since(start)
	logs := s.logs.String()
	if err == nil || !strings.Contains(err.Error(), "within 2s (--db-wait)") || !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("serve ended with %v, want the --db-wait error", err)
	}
	if took < 2*time.Second {
		t.Errorf("gave up after %s, before --db-wait", took)
	}
	// Attempts at 0, 0.5, 1.5 s: three logged failures, the last one the error.
	if n := strings.Count(logs, "waiting for the database"); n < 2 {
		t.Errorf("%d failed attempts logged, want 2 or more:\n%s", n, logs)
	}
	if strings.Contains(logs+err.Error(), "s3cret-pw") {
		t.Errorf("the password is in the logs or the error:\n%s\n%v", logs, err)
	}
	if !strings.Contains(logs, "postgres://dsol:xxxxx@127.0.0.1:") {
		t.Errorf("the logs do not name the database:\n%s", logs)
	}
}

// TestServeWaitsForTheDatabase: serve starts while its PostgreSQL cannot be
// reached (a port where nothing listens yet), answers 503 on /readyz and the
// API meanwhile, then opens the store once a proxy to the real database
// starts on that port, and serves.
func TestServeWaitsForTheDatabase(t *testing.T) {
	pg, err := url.Parse(testenv.PostgresSchemaURL(t))
	if err != nil {
		t.Fatal(err)
	}
	addr := deadAddr(t)
	via := *pg
	via.Host = addr
	s := startServe(t, map[string]string{"DATABASE_URL": via.String(), "DSOL_LOG_FORMAT": "text"}, "--db-wait", "1m")
	waitLog(t, s, "waiting for the database")
	checkStarting(t, s)

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen again on %s: %v", addr, err)
	}
	proxy := forward(t, ln, pg.Host)
	s.waitReady(t, 30*time.Second)
	var p struct{ Token string }
	s.call(t, "POST", "/api/v1/players", "", `{"name":"Ann"}`, 201, &p)
	s.call(t, "GET", "/api/v1/me", p.Token, "", 200, nil)
	s.stop(t)
	proxy.close()
	if !strings.Contains(s.logs.String(), "store open and migrated") {
		t.Fatalf("logs:\n%s", s.logs)
	}
}

// TestServeDoesNotWaitForAWrongPassword: an error that waiting cannot mend
// ends serve at once, whatever --db-wait says.
func TestServeDoesNotWaitForAWrongPassword(t *testing.T) {
	u, err := url.Parse(testenv.PostgresSchemaURL(t))
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), "not-the-password")
	start := time.Now()
	err = run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--db", u.String(), "--db-wait", "1m"},
		func(string) string { return "" }, io.Discard, io.Discard)
	if err == nil || errors.Is(err, store.ErrUnavailable) || strings.Contains(err.Error(), "not-the-password") {
		t.Fatalf("serve with a wrong password: %v", err)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("took %s to give up", took)
	}
}

// proxy forwards TCP connections to a target.
type proxy struct {
	ln    net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// forward accepts connections on ln and forwards each to target, until
// close (or the test's end).
func forward(tb testing.TB, ln net.Listener, target string) *proxy {
	p := &proxy{ln: ln, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns[c], p.conns[up] = struct{}{}, struct{}{}
			p.mu.Unlock()
			pipe := func(dst, src net.Conn) {
				defer p.wg.Done()
				io.Copy(dst, src)
				dst.Close()
				src.Close()
			}
			p.wg.Add(2)
			go pipe(up, c)
			go pipe(c, up)
		}
	}()
	tb.Cleanup(p.close)
	return p
}

// close stops accepting, cuts every connection and waits for the copies.
func (p *proxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// TestOpenStoreWaiting: the retries of openStoreWaiting, with a stand-in for
// the store.
func TestOpenStoreWaiting(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	db := "postgres://u:p@127.0.0.1:1/x"
	openSQLite := func(ctx context.Context, _ string) (store.Store, string, error) {
		s, err := sqlite.Open(ctx, t.TempDir()+"/w.db")
		return s, "sqlite", err
	}
	t.Run("unavailable, then open", func(t *testing.T) {
		var attempts []time.Time
		open := func(ctx context.Context, db string) (store.Store, string, error) {
			attempts = append(attempts, time.Now())
			if len(attempts) < 3 {
				return nil, "postgres", errors.Join(errors.New("dial"), store.ErrUnavailable)
			}
			return openSQLite(ctx, db)
		}
		st, kind, err := openStoreWaiting(context.Background(), log, open, db, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		if kind != "postgres" || len(attempts) != 3 {
			t.Fatalf("kind %s after %d attempts", kind, len(attempts))
		}
		// 0.5 s, then 1 s: the backoff doubles.
		if d := attempts[1].Sub(attempts[0]); d < firstRetry {
			t.Errorf("first retry after %s", d)
		}
		if d := attempts[2].Sub(attempts[1]); d < 2*firstRetry {
			t.Errorf("second retry after %s", d)
		}
	})
	t.Run("other errors end it", func(t *testing.T) {
		n := 0
		open := func(context.Context, string) (store.Store, string, error) {
			n++
			return nil, "postgres", errors.New("password authentication failed")
		}
		if _, _, err := openStoreWaiting(context.Background(), log, open, db, time.Minute); err == nil || n != 1 {
			t.Fatalf("%v after %d attempts", err, n)
		}
	})
	t.Run("no wait: one attempt", func(t *testing.T) {
		n := 0
		open := func(context.Context, string) (store.Store, string, error) {
			n++
			return nil, "postgres", store.ErrUnavailable
		}
		if _, _, err := openStoreWaiting(context.Background(), log, open, db, 0); !errors.Is(err, store.ErrUnavailable) || n != 1 {
			t.Fatalf("%v after %d attempts", err, n)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		open := func(context.Context, string) (store.Store, string, error) {
			cancel()
			return nil, "postgres", store.ErrUnavailable
		}
		if _, _, err := openStoreWaiting(ctx, log, open, db, time.Minute); !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
	})
}

func TestRedactDB(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres://dsol:secret@db:5432/dsol?sslmode=disable", "postgres://dsol:xxxxx@db:5432/dsol?sslmode=disable"},
		{"postgresql://dsol@db/dsol", "postgresql://dsol@db/dsol"},
		{"postgres://db/dsol?password=secret&sslmode=disable", "postgres://db/dsol?password=xxxxx&sslmode=disable"},
		{"data/dsol.db", "data/dsol.db"},
	} {
		if got := redactDB(tc.in); got != tc.want {
			t.Errorf("redactDB(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
