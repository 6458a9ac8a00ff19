package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"dsol/internal/cli"
)

// TestToolDispatch: each tool that lives in a package of its own is reached
// by its subcommand: -h prints its usage and is no error, and a wrong flag
// is a usage error, which exits with status 2.
func TestToolDispatch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		usage string // the start of its -h
		bad   []string
	}{
		{"hint-rate", "usage: dsol hint-rate --sample N", []string{"--draw", "2"}},
		{"bot-duel", "usage: dsol bot-duel --races N", []string{"--races", "3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if err := run(context.Background(), []string{tc.name, "-h"}, noEnv, &out, &errOut); err != nil {
				t.Fatalf("-h: %v", err)
			}
			if !strings.HasPrefix(errOut.String(), tc.usage) || out.Len() != 0 {
				t.Errorf("-h printed %q and %q, want the usage on stderr", out.String(), errOut.String())
			}
			var ue *cli.UsageError
			if err := run(context.Background(), append([]string{tc.name}, tc.bad...), noEnv, &out, &errOut); !errors.As(err, &ue) {
				t.Errorf("%q: %v, want a usage error", tc.bad, err)
			}
		})
	}
}
