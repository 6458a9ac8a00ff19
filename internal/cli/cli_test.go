package cli

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestUsagef: the error is a *UsageError that says the formatted message,
// and stays one when wrapped.
func TestUsagef(t *testing.T) {
	err := Usagef("load: --clients %d: want 1 to 10000", 0)
	var ue *UsageError
	if !errors.As(err, &ue) || err.Error() != "load: --clients 0: want 1 to 10000" {
		t.Fatalf("%v (%T)", err, err)
	}
	if w := errors.Join(errors.New("other"), err); !errors.As(w, &ue) {
		t.Fatalf("wrapped: %v is no usage error", w)
	}
	if errors.As(errors.New("load: no server"), &ue) {
		t.Fatal("a plain error taken for a usage error")
	}
}

// TestNewFlags: -h prints the usage and then the defaults to the given
// writer and gives flag.ErrHelp; a wrong flag says so there too.
func TestNewFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want error
	}{
		{"help", []string{"-h"}, flag.ErrHelp},
		{"long help", []string{"--help"}, flag.ErrHelp},
		{"unknown flag", []string{"--bogus"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			fs := NewFlags("tool", "usage: dsol tool [flags]\n\nflags:\n", &out)
			fs.Int("n", 3, "how many")
			err := fs.Parse(tc.args)
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("Parse(%q) = %v, want %v", tc.args, err, tc.want)
			}
			want := "usage: dsol tool [flags]\n\nflags:\n  -n int\n    \thow many (default 3)\n"
			if tc.want == nil {
				want = "flag provided but not defined: -bogus\n" + want
			}
			if out.String() != want {
				t.Errorf("printed %q, want %q", out.String(), want)
			}
		})
	}
}

// TestSplitList drops blanks and spaces around the items.
func TestSplitList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{" , ,", nil},
		{"1234", []string{"1234"}},
		{" 12, 40 ,,7 ", []string{"12", "40", "7"}},
	} {
		if got := SplitList(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("SplitList(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestIsTerminal: neither a buffer nor a regular file is a terminal.
func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(&bytes.Buffer{}) || IsTerminal(f) {
		t.Fatal("a buffer or a file taken for a terminal")
	}
}
