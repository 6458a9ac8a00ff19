package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"dsol/internal/cli"
	"dsol/internal/store/postgres"
	"dsol/internal/store/sqlite"
)

// runMigrate is dsol migrate: bring the schema of --db / DATABASE_URL up to
// date and exit (dsol serve migrates at start too).
func runMigrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := addDBFlags(fs, getenv)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return cli.Usagef("migrate: %v", err)
	}
	if fs.NArg() > 0 {
		return cli.Usagef("migrate takes no arguments, only --db (got %q)", fs.Arg(0))
	}
	kind, target := dbTarget(*db)
	var err error
	if kind == "postgres" {
		err = postgres.Migrate(ctx, target)
	} else {
		err = sqlite.Migrate(ctx, target)
	}
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	fmt.Fprintf(stdout, "%s schema is up to date\n", kind)
	return nil
}
