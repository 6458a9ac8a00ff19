package race

import (
	"testing"

	k "dsol/internal/klondike"
)

func TestBotSpeed(t *testing.T) {
	if !(Slow.Delay() > Normal.Delay() && Normal.Delay() > Fast.Delay() && Fast.Delay() > 0) {
		t.Fatalf("delays %v %v %v", Slow.Delay(), Normal.Delay(), Fast.Delay())
	}
	if Strong.Delay() != Normal.Delay() {
		t.Fatalf("the strong bot thinks %v, the normal one %v", Strong.Delay(), Normal.Delay())
	}
	for _, s := range []Speed{Slow, Normal, Fast, Strong} {
		if got, ok := ParseSpeed(s.String()); !ok || got != s {
			t.Errorf("ParseSpeed(%q) = %v %v", s, got, ok)
		}
	}
	if _, ok := ParseSpeed("ludicrous"); ok {
		t.Error("unknown speed parsed")
	}
	var b Bot
	if b.Speed != Normal {
		t.Error("the zero bot is not normal speed")
	}
}

func TestParseTurns(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Turns
		ok   bool
	}{{"", Simultaneous, true}, {"simultaneous", Simultaneous, true}, {"alternating", Alternating, true}, {"both", 0, false}} {
		if got, ok := ParseTurns(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("ParseTurns(%q) = %v %v", tc.in, got, ok)
		}
	}
}

// The bot's order of choice: foundation plays, then flips, then other
// useful moves, then the stock; blocked, it passes (alternating) or waits.
func TestBotChoices(t *testing.T) {
	for _, tc := range []struct {
		name, pos string
		opts      Options
		want      k.Action
		none      bool
	}{
		{"foundation first", "seat 1\nc1: 4C | 9H\nc2: TS\nc3: AD\nw: 8C\nseat 2\nc1: AS\n", Options{},
			move("c3", "f", 1), false},
		{"waste to foundation", "f7: AC2\nseat 1\nc1: 4C | 9H\nc2: TS\nw: 2C\nseat 2\nc1: AS\n", Options{},
			move("w", "f", 1), false},
		{"flip next", "seat 1\nc1: 4C | 9H\nc2: TS\nw: 8C\ns: 5D\nseat 2\nc1: AS\n", Options{},
			move("c1", "c2", 1), false},
		{"waste to a column", "seat 1\nc1: 5D 9H\nc2: TS\nw: 8C\ns: 5S\nseat 2\nc1: AS\n", Options{},
			move("w", "c1", 1), false},
		{"expose a foundation card", "seat 1\nc1: AH 9C\nc2: TD\nseat 2\nc1: AS\n", Options{},
			move("c1", "c2", 1), false},
		{"draw", "seat 1\nc1: 5D\ns: 9S AH\nseat 2\nc1: AS\n", Options{}, k.Simple(k.Draw), false},
		{"recycle", "seat 1\nc1: 5D\nw: AH 9S\nseat 2\nc1: AS\n", Options{}, k.Simple(k.Recycle), false},
		{"blocked waits", "seat 1\nc1: 5D\nw: 9S\nseat 2\nc1: AS\n", Options{}, k.Action{}, true},
		{"blocked passes", "seat 1\nc1: 5D\nw: 9S\nseat 2\nc1: AS\n", alt1, k.Simple(k.Pass), false},
		{"not its turn", "seat 1\nc1: AD\nseat 2\nc1: AS\n", Options{Turns: Alternating, First: FirstOpponent}, k.Action{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustPosition(t, d1u, tc.opts, tc.pos)
			var b Bot
			a, ok := b.Next(r.Seen(1))
			if ok == tc.none || (ok && a != tc.want) {
				t.Fatalf("bot chose %s (%v), want %s", a, ok, tc.want)
			}
		})
	}
}

// With unlimited redeals and nothing useful in the stock, the bot goes
// through the stock once, then finds the way out with the path search.
func TestBotFindsPath(t *testing.T) {
	r := mustPosition(t, d3u, Options{}, `
seat 1
c1: 4C | 9H
c2: JD
s: 2D 3S TS 5H 6H
seat 2
c1: AS
`)
	var b Bot
	for i := 0; i < 40 && r.Board(1).Cols[0].Down > 0; i++ {
		a, ok := b.Next(r.Seen(1))
		if !ok {
			t.Fatalf("the bot gave up after %d actions\n%s", i, r.Diagram())
		}
		mustApply(t, r, 1, a)
	}
	if r.Board(1).Cols[0].Down != 0 {
		t.Fatalf("the bot did not free 4C\n%s", r.Diagram())
	}
}

// A real deal can leave both seats blocked from the start: the race is over
// at once, a draw.
func TestRuleEndAtDeal(t *testing.T) {
	r := mustRace(t, "DR1-D3SM-AAAAAAB", Options{})
	if res := r.Result(); r.Status() != Over || res.Reason != BothBlocked || res.Winner != 0 || r.Actions() != 0 {
		t.Fatalf("%v %+v", r.Status(), res)
	}
}

// TestSpeeds: the bot's levels each print as a word that reads back as the
// level, and no two print the same.
func TestSpeeds(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Speeds() {
		w := s.String()
		if got, ok := ParseSpeed(w); !ok || got != s {
			t.Errorf("%v prints as %q, which reads as %v, %v", s, w, got, ok)
		}
		if seen[w] {
			t.Errorf("two levels print as %q", w)
		}
		seen[w] = true
	}
	if len(seen) != int(Strong)+1 {
		t.Errorf("Speeds lists %d levels, want %d", len(seen), int(Strong)+1)
	}
}
