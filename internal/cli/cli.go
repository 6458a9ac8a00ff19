// Package cli holds what the subcommands of dsol share on the command line:
// the flag set whose -h prints the usage, the usage error (exit status 2),
// a list given in one flag, and whether a progress line has a terminal.
package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// UsageError is a mistake in the command line or its arguments: the command
// exits with status 2.
type UsageError struct{ msg string }

// Error returns the mistake as the command prints it.
func (e *UsageError) Error() string { return e.msg }

// Usagef returns a *UsageError with the formatted message.
func Usagef(format string, args ...any) error {
	return &UsageError{fmt.Sprintf(format, args...)}
}

// NewFlags returns the flag set of a subcommand: it writes to stderr, and
// -h prints usage and then the flags' defaults (Parse then returns
// flag.ErrHelp).
func NewFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}

// SplitList splits a comma-separated list, dropping blanks.
func SplitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// IsTerminal reports whether w is a terminal (for a progress line).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
