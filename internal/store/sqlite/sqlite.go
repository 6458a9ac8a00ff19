// Package sqlite is the embedded store of dsol: one SQLite file in WAL mode,
// through the pure-Go driver modernc.org/sqlite.
//
// Writes go through a single connection whose transactions begin IMMEDIATE, so
// writers queue in Go instead of failing with SQLITE_BUSY on a lock upgrade;
// reads use a separate pool of query-only connections, which WAL lets run
// alongside the writer.
//
// Durability: the database runs with synchronous=FULL. In WAL mode NORMAL
// already survives a crash of the process (a committed transaction is in the WAL
// file, which the OS keeps), but not a power loss or a kernel crash: the last
// commits may be lost because the WAL is not fsynced on every commit. An
// acknowledged action must never be lost, and the group-commit writer
// (store.Committer) turns many actions into one transaction, so the fsync per
// commit that FULL costs is paid once per batch, not once per action.
//
// Times are stored as INTEGER microseconds since the Unix epoch and read back in
// UTC; JSON columns are TEXT.
//
// Each role of store.Store is in a file of its name, as in package postgres:
// players.go, devices.go, names.go, blocks.go, games.go, actions.go,
// ratings.go, stats.go, daily.go, winnable.go and retention.go; this file
// opens the database and holds its connections. The statements both
// adapters run as one text are in package stmt.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"dsol/internal/store"
	"dsol/migrations"
)

// busyTimeout is how long a connection waits for a lock held by another
// connection (or another process) before SQLITE_BUSY.
const busyTimeout = 10 * time.Second

// Store is the SQLite implementation of store.Store.
type Store struct {
	w *sql.DB // the single writer connection
	r *sql.DB // query-only reader pool

	// inserts holds the prepared INSERT statements of AppendActions, one
	// for each power of two of rows up to maxChunk, prepared on first use
	// (inserts[i] takes up to 1<<i rows). Preparing compiles the statistics
	// triggers into the statement, which costs far more than inserting a few
	// rows, so it is done once; and a statement of each size would hold
	// about 40 MB.
	insertsMu sync.Mutex
	inserts   [maxChunkLog + 1]*sql.Stmt

	// The checkpointer (checkpoint.go) and its connection.
	ckpt        *sql.DB
	wal         string        // the path of the WAL file
	written     atomic.Bool   // the action log was written since the last checkpoint
	walFull     chan struct{} // (1) wakes the checkpointer: the WAL is past walRestartBytes
	checkpoints checkpoints
	ckptStop    chan struct{}
	ckptDone    chan struct{}
	stopOnce    sync.Once
}

var _ store.Store = (*Store)(nil)

// dsn returns the data source name of the file at path: WAL, the busy timeout,
// synchronous=FULL and foreign keys on every connection; writers begin their
// transactions IMMEDIATE, checkpoint by themselves only past
// writerCheckpointPages of WAL, and cut a WAL file that grew past
// walRestartBytes back to that size when they start the WAL again
// (journal_size_limit); readers are query-only.
func dsn(path string, writer bool) (string, error) {
	if path == "" || strings.ContainsAny(path, "?#") || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return "", fmt.Errorf("sqlite: unsupported database path %q", path)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(busyTimeout.Milliseconds(), 10)+")")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(1)")
	if writer {
		q.Set("_txlock", "immediate")
		q.Add("_pragma", "wal_autocheckpoint("+strconv.Itoa(writerCheckpointPages)+")")
		q.Add("_pragma", "journal_size_limit("+strconv.Itoa(walRestartBytes)+")")
	} else {
		q.Add("_pragma", "query_only(1)")
	}
	return path + "?" + q.Encode(), nil
}

// Open opens (creating it if needed) the SQLite database at path, a plain file
// path, and brings its schema up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	wdsn, err := dsn(path, true)
	if err != nil {
		return nil, err
	}
	rdsn, err := dsn(path, false)
	if err != nil {
		return nil, err
	}
	w, err := sql.Open("sqlite", wdsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := migrations.Apply(ctx, w, migrations.SQLite); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", rdsn)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	r.SetConnMaxIdleTime(5 * time.Minute)
	ckpt, err := sql.Open("sqlite", wdsn)
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	ckpt.SetMaxOpenConns(1)
	ckpt.SetMaxIdleConns(1)
	ckpt.SetConnMaxLifetime(0)
	ckpt.SetConnMaxIdleTime(0)
	s := &Store{w: w, r: r, ckpt: ckpt, wal: path + "-wal", walFull: make(chan struct{}, 1),
		ckptStop: make(chan struct{}), ckptDone: make(chan struct{})}
	go s.checkpointer(ckpt)
	if err := s.Ping(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Migrate brings the schema of the SQLite database at path up to date (creating
// the file if needed), for `dsol migrate`. Open migrates too.
func Migrate(ctx context.Context, path string) error {
	s, err := Open(ctx, path)
	if err != nil {
		return err
	}
	return s.Close()
}

// Ping implements store.Store.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.r.PingContext(ctx); err != nil {
		return wrap("ping", err)
	}
	return nil
}

// Close implements store.Store. It checkpoints the WAL into the database file
// when it is the last connection.
func (s *Store) Close() error {
	s.stopOnce.Do(func() { close(s.ckptStop) })
	<-s.ckptDone
	errs := []error{s.ckpt.Close(), s.r.Close()}
	s.insertsMu.Lock()
	for _, st := range s.inserts {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	s.insertsMu.Unlock()
	return errors.Join(append(errs, s.w.Close())...)
}

// wrap maps SQLite errors onto the store's errors: constraint violations become
// store.ErrConflict (unique, primary key) or store.ErrNotFound (a foreign key:
// the game or player referred to does not exist), a database that stays locked
// past the busy timeout becomes store.ErrUnavailable.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("sqlite: %s: %w", op, store.ErrNotFound)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("sqlite: %s: %w: %w", op, store.ErrConflict, err)
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return fmt.Errorf("sqlite: %s: %w: %w", op, store.ErrNotFound, err)
		}
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL:
			return fmt.Errorf("sqlite: %s: %w: %w", op, store.ErrUnavailable, err)
		}
	}
	return fmt.Errorf("sqlite: %s: %w", op, err)
}

// micros and fromMicros convert times to and from their stored form.
func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// nullString stores "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// nullText stores JSON as TEXT, and nil or empty as NULL.
func nullText(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// nullBlob stores nil or empty as NULL.
func nullBlob(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

// emptyNil turns an empty byte slice read from a column into nil.
func emptyNil(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// affected maps an UPDATE that matched no row to store.ErrNotFound.
func affected(op string, res sql.Result, err error) error {
	if err != nil {
		return wrap(op, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return wrap(op, err)
	}
	if n == 0 {
		return fmt.Errorf("sqlite: %s: %w", op, store.ErrNotFound)
	}
	return nil
}

// querier is the reader pool, the writer or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}
