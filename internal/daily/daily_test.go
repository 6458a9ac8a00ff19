package daily

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"dsol/internal/cards"
	"dsol/internal/solo"
	"dsol/internal/solver"
)

func TestDayBounds(t *testing.T) {
	at := time.Date(2026, 12, 1, 23, 59, 59, 0, time.FixedZone("east", 3*3600))
	if d := Day(at); d != "2026-12-01" {
		t.Fatalf("Day of %v is %s, want the UTC day 2026-12-01", at, d)
	}
	b, e, err := Bounds("2026-12-01")
	if err != nil || !b.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) || !e.Equal(time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("Bounds: %v %v %v", b, e, err)
	}
	for _, bad := range []string{"", "2026-12-1", "2026-13-01", "2026-02-30", "yesterday"} {
		if _, _, err := Bounds(bad); err == nil {
			t.Errorf("Bounds(%q) took it", bad)
		}
	}
	if Closed("2026-12-01", e.Add(-time.Nanosecond)) || !Closed("2026-12-01", e) || Closed("nope", e) {
		t.Fatal("Closed is wrong at the day's end")
	}
	opts := []byte(`{"daily":"2026-12-01"}`)
	if !Hidden("solo", opts, e.Add(-time.Nanosecond)) || Hidden("solo", opts, e) || Hidden("solo", nil, b) || Hidden("race", opts, b) {
		t.Fatal("Hidden is wrong")
	}
}

// TestPickWinnable: a picked deal is a secret code of the mode that the
// solver's line wins in the solo engine; the same random bytes pick the same.
func TestPickWinnable(t *testing.T) {
	s := solver.New()
	for _, m := range Modes {
		c, err := Pick(s, m, rand.NewChaCha8([32]byte{byte(m.Draw)}))
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		if c.Kind != cards.Solo || !c.Secret || c.Draw != m.Draw || c.Vegas != m.Vegas {
			t.Fatalf("%s: picked %v", m.Name, c)
		}
		again, _ := Pick(s, m, rand.NewChaCha8([32]byte{byte(m.Draw)}))
		if again != c {
			t.Fatalf("%s: the same bytes picked %v, then %v", m.Name, c, again)
		}
		res := s.SolveCode(c, solver.Options{MaxPositions: Budget})
		g, err := solo.New(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range res.Moves {
			if _, err := g.Apply(a); err != nil {
				t.Fatalf("%s: %v", m.Name, err)
			}
		}
		if g.Status() != solo.Won {
			t.Fatalf("%s: the line does not win %v", m.Name, c)
		}
	}
	if _, err := Pick(s, Modes[0], bytes.NewReader(nil)); err == nil {
		t.Fatal("Pick with no random bytes gave a deal")
	}
}

func TestStreak(t *testing.T) {
	now := time.Date(2026, 12, 10, 12, 0, 0, 0, time.UTC)
	// in wins each day in time, late each after its close.
	in := func(days ...string) []Win {
		out := make([]Win, len(days))
		for i, d := range days {
			begin, _, _ := Bounds(d)
			out[i] = Win{Day: d, At: begin.Add(23 * time.Hour)}
		}
		return out
	}
	late := func(days ...string) []Win {
		out := in(days...)
		for i := range out {
			out[i].At = out[i].At.Add(time.Hour) // at the close
		}
		return out
	}
	for _, c := range []struct {
		name          string
		won           []Win
		current, best int
	}{
		{"none", nil, 0, 0},
		{"today", in("2026-12-10"), 1, 1},
		{"yesterday", in("2026-12-09"), 1, 1}, // today is still open
		{"the day before", in("2026-12-08"), 0, 1},
		{"three days, two modes today", in("2026-12-08", "2026-12-09", "2026-12-10", "2026-12-10"), 3, 3},
		{"a run and a gap", in("2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-09"), 1, 4},
		{"across a month", in("2026-11-30", "2026-12-01", "2026-12-10", "2026-12-06"), 1, 2},
		{"won after the close", late("2026-12-09"), 0, 0},
		{"a late win breaks the run", append(in("2026-12-07", "2026-12-09"), late("2026-12-08")...), 1, 1},
		{"a late win beside one in time", append(in("2026-12-09"), late("2026-12-09")...), 1, 1},
	} {
		if cur, best := Streak(c.won, now); cur != c.current || best != c.best {
			t.Errorf("%s: Streak(%v) = %d, %d; want %d, %d", c.name, c.won, cur, best, c.current, c.best)
		}
	}
}

func TestInTime(t *testing.T) {
	begin, end, _ := Bounds("2026-12-09")
	for _, c := range []struct {
		at   time.Time
		want bool
	}{
		{begin, true}, {end.Add(-time.Microsecond), true}, {end, false}, {end.Add(time.Hour), false},
	} {
		if got := InTime("2026-12-09", c.at); got != c.want {
			t.Errorf("InTime(%v) = %v, want %v", c.at, got, c.want)
		}
	}
	if InTime("not a day", begin) {
		t.Error("InTime of a bad day")
	}
}

func ExampleDay() {
	fmt.Println(Day(time.Date(2026, 12, 1, 1, 0, 0, 0, time.FixedZone("west", -5*3600))))
	// Output: 2026-12-01
}
