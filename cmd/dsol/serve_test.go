package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/cli"
	"dsol/internal/game"
	"dsol/internal/testenv"
)

// server is a dsol serve run in the background.
type server struct {
	base   string
	cancel context.CancelFunc
	done   chan error
	logs   *testenv.Buffer
}

// mustServe starts run(serve) on a free port, checks /healthz and waits for
// /readyz (the store open and migrated).
func mustServe(tb testing.TB, env map[string]string, args ...string) *server {
	tb.Helper()
	s := startServe(tb, env, args...)
	res, err := http.Get(s.base + "/healthz")
	if err != nil || res.StatusCode != 200 {
		tb.Fatalf("healthz: %v %v", res, err)
	}
	res.Body.Close()
	s.waitReady(tb, 30*time.Second)
	return s
}

// startServe starts run(serve) on a free port and returns once it listens,
// the store perhaps not open yet; the test's end stops it.
func startServe(tb testing.TB, env map[string]string, args ...string) *server {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	ctx = withReady(ctx, func(a string) { addr <- a })
	s := &server{cancel: cancel, done: make(chan error, 1), logs: &testenv.Buffer{}}
	getenv := func(k string) string {
		if v, ok := env[k]; ok || k != "DSOL_ACCOUNTS_PER_HOUR" {
			return v
		}
		// unless asked for: no bound on the players created from one
		// address, which the tests create by the dozen from 127.0.0.1
		return "0"
	}
	go func() {
		s.done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), getenv, io.Discard, s.logs)
	}()
	select {
	case a := <-addr:
		s.base = "http://" + a
	case err := <-s.done:
		cancel()
		tb.Fatalf("serve ended before listening: %v\n%s", err, s.logs)
	}
	tb.Cleanup(func() { s.stop(tb) })
	return s
}

