package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"dsol/internal/cli"
)

func noEnv(string) string { return "" }

// TestDealRace prints race deals exactly as the race package's golden files
// hold them.
func TestDealRace(t *testing.T) {
	for _, code := range []string{"DR1-D1UI-AAAAAAA", "DR1-D1SM-AAAAAAB", "dr1-d3si-helloxy"} {
		t.Run(code, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if err := run(context.Background(), []string{"deal", code}, noEnv, &out, &errOut); err != nil {
				t.Fatalf("%v (stderr %q)", err, errOut.String())
			}
			canon := []byte(code)
			canon = bytes.ToUpper(canon)
			want, err := os.ReadFile(filepath.Join("..", "..", "internal", "race", "testdata", "deal-"+string(canon)+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != string(want) {
				t.Fatalf("dsol deal %s:\n%s\nwant\n%s", code, out.String(), want)
			}
		})
	}
}

// TestDealRaceBadCode exits with a usage error naming what is wrong.
func TestDealRaceBadCode(t *testing.T) {
	for _, code := range []string{"DR1-D2UI-AAAAAAA", "DR1-D1XI-AAAAAAA", "DR1-D1UQ-AAAAAAA", "DR1-D1U-AAAAAAA", "DR1-D1UI-AAAA"} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), []string{"deal", code}, noEnv, &out, &errOut)
		var ue *cli.UsageError
		if !errors.As(err, &ue) || out.Len() != 0 {
			t.Errorf("%s: error %v, output %q; want a usage error and no output", code, err, out.String())
		}
	}
}
