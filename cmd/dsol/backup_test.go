package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/apitest"
	"dsol/internal/cli"
	"dsol/internal/testenv"
)

// viewer is a game as one player sees it.
type viewer struct{ name, game, token string }

// fetch sends a request without failing the test (for goroutines).
func fetch(base, method, path, token, body string) (int, []byte, error) {
	return apitest.NewClient(base, nil, token).Request(context.Background(), method, path, body)
}

// viewAt reads a player's view of a game: its seq and its JSON without the
// fields that tell the time of the request rather than the game (when a
// player away may be claimed against, a turn's deadline).
func viewAt(base string, v viewer) (int64, string, error) {
	status, raw, err := fetch(base, "GET", "/api/v1/games/"+v.game, v.token, "")
	if err != nil {
		return 0, "", err
	}
	if status != 200 {
		return 0, "", fmt.Errorf("GET %s as %s: %d %s", v.game, v.name, status, raw)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return 0, "", err
	}
	delete(m, "claimAt")
	delete(m, "turnDeadline")
	if seats, ok := m["seats"].([]any); ok {
		for _, seat := range seats {
			if seat, ok := seat.(map[string]any); ok {
				delete(seat, "claimAt")
			}
		}
	}
	seq, _ := m["seq"].(float64)
	b, err := json.Marshal(m)
	return int64(seq), string(b), err
}

// history holds every view each viewer had, by seq.
type history struct {
	mu    sync.Mutex
	views map[viewer]map[int64]string
}

func (h *history) record(base string, vs ...viewer) error {
	for _, v := range vs {
		seq, view, err := viewAt(base, v)
		if err != nil {
			return err
		}
		h.mu.Lock()
		if h.views[v] == nil {
			h.views[v] = map[int64]string{}
		}
		h.views[v][seq] = view
		h.mu.Unlock()
	}
	return nil
}

// last returns the highest seq seen by v.
func (h *history) last(v viewer) int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := int64(-1)
	for seq := range h.views[v] {
		n = max(n, seq)
	}
	return n
}