// waitReady polls /readyz until it answers 200, for at most limit.
func (s *server) waitReady(tb testing.TB, limit time.Duration) {
	tb.Helper()
	deadline := time.Now().Add(limit)
	for {
		res, err := http.Get(s.base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		if time.Now().After(deadline) {
			tb.Fatalf("/readyz not 200 after %s: %v %v\n%s", limit, res, err, s.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop cancels the run and checks that it shut down cleanly.
func (s *server) stop(tb testing.TB) {
	tb.Helper()
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	if err := <-s.done; err != nil {
		tb.Errorf("serve: %v\n%s", err, s.logs)
	}
	http.DefaultClient.CloseIdleConnections()
}

// client returns a client of the server with the Bearer token ("": none).
func (s *server) client(token string) *apitest.Client {
	return apitest.NewClient(s.base, nil, token)
}

// call sends a JSON request with the token ("": none) and decodes the answer.
func (s *server) call(tb testing.TB, method, path, token, body string, status int, out any) {
	tb.Helper()
	s.client(token).MustJSON(tb, method, path, body, status, out)
}

// metrics returns the server's /metrics.
func (s *server) metrics(tb testing.TB) string {
	tb.Helper()
	_, body := s.client("").Do(tb, "GET", "/metrics", nil)
	return string(body)
}

func TestServeRestartKeepsGames(t *testing.T) {
	for _, tc := range []struct {
		name string
		db   func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "g.db") }},
		{"plain path", func(t *testing.T) string { return filepath.Join(t.TempDir(), "g.db") }},
		{"postgres", func(t *testing.T) string { return testenv.PostgresSchemaURL(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"DATABASE_URL": tc.db(t), "DSOL_LOG_FORMAT": "text"}
			s := mustServe(t, env)
			var p struct{ Token string }
			s.call(t, "POST", "/api/v1/players", "", `{"name":"Ann"}`, 201, &p)
			var g struct {
				ID    string
				Seq   int64
				Stock int
			}
			s.call(t, "POST", "/api/v1/games", p.Token, `{"code":"DS1-D3N-AAAAAAB"}`, 201, &g)
			for range 3 {
				s.call(t, "POST", "/api/v1/games/"+g.ID+"/actions", p.Token, `{"action":{"type":"draw"}}`, 200, &g)
			}
			var before, after map[string]any
			s.call(t, "GET", "/api/v1/games/"+g.ID, p.Token, "", 200, &before)
			s.call(t, "GET", "/readyz", "", "", 200, nil)
			s.stop(t)
			if !strings.Contains(s.logs.String(), "msg=stopped") {
				t.Fatalf("no clean stop in the logs:\n%s", s.logs)
			}

			s2 := mustServe(t, env)
			s2.call(t, "GET", "/api/v1/games/"+g.ID, p.Token, "", 200, &after)
			if b, a := mustJSON(t, before), mustJSON(t, after); b != a || after["seq"] != float64(3) {
				t.Fatalf("after a restart:\n%s\nwant\n%s", a, b)
			}
		})
	}
}

func mustJSON(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func TestServeServesTheClient(t *testing.T) {
	s := mustServe(t, map[string]string{"DATABASE_URL": filepath.Join(t.TempDir(), "c.db")})
	res, err := http.Get(s.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(strings.ToLower(string(body)), "<!doctype html>") {
		t.Fatalf("GET /: %d %.80s", res.StatusCode, body)
	}
	s.call(t, "GET", "/api/v1/nothing", "", "", 404, nil)
}

// TestServeCapsHeaders: headers over 64 KiB get 431, as does a path over
// it; headers just under it are served.
func TestServeCapsHeaders(t *testing.T) {
	s := mustServe(t, map[string]string{"DATABASE_URL": filepath.Join(t.TempDir(), "h.db")})
	get := func(path string, pad int) int {
		t.Helper()
		conn, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(20 * time.Second))
		req := "GET " + path + " HTTP/1.1\r\nHost: dsol\r\nX-Pad: " + strings.Repeat("p", pad) + "\r\nConnection: close\r\n\r\n"
		go io.WriteString(conn, req) // the server may answer before it has read everything
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("GET %.40s with %d bytes of header: %v", path, pad, err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := get("/healthz", 60<<10); code != 200 {
		t.Fatalf("60 KiB of headers: %d, want 200", code)
	}
	if code := get("/healthz", 100<<10); code != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("100 KiB of headers: %d, want 431", code)
	}
	if code := get("/api/v1/codes/"+strings.Repeat("Z", 100<<10), 0); code != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("a 100 KiB path: %d, want 431", code)
	}
}

func TestServeConfig(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		env    map[string]string
		check  func(c serveConfig) bool
		failed bool
	}{
		{"defaults", nil, nil, func(c serveConfig) bool {
			return c.addr == ":8080" && c.db == "" && c.commitWindow == time.Millisecond && c.logFormat == "json" && c.grace == time.Minute
		}, false},
		{"grace", []string{"--grace", "90s"}, nil, func(c serveConfig) bool { return c.grace == 90*time.Second }, false},
		{"grace from env", nil, map[string]string{"DSOL_GRACE": "2m"}, func(c serveConfig) bool { return c.grace == 2*time.Minute }, false},
		{"bad grace", nil, map[string]string{"DSOL_GRACE": "soon"}, nil, true},
		{"env", nil, map[string]string{"DSOL_ADDR": ":9000", "DATABASE_URL": "postgres://x/y", "DSOL_COMMIT_WINDOW": "5ms",
			"DSOL_TRUSTED_PROXIES": "10.0.0.0/8, 192.168.1.1", "DSOL_ALLOWED_ORIGINS": "https://a.example"}, func(c serveConfig) bool {
			return c.addr == ":9000" && c.db == "postgres://x/y" && c.commitWindow.String() == "5ms" &&
				len(c.proxies) == 2 && c.proxies[1].String() == "192.168.1.1/32" && c.origins[0] == "https://a.example"
		}, false},
		{"flags win", []string{"--addr", ":7000", "--commit-window", "1ms"}, map[string]string{"DSOL_ADDR": ":9000"}, func(c serveConfig) bool {
			return c.addr == ":7000" && c.commitWindow.String() == "1ms"
		}, false},
		{"bad duration", nil, map[string]string{"DSOL_COMMIT_WINDOW": "soon"}, nil, true},
		{"bad proxy", []string{"--trusted-proxies", "example.com"}, nil, nil, true},
		{"bad log format", []string{"--log-format", "xml"}, nil, nil, true},
		{"stray argument", []string{"now"}, nil, nil, true},
		{"winnable defaults: no search", nil, nil, func(c serveConfig) bool {
			return c.winnableTarget == 0 && c.winnableBudget == 2000000 && c.winnableBeam == 500
		}, false},
		{"winnable search on", []string{"--winnable-target", "1500"}, nil, func(c serveConfig) bool {
			return c.winnableTarget == 1500 && c.winnableBudget == 2000000
		}, false},
		{"winnable off", []string{"--winnable-target", "0"}, map[string]string{"DSOL_WINNABLE_BUDGET": "5000"}, func(c serveConfig) bool {
			return c.winnableTarget == 0 && c.winnableBudget == 5000
		}, false},
		{"winnable depth first", []string{"--winnable-beam", "0"}, map[string]string{"DSOL_WINNABLE_BEAM": "2000"}, func(c serveConfig) bool {
			return c.winnableBeam == 0
		}, false},
		{"winnable beam from env", nil, map[string]string{"DSOL_WINNABLE_BEAM": "2000"}, func(c serveConfig) bool {
			return c.winnableBeam == 2000
		}, false},
		{"bad winnable target", []string{"--winnable-target", "-1"}, nil, nil, true},
		{"bad winnable beam", []string{"--winnable-beam", "-5"}, nil, nil, true},
		{"bad winnable budget", nil, map[string]string{"DSOL_WINNABLE_BUDGET": "lots"}, nil, true},
		{"names and accounts defaults", nil, nil, func(c serveConfig) bool {
			return c.reservedNames == nil && c.accountsPerHour == 30
		}, false},
		{"reserved names from env", nil, map[string]string{"DSOL_RESERVED_NAMES": "Admin, Moderator,,", "DSOL_ACCOUNTS_PER_HOUR": "0"}, func(c serveConfig) bool {
			return slices.Equal(c.reservedNames, []string{"Admin", "Moderator"}) && c.accountsPerHour == 0
		}, false},
		{"reserved names flag", []string{"--reserved-names", "Staff", "--accounts-per-hour", "100"}, map[string]string{"DSOL_RESERVED_NAMES": "Admin"}, func(c serveConfig) bool {
			return slices.Equal(c.reservedNames, []string{"Staff"}) && c.accountsPerHour == 100
		}, false},
		{"negative accounts per hour", []string{"--accounts-per-hour", "-1"}, nil, nil, true},
		{"bad accounts per hour", nil, map[string]string{"DSOL_ACCOUNTS_PER_HOUR": "many"}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseServe(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
			if tc.failed {
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			if err != nil || !tc.check(c) {
				t.Fatalf("config %+v, err %v", c, err)
			}
		})
	}
}

// TestServeRenamesReservedNames: a name stored before the operator
// reserved it is renamed at the next start, and its player told so; the
// reserved name and its look-alikes are refused from then on.
func TestServeRenamesReservedNames(t *testing.T) {
	db := filepath.Join(t.TempDir(), "n.db")
	s := mustServe(t, map[string]string{"DATABASE_URL": db})
	var p struct{ ID, Name, Token string }
	s.call(t, "POST", "/api/v1/players", "", `{"name":"Admin"}`, 201, &p)
	s.stop(t)

	s = mustServe(t, map[string]string{"DATABASE_URL": db, "DSOL_RESERVED_NAMES": "Admin,Moderator"})
	var me struct {
		Name    string
		Renamed *struct{ From string }
	}
	deadline := time.Now().Add(20 * time.Second)
	for s.call(t, "GET", "/api/v1/me", p.Token, "", 200, &me); me.Renamed == nil; s.call(t, "GET", "/api/v1/me", p.Token, "", 200, &me) {
		if time.Now().After(deadline) {
			t.Fatalf("not renamed after 20 s: %+v\n%s", me, s.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if me.Name != "Player "+p.ID[:4] || me.Renamed.From != "Admin" {
		t.Fatalf("me after the start: %+v, renamed %+v", me, me.Renamed)
	}
	if !strings.Contains(s.logs.String(), "stored names checked") {
		t.Errorf("no log of the check:\n%s", s.logs)
	}
	s.client("").MustError(t, "POST", "/api/v1/players", `{"name":"ＡＤＭＩＮ"}`, 400, game.BadRequest)
	s.client(p.Token).MustError(t, "PATCH", "/api/v1/me", `{"name":"Mоderator"}`, 400, game.BadRequest)
}

func TestDBTarget(t *testing.T) {
	for _, tc := range []struct{ in, kind, target string }{
		{"", "sqlite", "dsol.db"},
		{"sqlite:/tmp/x.db", "sqlite", "/tmp/x.db"},
		{"data/x.db", "sqlite", "data/x.db"},
		{"postgres://u@h/db", "postgres", "postgres://u@h/db"},
		{"postgresql://u@h/db?sslmode=disable", "postgres", "postgresql://u@h/db?sslmode=disable"},
	} {
		if k, tg := dbTarget(tc.in); k != tc.kind || tg != tc.target {
			t.Errorf("dbTarget(%q) = %s %s, want %s %s", tc.in, k, tg, tc.kind, tc.target)
		}
	}
}

func TestMigrate(t *testing.T) {
	var out bytes.Buffer
	db := filepath.Join(t.TempDir(), "m.db")
	if err := run(context.Background(), []string{"migrate", "--db", db}, func(string) string { return "" }, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "sqlite schema is up to date") {
		t.Fatalf("output %q", out.String())
	}
	var ue *cli.UsageError
	if err := run(context.Background(), []string{"migrate", "extra"}, func(string) string { return "" }, &out, io.Discard); !errors.As(err, &ue) {
		t.Fatalf("stray argument: %v", err)
	}
	t.Run("postgres", func(t *testing.T) {
		u := testenv.PostgresSchemaURL(t)
		out.Reset()
		getenv := func(k string) string {
			if k == "DATABASE_URL" {
				return u
			}
			return ""
		}
		if err := run(context.Background(), []string{"migrate"}, getenv, &out, io.Discard); err != nil || !strings.Contains(out.String(), "postgres schema is up to date") {
			t.Fatalf("postgres migrate: %v %q", err, out.String())
		}
	})
}
