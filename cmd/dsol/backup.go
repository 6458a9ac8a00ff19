package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"dsol/internal/cli"
	"dsol/internal/store/sqlite"
)

// The commands that back up and restore a PostgreSQL database of dsol (the
// docs/operations.md gives them too). The custom format is compressed, and pg_restore
// can restore it whole or in part; --no-owner lets the dump be restored as
// another role.
const (
	pgDumpLine    = `pg_dump --format=custom --no-owner --exclude-table-data='*.leases' "$DATABASE_URL" > dsol.dump`
	pgRestoreLine = `pg_restore --clean --if-exists --no-owner -d "$DATABASE_URL" dsol.dump`
)

// runBackup is dsol backup: a consistent copy of the SQLite database taken
// while the server runs, or, for PostgreSQL, pg_dump (run when it is on PATH,
// else printed, exit status 2).
func runBackup(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := addDBFlags(fs, getenv)
	out := fs.String("out", "", "file to write the backup to; an existing file is never overwritten")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return cli.Usagef("backup: %v", err)
	}
	if fs.NArg() > 0 {
		return cli.Usagef("backup takes no arguments, only --db and --out (got %q)", fs.Arg(0))
	}
	if *out == "" {
		return cli.Usagef("backup: --out FILE is required")
	}
	kind, target := dbTarget(*db)
	if kind == "postgres" {
		return backupPostgres(ctx, target, *out, getenv, stdout, stderr)
	}
	err := sqlite.Backup(ctx, target, *out)
	if errors.Is(err, sqlite.ErrExists) {
		return cli.Usagef("backup: %s exists; refusing to overwrite it", *out)
	}
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	size := int64(0)
	if st, err := os.Stat(*out); err == nil {
		size = st.Size()
	}
	fmt.Fprintf(stdout, "backup of %s written to %s (%d bytes)\n", target, *out, size)
	return nil
}

// runRestore is dsol restore: put a SQLite backup in place of the database
// (of no running server). PostgreSQL dumps are restored with pg_restore,
// which it prints.
func runRestore(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := addDBFlags(fs, getenv)
	from := fs.String("from", "", "the backup to restore (a file written by dsol backup)")
	force := fs.Bool("force", false, "replace the database when it exists (refused while a server has it open)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return cli.Usagef("restore: %v", err)
	}
	if fs.NArg() > 0 {
		return cli.Usagef("restore takes no arguments, only --db, --from and --force (got %q)", fs.Arg(0))
	}
	kind, target := dbTarget(*db)
	if kind == "postgres" {
		fmt.Fprintln(stdout, pgRestoreLine)
		return cli.Usagef("restore: PostgreSQL dumps are restored with pg_restore, as above, into a database no server is using")
	}
	if *from == "" {
		return cli.Usagef("restore: --from FILE is required")
	}
	err := sqlite.Restore(ctx, *from, target, *force)
	if errors.Is(err, sqlite.ErrExists) {
		return cli.Usagef("restore: %s exists; give --force to replace it (stop the server first)", target)
	}
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	fmt.Fprintf(stdout, "%s restored to %s; start the server on it: dsol serve --db %s\n", *from, target, target)
	return nil
}

