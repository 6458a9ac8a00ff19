package solo

import (
	"math/rand/v2"
	"reflect"
	"testing"

	k "dsol/internal/klondike"
)

// restored returns a game of g's code that loaded g's state.
func restored(tb testing.TB, g *Game) *Game {
	tb.Helper()
	h, err := New(g.code)
	if err != nil {
		tb.Fatal(err)
	}
	if err := h.LoadState(g.AppendState(nil)); err != nil {
		tb.Fatalf("%s: %v", g.code, err)
	}
	return h
}

// same fails unless two games are in the same state (the finish cache
// aside, which only remembers an answer).
func same(tb testing.TB, g, h *Game, what string) {
	tb.Helper()
	a, b := *g, *h
	a.finishAt, b.finishAt = nil, nil
	if !reflect.DeepEqual(a, b) {
		tb.Fatalf("%s: %s: the restored game differs:\n%s\nwant:\n%s", g.code, what, formatPosition(h), formatPosition(g))
	}
}

// TestStateRoundTrip: at every step of random games (undo, taps and
// refused actions included) and of greedy games played to their end
// (finishes included), a game that loads the state is the same game, and
// plays on as the original does.
func TestStateRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := propertyGames(t) / 50
	for range n {
		g, err := New(randomCode(r))
		if err != nil {
			t.Fatal(err)
		}
		var h *Game
		var buf []k.Action
		for i := range 150 {
			if i%37 == 0 {
				h = restored(t, g)
			}
			var a k.Action
			a, buf = randomAction(g, r, buf)
			if a.Type == 0 {
				break
			}
			_, err1 := g.Apply(a)
			_, err2 := h.Apply(a)
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("%s: %s: original %v, restored %v", g.code, a, err1, err2)
			}
			same(t, g, h, "after "+a.String())
			same(t, g, restored(t, g), "reloaded after "+a.String())
		}
	}
	for i := range n / 5 {
		code := randomCode(r)
		g, err := New(code)
		if err != nil {
			t.Fatal(err)
		}
		p := &greedy{r: rand.New(rand.NewPCG(uint64(i), 9))}
		for g.Status() == Playing {
			if g.CanFinish() {
				if _, err := g.Apply(k.Simple(k.Finish)); err != nil {
					t.Fatal(err)
				}
				same(t, g, restored(t, g), "after a finish")
				break
			}
			a, ok := p.next(g)
			if !ok {
				break
			}
			if _, err := g.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
		same(t, g, restored(t, g), "at the end")
	}
}

// TestStateRefused: a state that cannot be the game's is refused, and the
// game stays as it was. (The state does not name its deal: a state of
// another deal of the same kind has the same cards, and loads.)
func TestStateRefused(t *testing.T) {
	g := mustNew(t, "DS1-D1N-AAAAAAB")
	mustApply(t, g, "draw", "draw")
	good := g.AppendState(nil)
	for _, c := range []struct {
		name string
		code string
		edit func(b []byte) []byte
	}{
		{"short", "DS1-D1N-AAAAAAB", func(b []byte) []byte { return b[:len(b)-1] }},
		{"another draw", "DS1-D3N-AAAAAAB", func(b []byte) []byte { return b }},
		{"Vegas", "DS1-D1V-AAAAAAB", func(b []byte) []byte { return b }},
		{"a card twice", "DS1-D1N-AAAAAAB", func(b []byte) []byte { b[209] = b[208]; return b }}, // column 9's first two
		{"a column overfull", "DS1-D1N-AAAAAAB", func(b []byte) []byte { b[k.MaxColumnCards] = 200; return b }},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := mustNew(t, c.code)
			before := *h
			if err := h.LoadState(c.edit(append([]byte(nil), good...))); err == nil {
				t.Fatal("loaded")
			}
			same(t, &before, h, "refused")
		})
	}
}
