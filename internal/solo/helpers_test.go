package solo

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// parseAct reads the short action form of the tests: "c1>c2", "c1>c2 x3",
// "w>f", "f1>c3", "draw", "recycle", "undo", "finish", "tap c1", "dtap c1 x2".
func parseAct(s string) (k.Action, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return k.Action{}, fmt.Errorf("empty action")
	}
	count := 1
	if n := len(f); n > 1 && strings.HasPrefix(f[n-1], "x") {
		c, err := strconv.Atoi(f[n-1][1:])
		if err != nil {
			return k.Action{}, fmt.Errorf("bad count in %q", s)
		}
		count, f = c, f[:n-1]
	}
	pile := func(name string) (k.Pile, error) {
		p, ok := k.ParsePile(name)
		if !ok {
			return k.NoPile, fmt.Errorf("bad pile %q in %q", name, s)
		}
		return p, nil
	}
	switch f[0] {
	case "draw":
		return k.Simple(k.Draw), nil
	case "recycle":
		return k.Simple(k.Recycle), nil
	case "undo":
		return k.Simple(k.Undo), nil
	case "finish":
		return k.Simple(k.Finish), nil
	case "tap", "dtap":
		if len(f) != 2 {
			return k.Action{}, fmt.Errorf("%q: tap needs a pile", s)
		}
		p, err := pile(f[1])
		if err != nil {
			return k.Action{}, err
		}
		if f[0] == "tap" {
			return k.FromPile(k.Tap, p, 1), nil
		}
		return k.FromPile(k.DTap, p, count), nil
	}
	from, to, ok := strings.Cut(f[0], ">")
	if !ok || len(f) != 1 {
		return k.Action{}, fmt.Errorf("bad action %q", s)
	}
	pf, err := pile(from)
	if err != nil {
		return k.Action{}, err
	}
	pt, err := pile(to)
	if err != nil {
		return k.Action{}, err
	}
	return k.NewMove(pf, pt, count), nil
}

// mustAct parses a short action or fails the test.
func mustAct(tb testing.TB, s string) k.Action {
	tb.Helper()
	a, err := parseAct(s)
	if err != nil {
		tb.Fatal(err)
	}
	return a
}

// mustApply applies short actions that must all be accepted and returns the
// outcome of the last one.
func mustApply(tb testing.TB, g *Game, acts ...string) Outcome {
	tb.Helper()
	var out Outcome
	for _, s := range acts {
		var err error
		out, err = g.Apply(mustAct(tb, s))
		if err != nil {
			tb.Fatalf("%s refused: %v\n%s", s, err, formatPosition(g))
		}
	}
	return out
}

// mustRefuse applies a short action that must be refused with code and must
// leave the game exactly as it was.
func mustRefuse(tb testing.TB, g *Game, act string, code k.ErrCode) {
	tb.Helper()
	before := *g
	out, err := g.Apply(mustAct(tb, act))
	if err == nil {
		tb.Fatalf("%s accepted (%+v), want %s\n%s", act, out, code, formatPosition(&before))
	}
	var ke *k.Error
	if !asKError(err, &ke) || ke.Code != code {
		tb.Fatalf("%s refused with %v, want code %s", act, err, code)
	}
	if *g != before {
		tb.Fatalf("%s was refused but changed the game", act)
	}
}

func asKError(err error, target **k.Error) bool {
	e, ok := err.(*k.Error)
	if ok {
		*target = e
	}
	return ok
}

// piles writes the piles of g in the notation with face-down cards hidden
// and without the settings line: what a "want" position is compared on.
func piles(g *Game) string {
	var sb strings.Builder
	writePiles(&sb, g, false)
	return sb.String()
}

// writePiles writes the piles of g in the notation: face-down cards as "##",
// or with faces as "#" and the card.
func writePiles(sb *strings.Builder, g *Game, faces bool) {
	b := &g.board
	for i := 0; i < int(b.NCols); i++ {
		col := &b.Cols[i]
		fmt.Fprintf(sb, "c%d:", i+1)
		for j := 0; j < int(col.N); j++ {
			switch {
			case j >= int(col.Down):
				sb.WriteString(" " + col.Cards[j].String())
			case faces:
				sb.WriteString(" #" + col.Cards[j].String())
			default:
				sb.WriteString(" ##")
			}
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("w:")
	for _, c := range b.Waste[:b.NWaste] {
		sb.WriteString(" " + c.String())
	}
	sb.WriteString("\ns:")
	for _, c := range b.StockCards() {
		sb.WriteString(" " + c.String())
	}
	sb.WriteByte('\n')
	for i := 0; i < 8; i++ {
		if g.found.N[i] > 0 {
			fmt.Fprintf(sb, "f%d:", i+1)
			for _, c := range g.found.Piles[i][:g.found.N[i]] {
				sb.WriteString(" " + c.String())
			}
			sb.WriteByte('\n')
		}
	}
}

// wantPiles fails the test unless g shows the piles of the position want.
func wantPiles(tb testing.TB, g *Game, want string) {
	tb.Helper()
	w := mustPosition(tb, want)
	if got, exp := piles(g), piles(w); got != exp {
		tb.Fatalf("position:\n%s\nwant:\n%s", got, exp)
	}
}

// mustCode parses a game code or fails the test.
func mustCode(tb testing.TB, s string) cards.Code {
	tb.Helper()
	c, err := cards.ParseCode(s)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// mustNew deals the game of a code or fails the test.
func mustNew(tb testing.TB, code string) *Game {
	tb.Helper()
	g, err := New(mustCode(tb, code))
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
