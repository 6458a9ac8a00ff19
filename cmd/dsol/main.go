// Command dsol is the Double Solitaire game server and its tools.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"dsol/internal/botduel"
	"dsol/internal/cli"
	"dsol/internal/hintrate"
	"dsol/internal/load"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var ue *cli.UsageError
		if errors.As(err, &ue) {
			fmt.Fprintln(os.Stderr, "dsol:", err)
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "dsol:", err)
		os.Exit(1)
	}
}

const usage = `usage: dsol <command> [arguments]

commands:
  serve [flags]   run the game server (dsol serve -h lists the flags)
  migrate [--db]  bring the database schema up to date
  deal <code>     print the full deal of a game code as JSON
  solve <code>    solve a solo deal with full information (dsol solve -h)
  hint-rate       the win rate of a player who always follows the hint (dsol hint-rate -h)
  bot-duel        races of the strong bot against the normal one (dsol bot-duel -h)
  winnable [flags] make the list of winnable deals of a mode (dsol winnable -h)
  load [flags]    play solo games against a server and report actions/s and latency (dsol load -h)
  backup [flags]  copy the database to --out FILE while the server runs (PostgreSQL: pg_dump)
  restore [flags] put the backup --from FILE in place of the SQLite database (stop the server first)
  version         print the version, the commit and the Go version of this build
  healthz [flags] exit 0 when the server's /healthz answers 200, else 1 (for container healthchecks)
`

// run is the whole program: main only wires it to the process.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return cli.Usagef("no command given")
	}
	switch args[0] {
	case "serve":
		return runServe(ctx, args[1:], getenv, stderr)
	case "migrate":
		return runMigrate(ctx, args[1:], getenv, stdout, stderr)
	case "deal":
		return runDeal(args[1:], stdout)
	case "load":
		return load.Run(ctx, args[1:], stdout, stderr)
	case "backup":
		return runBackup(ctx, args[1:], getenv, stdout, stderr)
	case "restore":
		return runRestore(ctx, args[1:], getenv, stdout, stderr)
	case "version":
		return runVersion(args[1:], stdout)
	case "healthz":
		return runHealthz(ctx, args[1:], getenv, stderr)
	case "solve":
		return runSolve(ctx, args[1:], stdout, stderr)
	case "hint-rate":
		return hintrate.Run(ctx, args[1:], stdout, stderr)
	case "bot-duel":
		return botduel.Run(ctx, args[1:], stdout, stderr)
	case "winnable":
		return runWinnable(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return cli.Usagef("unknown command %q", args[0])
}