// backupPostgres runs pg_dump (custom format) into out when pg_dump is on
// PATH; else it prints the pg_dump and pg_restore commands and fails with a
// usage error (exit status 2).
func backupPostgres(ctx context.Context, dbURL, out string, getenv func(string) string, stdout, stderr io.Writer) error {
	conn, password, schema, err := libpqURL(dbURL)
	if err != nil {
		return cli.Usagef("backup: %v", err)
	}
	// The game leases say which live node runs which game: restored, they
	// would keep the games from every node until they expired.
	dump := []string{"--format=custom", "--no-owner", "--exclude-table-data=*.leases"}
	if schema != "" {
		dump = append(dump, "--schema="+schema)
	}
	pgDump := lookPath(getenv("PATH"), "pg_dump")
	if pgDump == "" {
		line := pgDumpLine
		if schema != "" {
			line = strings.Replace(line, "--no-owner", "--no-owner --schema="+schema, 1)
		}
		fmt.Fprintf(stdout, "%s\n%s\n", line, pgRestoreLine)
		return cli.Usagef("backup: PostgreSQL backups are taken with pg_dump, which is not on PATH: install it (Debian: postgresql-client) or run the command above")
	}
	if _, err := os.Lstat(out); err == nil {
		return cli.Usagef("backup: %s exists; refusing to overwrite it", out)
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".partial-*")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer os.Remove(tmp.Name())
	cmd := exec.CommandContext(ctx, pgDump, append(dump, "--dbname="+conn)...)
	cmd.Stdout, cmd.Stderr = tmp, stderr
	cmd.Env = os.Environ()
	if password != "" {
		// Not on the command line, where any user could read it.
		cmd.Env = append(cmd.Env, "PGPASSWORD="+password)
	}
	err = cmd.Run()
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("backup: pg_dump: %w", err)
	}
	if err := linkNew(tmp.Name(), out); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	size := int64(0)
	if st, err := os.Stat(out); err == nil {
		size = st.Size()
	}
	fmt.Fprintf(stdout, "pg_dump backup written to %s (%d bytes, custom format); restore it with:\n%s\n",
		out, size, strings.Replace(pgRestoreLine, "dsol.dump", out, 1))
	return nil
}

// libpqKeys are the connection parameters libpq (and so pg_dump) reads from
// a URL; pgx takes others (pool settings, run-time parameters) that libpq
// refuses.
var libpqKeys = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true, "password": true,
	"passfile": true, "channel_binding": true, "connect_timeout": true, "client_encoding": true,
	"options": true, "application_name": true, "fallback_application_name": true,
	"keepalives": true, "keepalives_idle": true, "keepalives_interval": true, "keepalives_count": true,
	"tcp_user_timeout": true, "sslmode": true, "sslnegotiation": true, "sslcompression": true,
	"sslcert": true, "sslkey": true, "sslpassword": true, "sslcertmode": true, "sslrootcert": true,
	"sslcrl": true, "sslcrldir": true, "sslsni": true, "requirepeer": true,
	"ssl_min_protocol_version": true, "ssl_max_protocol_version": true, "gssencmode": true,
	"krbsrvname": true, "gsslib": true, "gssdelegation": true, "service": true,
	"target_session_attrs": true, "load_balance_hosts": true, "require_auth": true,
}

// libpqURL turns a --db URL into one libpq reads: the parameters only pgx
// knows are dropped, the password is taken out (to go to pg_dump through
// PGPASSWORD) and the first schema of search_path, where dsol's tables are,
// is returned for pg_dump --schema.
func libpqURL(dbURL string) (conn, password, schema string, err error) {
	u, err := url.Parse(dbURL)
	if err != nil {
		return "", "", "", errors.New("the database URL does not parse")
	}
	if u.User != nil {
		password, _ = u.User.Password()
		u.User = url.User(u.User.Username())
	}
	q := u.Query()
	for k := range q {
		switch {
		case k == "password":
			password = q.Get(k)
			q.Del(k)
		case k == "search_path":
			first, _, _ := strings.Cut(q.Get(k), ",")
			schema = strings.Trim(strings.TrimSpace(first), `"`)
			q.Del(k)
		case !libpqKeys[k]:
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), password, schema, nil
}

// lookPath finds an executable in a PATH list, "" when there is none.
func lookPath(path, name string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// linkNew gives the finished file tmp the name dst, which must not exist: a
// hard link, atomic (an existing dst makes it fail), else a rename after a
// check.
func linkNew(tmp, dst string) error {
	err := os.Link(tmp, dst)
	if errors.Is(err, os.ErrExist) {
		return cli.Usagef("%s exists; refusing to overwrite it", dst)
	}
	if err != nil {
		if _, serr := os.Lstat(dst); serr == nil {
			return cli.Usagef("%s exists; refusing to overwrite it", dst)
		}
		if err := os.Rename(tmp, dst); err != nil {
			return err
		}
	}
	d, err := os.Open(filepath.Dir(dst))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
