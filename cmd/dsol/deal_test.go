package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"dsol/internal/cli"
)

// TestDealSolo prints solo and race deals, DS1/DR1 and secret DS2/DR2, byte
// for byte as the solo and race packages' golden files hold them (written by
// independent implementations of the deals).
func TestDealSolo(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "internal", "solo", "testdata", "DS?-*.json"))
	race, err2 := filepath.Glob(filepath.Join("..", "..", "internal", "race", "testdata", "deal-DR?-*.json"))
	if err != nil || err2 != nil || len(files) < 7 || len(race) < 8 {
		t.Fatalf("golden deals: %d solo, %d race files, %v %v", len(files), len(race), err, err2)
	}
	for _, file := range append(files, race...) {
		code := strings.TrimPrefix(strings.TrimSuffix(filepath.Base(file), ".json"), "deal-")
		for _, arg := range []string{code, strings.ToLower(code)} {
			t.Run(arg, func(t *testing.T) {
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				var out, errOut bytes.Buffer
				if err := run(context.Background(), []string{"deal", arg}, noEnv, &out, &errOut); err != nil {
					t.Fatalf("%v (stderr %q)", err, errOut.String())
				}
				if out.String() != string(want) {
					t.Fatalf("dsol deal %s:\n%s\nwant\n%s", arg, out.String(), want)
				}
			})
		}
	}
}

// TestDealSoloBadCode: a usage error that names the wrong part, and no output.
func TestDealSoloBadCode(t *testing.T) {
	for code, part := range map[string]string{
		"XS1-D1N-AAAAAAA":  "prefix",
		"DS1-D2N-AAAAAAA":  "draw",
		"DS1-D1X-AAAAAAA":  "scoring",
		"DS1-D1NV-AAAAAAA": "options",
		"DS1-D1N-AAAAAA":   "deal",
		"DS1-D1N-AAAAAA7":  "deal",
		"DS1-D1N":          "three parts",
	} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), []string{"deal", code}, noEnv, &out, &errOut)
		var ue *cli.UsageError
		if !errors.As(err, &ue) || out.Len() != 0 || !strings.Contains(err.Error(), part) {
			t.Errorf("%s: error %v, output %q; want a usage error naming %q", code, err, out.String(), part)
		}
	}
	for _, args := range [][]string{{"deal"}, {"deal", "DS1-D1N-AAAAAAA", "DS1-D1N-AAAAAAB"}} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), args, noEnv, &out, &errOut)
		var ue *cli.UsageError
		if !errors.As(err, &ue) || out.Len() != 0 {
			t.Errorf("%q: error %v; want a usage error", args, err)
		}
	}
}

// TestDealExitStatus runs the real program: exit 2 and a message on stderr
// naming the bad part; exit 0 and the deal on stdout for a good code.
func TestDealExitStatus(t *testing.T) {
	if os.Getenv("DSOL_TEST_RUN_MAIN") == "1" {
		os.Args = append([]string{"dsol"}, strings.Fields(os.Getenv("DSOL_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	runMain := func(args string) (stdout, stderr string, code int) {
		cmd := exec.Command(exe, "-test.run=^TestDealExitStatus$")
		cmd.Env = append(os.Environ(), "DSOL_TEST_RUN_MAIN=1", "DSOL_TEST_ARGS="+args)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return o.String(), e.String(), ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return o.String(), e.String(), 0
	}
	out, errOut, code := runMain("deal DS1-D3Q-AAAAAAB")
	if code != 2 || out != "" || !strings.Contains(errOut, "scoring") {
		t.Errorf("bad code: exit %d, stdout %q, stderr %q; want 2 and a message naming the scoring", code, out, errOut)
	}
	out, errOut, code = runMain("deal DS1-D1N-AAAAAAA")
	want, err := os.ReadFile(filepath.Join("..", "..", "internal", "solo", "testdata", "DS1-D1N-AAAAAAA.json"))
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || !strings.HasPrefix(out, string(want)) {
		t.Errorf("good code: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