// backupRoundTrip plays on a server over db (players, a solo game, a race,
// a race waiting in the lobby), takes `dsol backup` into a file while a
// writer keeps playing, calls live (the server still running), stops the
// server, has restore put the backup into a new database, serves that, and
// checks that every player's view of every game is one they had, no older
// than when the backup began, that the tokens still work, that a game made
// after the backup is not there, and that play goes on.
func backupRoundTrip(t *testing.T, db string, live func(t *testing.T, out string), restore func(t *testing.T, out string) string) {
	env := map[string]string{
		"DATABASE_URL": db, "DSOL_LOG_FORMAT": "text", "PATH": os.Getenv("PATH"),
		"DSOL_WRITE_RATE": "10000", "DSOL_WRITE_BURST": "10000",
	}
	s := mustServe(t, env)
	var ann, bob, cid struct{ Name, Token string }
	s.call(t, "POST", "/api/v1/players", "", `{"name":"Ann"}`, 201, &ann)
	s.call(t, "POST", "/api/v1/players", "", `{"name":"Bob"}`, 201, &bob)
	s.call(t, "POST", "/api/v1/players", "", `{"name":"Cid"}`, 201, &cid)
	var solo, race, waiting struct{ ID, Invite string }
	s.call(t, "POST", "/api/v1/games", ann.Token, `{"code":"DS1-D3N-AAAAAAB"}`, 201, &solo)
	s.call(t, "POST", "/api/v1/races", ann.Token, `{"draw":1,"public":false}`, 201, &race)
	s.call(t, "POST", "/api/v1/races/"+race.ID+"/join", bob.Token, `{"invite":"`+race.Invite+`"}`, 200, nil)
	s.call(t, "POST", "/api/v1/races", cid.Token, `{"draw":3,"public":true}`, 201, &waiting)
	draw := `{"action":{"type":"draw"}}`
	for range 3 {
		s.call(t, "POST", "/api/v1/games/"+solo.ID+"/actions", ann.Token, draw, 200, nil)
		s.call(t, "POST", "/api/v1/games/"+race.ID+"/actions", ann.Token, draw, 200, nil)
		s.call(t, "POST", "/api/v1/games/"+race.ID+"/actions", bob.Token, draw, 200, nil)
	}
	soloAnn := viewer{"Ann", solo.ID, ann.Token}
	raceAnn, raceBob := viewer{"Ann", race.ID, ann.Token}, viewer{"Bob", race.ID, bob.Token}
	viewers := []viewer{soloAnn, raceAnn, raceBob, {"Cid", waiting.ID, cid.Token}}
	h := &history{views: map[viewer]map[int64]string{}}
	if err := h.record(s.base, viewers...); err != nil {
		t.Fatal(err)
	}

	// The writer plays on (the solo game, and the race for both players in
	// turn: draws, and a recycle when the stock is out) and records every
	// view it leads to: it is the only writer, so what it reads after an
	// action is the view at that action.
	stop := make(chan struct{})
	done := make(chan error, 1)
	var writes atomic.Int64
	go func() {
		done <- func() error {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return nil
				default:
				}
				game, token, seen := solo.ID, ann.Token, []viewer{soloAnn}
				switch i % 3 {
				case 1:
					game, token, seen = race.ID, ann.Token, []viewer{raceAnn, raceBob}
				case 2:
					game, token, seen = race.ID, bob.Token, []viewer{raceAnn, raceBob}
				}
				status, raw, err := fetch(s.base, "POST", "/api/v1/games/"+game+"/actions", token, draw)
				if err == nil && status == 422 && strings.Contains(string(raw), "recycle") { // the stock is empty
					status, raw, err = fetch(s.base, "POST", "/api/v1/games/"+game+"/actions", token, `{"action":{"type":"recycle"}}`)
				}
				if err != nil || status != 200 {
					return fmt.Errorf("writer: draw in %s: %d %s %v", game, status, raw, err)
				}
				if err := h.record(s.base, seen...); err != nil {
					return err
				}
				writes.Add(1)
			}
		}()
	}()
	waitWrites := func(n int64) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for writes.Load() < n {
			if time.Now().After(deadline) {
				close(stop)
				t.Fatalf("the writer made %d writes in 30 s, want %d: %v", writes.Load(), n, <-done)
			}
			time.Sleep(time.Millisecond)
		}
	}
	waitWrites(6)
	startSeq := map[viewer]int64{}
	for _, v := range viewers {
		startSeq[v] = h.last(v)
	}
	startWrites := writes.Load()
	out := filepath.Join(t.TempDir(), "dsol.backup")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"backup", "--db", db, "--out", out}, func(k string) string { return env[k] }, &stdout, &stderr); err != nil {
		close(stop)
		t.Fatalf("dsol backup: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	during := writes.Load() - startWrites
	waitWrites(writes.Load() + 6)
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	t.Logf("dsol backup: %s (%d writes while it ran)", strings.TrimSpace(stdout.String()), during)
	endSeq := map[viewer]int64{}
	for _, v := range viewers {
		endSeq[v] = h.last(v)
	}
	var late struct{ ID string }
	s.call(t, "POST", "/api/v1/games", cid.Token, `{"draw":1}`, 201, &late)

	// A second backup into the same file is refused.
	err := run(context.Background(), []string{"backup", "--db", db, "--out", out}, func(k string) string { return env[k] }, io.Discard, io.Discard)
	var ue *cli.UsageError
	if !errors.As(err, &ue) {
		t.Fatalf("a backup onto an existing file: %v, want a usage error", err)
	}
	if live != nil {
		live(t, out)
	}
	s.stop(t)

	restored := restore(t, out)
	env["DATABASE_URL"] = restored
	s2 := mustServe(t, env)
	for _, v := range viewers {
		seq, view, err := viewAt(s2.base, v)
		if err != nil {
			t.Fatalf("after the restore: %v", err)
		}
		if seq < startSeq[v] || seq > endSeq[v] {
			t.Errorf("%s's view of %s after the restore is at seq %d, want %d to %d (from the start of the backup to its end)",
				v.name, v.game, seq, startSeq[v], endSeq[v])
			continue
		}
		h.mu.Lock()
		want, ok := h.views[v][seq]
		h.mu.Unlock()
		if !ok || view != want {
			t.Errorf("%s's view of %s at seq %d after the restore:\n%s\nwant (as the server showed it then)\n%s", v.name, v.game, seq, view, want)
		}
		t.Logf("%s's view of %s: seq %d restored (%d when the backup began, %d at the end)", v.name, v.game, seq, startSeq[v], endSeq[v])
	}
	for _, p := range []struct{ Name, Token string }{ann, bob, cid} {
		var me struct{ Name string }
		s2.call(t, "GET", "/api/v1/me", p.Token, "", 200, &me)
		if me.Name != p.Name {
			t.Errorf("token of %s: GET /me says %q", p.Name, me.Name)
		}
	}
	s2.call(t, "GET", "/api/v1/games/"+late.ID, cid.Token, "", 404, nil)
	seq, _, err := viewAt(s2.base, soloAnn)
	if err != nil {
		t.Fatal(err)
	}
	var next struct{ Seq int64 }
	s2.call(t, "POST", "/api/v1/games/"+solo.ID+"/actions", ann.Token, draw, 200, &next)
	if next.Seq != seq+1 {
		t.Fatalf("a draw after the restore is at seq %d, want %d", next.Seq, seq+1)
	}
}

// TestBackupRestoreSQLite: dsol backup copies a running server's SQLite
// database; dsol restore puts the copy in place of no running server's.
func TestBackupRestoreSQLite(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "live.db")
	backupRoundTrip(t, db, func(t *testing.T, out string) {
		// The server has its database open: no restore over it.
		err := run(context.Background(), []string{"restore", "--db", db, "--from", out, "--force"}, noEnv, io.Discard, io.Discard)
		var ue *cli.UsageError
		if err == nil || errors.As(err, &ue) || !strings.Contains(err.Error(), "in use") {
			t.Fatalf("restore over a running server's database: %v, want an error saying it is in use", err)
		}
	}, func(t *testing.T, out string) string {
		restored := filepath.Join(dir, "restored.db")
		var stdout bytes.Buffer
		if err := run(context.Background(), []string{"restore", "--db", "sqlite:" + restored, "--from", out}, noEnv, &stdout, io.Discard); err != nil {
			t.Fatalf("dsol restore: %v", err)
		}
		t.Logf("dsol restore: %s", strings.TrimSpace(stdout.String()))
		err := run(context.Background(), []string{"restore", "--db", restored, "--from", out}, noEnv, io.Discard, io.Discard)
		var ue *cli.UsageError
		if !errors.As(err, &ue) {
			t.Fatalf("restore onto an existing database without --force: %v, want a usage error", err)
		}
		return restored
	})
}

