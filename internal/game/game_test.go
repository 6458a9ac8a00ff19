package game

import (
	"errors"
	"go/build"
	"strings"
	"testing"
)

// TestLeaf keeps the vocabulary a leaf that every layer may import: it
// imports nothing of dsol.
func TestLeaf(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range p.Imports {
		if strings.HasPrefix(imp, "dsol/") {
			t.Errorf("package game imports %s", imp)
		}
	}
}

func TestRaceOptionsCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    RaceOptions
		ok   bool
	}{
		{"defaults", RaceOptions{Series: 1}, true},
		{"alternating clock", RaceOptions{Turns: Alternating, First: FirstCreator, Series: MaxSeries, TurnSeconds: MinTurnSeconds}, true},
		{"no series", RaceOptions{}, false},
		{"long series", RaceOptions{Series: MaxSeries + 1}, false},
		{"sideways", RaceOptions{Turns: "sideways", Series: 1}, false},
		{"first me", RaceOptions{First: "me", Series: 1}, false},
		{"clock simultaneous", RaceOptions{Turns: Simultaneous, Series: 1, TurnSeconds: 30}, false},
		{"clock short", RaceOptions{Turns: Alternating, Series: 1, TurnSeconds: MinTurnSeconds - 1}, false},
		{"clock long", RaceOptions{Turns: Alternating, Series: 1, TurnSeconds: MaxTurnSeconds + 1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.o.Check()
			var e *Error
			if tc.ok != (err == nil) || err != nil && (!errors.As(err, &e) || e.Code != BadRequest) {
				t.Fatalf("Check(%+v) = %v", tc.o, err)
			}
		})
	}
}

func TestParseRaceOptions(t *testing.T) {
	o, err := ParseRaceOptions(nil)
	if err != nil || o != (RaceOptions{Series: 1}) {
		t.Fatalf("no options: %+v, %v", o, err)
	}
	o, err = ParseRaceOptions([]byte(`{"turns":"alternating","series":3,"bot":"fast"}`))
	if err != nil || o.Turns != Alternating || o.Series != 3 || o.Bot != "fast" {
		t.Fatalf("%+v, %v", o, err)
	}
	if _, err := ParseRaceOptions([]byte(`[]`)); err == nil || !strings.HasPrefix(err.Error(), "game: ") {
		t.Fatalf("not options: %v", err)
	}
}

func TestDailyOf(t *testing.T) {
	for _, tc := range []struct {
		kind, opts, want string
	}{
		{KindSolo, `{"daily":"2025-01-02"}`, "2025-01-02"},
		{KindSolo, `{"winnable":true}`, ""},
		{KindSolo, ``, ""},
		{KindSolo, `nonsense`, ""},
		{KindRace, `{"daily":"2025-01-02"}`, ""},
	} {
		if got := DailyOf(tc.kind, []byte(tc.opts)); got != tc.want {
			t.Errorf("DailyOf(%s, %s) = %q, want %q", tc.kind, tc.opts, got, tc.want)
		}
	}
}

func TestError(t *testing.T) {
	cause := errors.New("disk full")
	e := &Error{Code: Unavailable, Msg: "retry", Err: cause}
	if e.Error() != "game: unavailable: retry: disk full" || !errors.Is(e, cause) {
		t.Fatalf("%v", e)
	}
	if got := Errorf(NotFound, "no such %s", "race").Error(); got != "game: not_found: no such race" {
		t.Fatalf("%s", got)
	}
	seen := map[Code]bool{}
	for _, c := range Codes() {
		if seen[c] || c == "" {
			t.Errorf("code %q twice or empty", c)
		}
		seen[c] = true
	}
	if len(seen) != 17 {
		t.Errorf("%d codes", len(seen))
	}
}
