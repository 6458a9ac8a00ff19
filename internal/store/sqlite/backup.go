package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"dsol/internal/store"
)

// Errors of Backup and Restore.
var (
	// ErrExists means the file to write already exists: Backup never
	// overwrites one, Restore only when told to.
	ErrExists = errors.New("sqlite: the file exists")
	// ErrInUse means a server (or any other connection) has the database
	// open: Restore does not replace it under a running server.
	ErrInUse = errors.New("sqlite: the database is in use")
	// ErrNotBackup means the file given to Restore is not a dsol database
	// that can be restored as it is.
	ErrNotBackup = errors.New("sqlite: not a dsol backup")
)

// uri returns the SQLite URI of the file at path with SQLite's own query
// parameters (mode=ro, mode=rw...), so that opening it never creates it.
func uri(path, params string) string {
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return "file:" + r.Replace(path) + "?" + params
}

// Backup writes a consistent copy of the database at path to dst with VACUUM
// INTO: one read transaction, so the copy is the database as of one commit
// while writers go on (WAL lets them). The copy is a plain database file
// (rollback journal, no -wal to carry along) that Open opens and migrates
// like any other. Backup never overwrites dst (ErrExists): the copy is made
// under a temporary name in dst's directory, checked (PRAGMA quick_check),
// flushed to disk and only then linked to dst.
func Backup(ctx context.Context, path, dst string) error {
	if st, err := os.Stat(path); err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	} else if !st.Mode().IsRegular() {
		return fmt.Errorf("sqlite: backup: %s is not a regular file", path)
	}
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("sqlite: backup: %s: %w", dst, ErrExists)
	}
	// mode=rw: never create path; a read-write connection (that writes
	// nothing) removes the -wal and -shm files it made when it closes, where
	// a read-only one would leave them behind, owned by whoever ran this.
	db, err := sql.Open("sqlite", uri(path, "mode=rw&_pragma=busy_timeout(10000)"))
	if err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if err := isDsol(ctx, db); err != nil {
		return fmt.Errorf("sqlite: backup: %s: %w", path, err)
	}
	// VACUUM INTO writes into an empty file, which reserves the name.
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".partial-*")
	if err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, tmp.Name()); err != nil {
		return wrap("backup", err)
	}
	if err := db.Close(); err != nil {
		return wrap("backup", err)
	}
	if err := checkFile(ctx, tmp.Name()); err != nil {
		return fmt.Errorf("sqlite: backup: the copy: %w", err)
	}
	if err := syncFile(tmp.Name()); err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	return place(tmp.Name(), dst, false)
}

// Restore puts a copy of the backup src (a file written by Backup, or any
// dsol SQLite database closed cleanly) at path, for a server to open. The
// copy is made under a temporary name next to path, checked, flushed to disk
// and renamed into place, so path is at every moment the old database or the
// whole new one. When path exists Restore refuses (ErrExists) unless force is
// set; then it refuses (ErrInUse) while any connection has the database open,
// which a running server always has: stop the server first. The old
// database, and its -wal and -shm files, are gone once it returns.
func Restore(ctx context.Context, src, path string, force bool) error {
	if err := checkBackup(src); err != nil {
		return fmt.Errorf("sqlite: restore: %s: %w", src, err)
	}
	if same, err := sameFile(src, path); err != nil {
		return fmt.Errorf("sqlite: restore: %w", err)
	} else if same {
		return fmt.Errorf("sqlite: restore: %s is the backup itself", path)
	}
	_, err := os.Lstat(path)
	exists := err == nil
	if exists && !force {
		return fmt.Errorf("sqlite: restore: %s: %w", path, ErrExists)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".restore-*")
	if err != nil {
		return fmt.Errorf("sqlite: restore: %w", err)
	}
	defer os.Remove(tmp.Name())
	err = copyInto(tmp, src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sqlite: restore: %w", err)
	}
	if err := checkFile(ctx, tmp.Name()); err != nil {
		return fmt.Errorf("sqlite: restore: %s: %w", src, err)
	}
	if exists {
		if err := release(ctx, path); err != nil {
			return fmt.Errorf("sqlite: restore: %s: %w", path, err)
		}
		// The new file gets the old one's permissions (the copy was
		// created private to whoever runs this).
		if st, err := os.Stat(path); err == nil {
			if err := os.Chmod(tmp.Name(), st.Mode().Perm()); err != nil {
				return fmt.Errorf("sqlite: restore: %w", err)
			}
		}
	}
	return place(tmp.Name(), path, exists)
}