// needTool returns the path of a program the test needs, or skips it (fails
// it under DSOL_REQUIRE_ALL).
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		msg := name + " is not installed (Debian: apt-get install postgresql-client)"
		if testenv.RequireAll() {
			t.Fatal(msg + " (DSOL_REQUIRE_ALL is set, so this is a failure, not a skip)")
		}
		t.Skip(msg + "; skipping")
	}
	return p
}

// newDatabase creates a database of its own on the test server, dropped
// when the test ends, and returns its URL.
func newDatabase(t *testing.T, base, name string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("connect to drop database %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// TestBackupRestorePostgres: dsol backup runs pg_dump on a running server's
// database; pg_restore, as docs/operations.md says, puts it into a fresh database
// that a server then serves.
func TestBackupRestorePostgres(t *testing.T) {
	base := testenv.PostgresURL(t)
	needTool(t, "pg_dump")
	pgRestore := needTool(t, "pg_restore")
	b := make([]byte, 4)
	rand.Read(b)
	name := "dsol_backup_test_" + hex.EncodeToString(b)
	db := newDatabase(t, base, name)
	backupRoundTrip(t, db, nil, func(t *testing.T, out string) string {
		restored := newDatabase(t, base, name+"_restored")
		// The line of docs/operations.md: pg_restore --clean --if-exists --no-owner -d "$DATABASE_URL" dsol.dump
		cmd := exec.Command(pgRestore, "--clean", "--if-exists", "--no-owner", "-d", restored, out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pg_restore: %v\n%s", err, msg)
		}
		return restored
	})
}

// TestBackupPostgresWithoutPgDump: with no pg_dump on PATH, dsol backup
// prints the pg_dump and pg_restore lines, never the password, and exits 2.
func TestBackupPostgresWithoutPgDump(t *testing.T) {
	env := map[string]string{"PATH": t.TempDir()}
	var stdout bytes.Buffer
	out := filepath.Join(t.TempDir(), "dsol.dump")
	err := run(context.Background(), []string{"backup", "--db", "postgres://dsol:s3cret@db.example/dsol?search_path=games&pool_max_conns=4", "--out", out},
		func(k string) string { return env[k] }, &stdout, io.Discard)
	var ue *cli.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "pg_dump") {
		t.Fatalf("backup without pg_dump: %v, want a usage error about pg_dump", err)
	}
	want := `pg_dump --format=custom --no-owner --schema=games --exclude-table-data='*.leases' "$DATABASE_URL" > dsol.dump` + "\n" + pgRestoreLine + "\n"
	if stdout.String() != want {
		t.Fatalf("printed:\n%s\nwant\n%s", stdout.String(), want)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a file was made: %v", err)
	}

	stdout.Reset()
	err = run(context.Background(), []string{"restore", "--db", "postgres://dsol@db.example/dsol", "--from", out}, noEnv, &stdout, io.Discard)
	if !errors.As(err, &ue) || stdout.String() != pgRestoreLine+"\n" {
		t.Fatalf("restore on PostgreSQL: %v, printed %q; want a usage error and the pg_restore line", err, stdout.String())
	}
}

func TestLibpqURL(t *testing.T) {
	for _, tc := range []struct{ in, conn, password, schema string }{
		{"postgres://u:p@h:5433/db?sslmode=disable", "postgres://u@h:5433/db?sslmode=disable", "p", ""},
		{"postgresql://u@h/db?search_path=s1,public&pool_max_conns=8&application_name=x", "postgresql://u@h/db?application_name=x", "", "s1"},
		{"postgres:///db?host=/run/postgresql&password=pw", "postgres:///db?host=%2Frun%2Fpostgresql", "pw", ""},
	} {
		conn, password, schema, err := libpqURL(tc.in)
		if err != nil || conn != tc.conn || password != tc.password || schema != tc.schema {
			t.Errorf("libpqURL(%q) = %q %q %q %v; want %q %q %q", tc.in, conn, password, schema, err, tc.conn, tc.password, tc.schema)
		}
	}
}

func TestBackupUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"backup"},
		{"backup", "--db", filepath.Join(dir, "x.db"), "extra"},
		{"restore", "--db", filepath.Join(dir, "x.db")},
		{"backup", "--bogus"},
	} {
		err := run(context.Background(), args, noEnv, io.Discard, io.Discard)
		var ue *cli.UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	// A database that does not exist is not backed up, nor created.
	missing := filepath.Join(dir, "missing.db")
	if err := run(context.Background(), []string{"backup", "--db", missing, "--out", filepath.Join(dir, "out.db")}, noEnv, io.Discard, io.Discard); err == nil {
		t.Fatal("backup of a missing database succeeded")
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Fatalf("files made by a failed backup: %v", es)
	}
}
