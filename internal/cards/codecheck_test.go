package cards

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// codeCase is one input of web/test/testdata/codes.json, the cases the web
// client's code check (web/js/code.js) is tested on: what ParseCode says of
// it.
type codeCase struct {
	Input string `json:"input"`
	Code  string `json:"code,omitempty"`  // canonical, when valid
	Kind  string `json:"kind,omitempty"`  // "solo" or "race", when valid
	Field string `json:"field,omitempty"` // the wrong part, when not
}

var codeInputs = []string{
	"DS1-D1N-AAAAAAB", " ds1-d3v-qwertyu\t", "DR1-D1UI-HELLOXY", "dr1-d3sm-abcdefg",
	"DS2-D1N-" + repeat("0", 64), "dr2-d3si-" + repeat("ab", 32), "DR2-D1UM-" + repeat("F", 64),
	"", "DS1", "DS1-D1N", "DS1-D1N-AAAAAAB-X", "DS3-D1N-AAAAAAB", "XX1-D1N-AAAAAAB",
	"DS1-D2N-AAAAAAB", "DS1-X1N-AAAAAAB", "DS1-D-AAAAAAB", "DS1-D1-AAAAAAB", "DS1-D1NN-AAAAAAB",
	"DR1-D1U-AAAAAAB", "DR1-D1UIX-AAAAAAB", "DS1-D1X-AAAAAAB", "DR1-D1XI-AAAAAAB", "DR1-D1UX-AAAAAAB",
	"DS1-D1N-AAAAAA", "DS1-D1N-AAAAAAAA", "DS1-D1N-AAAA1AA", "DS1-D1N-ſAAAAAA", "DS2-D1N-" + repeat("0", 63),
	"DS2-D1N-" + repeat("G", 64), "DR2-D3SM-AAAAAAB", "DS1-D1V-ZZZZZZZ", "DS1-D1N-AAAAAAB ",
	"DS1--AAAAAAB", "-D1N-AAAAAAB", "DS1-D1N-", "DR1-D3SM-QWERTYU",
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

// TestCodeGolden keeps web/test/testdata/codes.json what ParseCode says of
// its inputs (go test -update rewrites it).
func TestCodeGolden(t *testing.T) {
	var cases []codeCase
	seen := map[string]bool{}
	for _, in := range codeInputs {
		c := codeCase{Input: in}
		code, err := ParseCode(in)
		var ce *CodeError
		switch {
		case err == nil:
			c.Code, c.Kind = code.String(), code.Kind.String()
		case errors.As(err, &ce):
			if ce.Field == "" {
				t.Fatalf("%q: no field in %v", in, err)
			}
			c.Field = ce.Field
			seen[ce.Field] = true
		default:
			t.Fatalf("%q: %v", in, err)
		}
		cases = append(cases, c)
	}
	for _, f := range []string{"parts", "prefix", "draw", "options", "scoring", "redeal", "decks", "secret", "deal"} {
		if !seen[f] {
			t.Errorf("no case of a wrong %s", f)
		}
	}
	b, err := json.MarshalIndent(cases, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	const path = "../../web/test/testdata/codes.json"
	if *update {
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != string(b)+"\n" {
		t.Fatalf("%s is not what ParseCode says (%v): run go test ./internal/cards -run TestCodeGolden -update", path, err)
	}
}