// isDsol checks that db holds dsol's schema (its migrations ran).
func isDsol(ctx context.Context, db *sql.DB) error {
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema
		WHERE type = 'table' AND name IN ('goose_db_version', 'games', 'actions', 'players')`).Scan(&n)
	if err != nil {
		return wrap("schema", err)
	}
	if n != 4 {
		return fmt.Errorf("%w: no dsol tables in it", ErrNotBackup)
	}
	return nil
}

// checkFile opens the database file at path read-only, runs PRAGMA
// quick_check and checks it holds dsol's schema. path is a file of our own
// that nothing else opens: the -wal and -shm files a read-only connection
// leaves behind for a database in WAL mode (one closed cleanly) are removed.
func checkFile(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", uri(path, "mode=ro"))
	if err != nil {
		return err
	}
	defer func() {
		db.Close()
		os.Remove(path + "-wal")
		os.Remove(path + "-shm")
	}()
	var res string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&res); err != nil {
		return fmt.Errorf("%w: %w", ErrNotBackup, wrap("quick check", err))
	}
	if res != "ok" {
		return fmt.Errorf("%w: quick check: %s", ErrNotBackup, res)
	}
	return isDsol(ctx, db)
}

// checkBackup checks that src can be restored by copying the file alone: a
// regular file with no write-ahead log beside it (that would hold commits the
// file itself lacks: a database in use or not closed cleanly, not a backup).
// Its content is checked on the copy, so that src is never opened as a
// database.
func checkBackup(src string) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%w: not a regular file", ErrNotBackup)
	}
	if wal, err := os.Stat(src + "-wal"); err == nil && wal.Size() > 0 {
		return fmt.Errorf("%w: it has a write-ahead log (%s-wal): it is a database in use or not closed cleanly; take a backup of it with dsol backup", ErrNotBackup, src)
	}
	return nil
}

// release makes sure nothing has the database at path open and leaves it
// with no -wal or -shm file: switching a WAL database back to a rollback
// journal needs every other connection closed, checkpoints the log and
// removes it. A file that is not a database at all is not replaced.
func release(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", uri(path, "mode=rw&_pragma=busy_timeout(0)"))
	if err != nil {
		return err
	}
	defer db.Close()
	var mode string
	err = db.QueryRowContext(ctx, `PRAGMA journal_mode = DELETE`).Scan(&mode)
	if err != nil {
		if errors.Is(wrap("", err), store.ErrUnavailable) {
			return fmt.Errorf("%w: stop the server that has it open first", ErrInUse)
		}
		return wrap("journal mode", err)
	}
	if mode != "delete" {
		return fmt.Errorf("%w: stop the server that has it open first (journal mode stays %q)", ErrInUse, mode)
	}
	if err := db.Close(); err != nil {
		return wrap("close", err)
	}
	for _, f := range []string{path + "-wal", path + "-shm", path + "-journal"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// place gives the finished file tmp its name dst: by a hard link when dst
// must not exist (atomic: an existing dst makes it fail), else by a rename
// over dst; then it flushes the directory.
func place(tmp, dst string, replace bool) error {
	if replace {
		if err := os.Rename(tmp, dst); err != nil {
			return err
		}
		return syncDir(filepath.Dir(dst))
	}
	if err := os.Link(tmp, dst); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("sqlite: %s: %w", dst, ErrExists)
		}
		// No hard links on this file system: check, then rename.
		if _, serr := os.Lstat(dst); serr == nil {
			return fmt.Errorf("sqlite: %s: %w", dst, ErrExists)
		}
		if err := os.Rename(tmp, dst); err != nil {
			return err
		}
	}
	return syncDir(filepath.Dir(dst))
}

// copyInto copies the file at src into f and flushes f to disk.
func copyInto(f *os.File, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if _, err := io.Copy(f, in); err != nil {
		return err
	}
	return f.Sync()
}

// sameFile reports whether a and b name the same existing file.
func sameFile(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	return errors.Join(err, d.Close())
}
