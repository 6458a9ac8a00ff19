package winnable

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"testing"

	"dsol/internal/cards"
)

// playedSet is a Played over a fixed set of codes.
type playedSet map[string]bool

func (p playedSet) PlayedCodes(_ context.Context, _ string, codes []string) ([]string, error) {
	var out []string
	for _, c := range codes {
		if p[c] {
			out = append(out, c)
		}
	}
	return out, nil
}

func TestPoolAdd(t *testing.T) {
	sizes := map[Mode][2]int{}
	p := &Pool{onSize: func(m Mode, listed, stored int) { sizes[m] = [2]int{listed, stored} }}
	if n := p.Add(Deal{Mode: D1V, Number: 5}, Deal{Mode: D1V, Number: 5}, Deal{Mode: D1N, Number: 5}); n != 2 {
		t.Fatalf("Add: %d new, want 2", n)
	}
	if n := p.Add(Deal{Mode: D1V, Number: 5}); n != 0 {
		t.Fatalf("Add again: %d new", n)
	}
	if p.Size(D1V) != 1 || p.Size(D1N) != 1 || p.Size(D3V) != 0 || !p.Has(D1V, 5) || p.Has(D3V, 5) {
		t.Fatalf("sizes %d %d %d", p.Size(D1V), p.Size(D1N), p.Size(D3V))
	}
	if sizes[D1V] != [2]int{0, 1} {
		t.Fatalf("reported sizes %v", sizes)
	}
	// A draw-3 Vegas deal is a draw-1 Vegas deal too.
	if n := p.Add(Deal{Mode: D3V, Number: 6}, Deal{Mode: D3V, Number: 5}); n != 3 {
		t.Fatalf("Add of two draw-3 Vegas deals, one a draw-1 Vegas deal already: %d new, want 3", n)
	}
	if p.Size(D3V) != 2 || p.Size(D1V) != 2 || !p.Has(D1V, 6) || p.Size(D3N) != 0 || p.Size(D1N) != 1 || sizes[D1V] != [2]int{0, 2} {
		t.Fatalf("sizes %d %d %d %d, reported %v", p.Size(D1N), p.Size(D3N), p.Size(D1V), p.Size(D3V), sizes)
	}
	full := NewPool(nil)
	for _, m := range Modes {
		if full.Size(m) != len(Listed(m)) {
			t.Errorf("%s: a new pool holds %d deals, the list %d", m, full.Size(m), len(Listed(m)))
		}
	}
}

// TestPick: a deal of the pool, of the mode asked for, never one the player
// has played while there is another in the draw; every deal of a small pool
// comes up.
func TestPick(t *testing.T) {
	ctx := context.Background()
	p := &Pool{}
	if _, err := p.Pick(ctx, D3V, playedSet{}, "ada", rand.Reader); !errors.Is(err, ErrEmpty) {
		t.Fatalf("an empty mode: %v", err)
	}
	for n := range uint64(5) {
		p.Add(Deal{Mode: D3V, Number: 100 + n})
	}
	played := playedSet{}
	for n := range uint64(4) {
		played[D3V.Code(100+n).String()] = true
	}
	for range 50 {
		c, err := p.Pick(ctx, D3V, played, "ada", rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if c != D3V.Code(104) {
			t.Fatalf("picked %s; the player has played every other deal", c)
		}
	}
	seen := map[cards.Code]bool{}
	for range 200 {
		c, _ := p.Pick(ctx, D3V, playedSet{}, "ada", rand.Reader)
		seen[c] = true
	}
	if len(seen) != 5 {
		t.Fatalf("%d of 5 deals came up in 200 picks", len(seen))
	}
	// Everything played: still a deal of the pool.
	played[D3V.Code(104).String()] = true
	if c, err := p.Pick(ctx, D3V, played, "ada", rand.Reader); err != nil || !p.Has(D3V, c.Deal) || ModeOf(c) != D3V {
		t.Fatalf("all played: %s, %v", c, err)
	}
	// A large pool: the player's games are avoided among the deals drawn.
	for n := range uint64(1000) {
		p.Add(Deal{Mode: D1N, Number: n})
	}
	half := playedSet{}
	for n := uint64(0); n < 1000; n += 2 {
		half[D1N.Code(n).String()] = true
	}
	for range 100 {
		c, err := p.Pick(ctx, D1N, half, "ada", rand.Reader)
		if err != nil || half[c.String()] || c.Draw != 1 || c.Vegas {
			t.Fatalf("picked %s, %v: played already", c, err)
		}
	}
}

func TestPickRandomFails(t *testing.T) {
	p := &Pool{}
	p.Add(Deal{Mode: D1N, Number: 1}, Deal{Mode: D1N, Number: 2})
	if _, err := p.Pick(context.Background(), D1N, playedSet{}, "ada", strings.NewReader("")); err == nil {
		t.Fatal("no error from an empty random source")
	}
}

func TestUniform(t *testing.T) {
	for _, n := range []uint64{1, 2, 3, 1 << 63, 1<<64 - 1} {
		for range 20 {
			v, err := uniform(rand.Reader, n)
			if err != nil || v >= n {
				t.Fatalf("uniform(%d) = %d, %v", n, v, err)
			}
		}
	}
}

func TestModes(t *testing.T) {
	for _, m := range Modes {
		got, err := ParseMode(m.String())
		if err != nil || got != m {
			t.Fatalf("%s: %v, %v", m, got, err)
		}
		c := m.Code(42)
		if ModeOf(c) != m || !strings.HasPrefix(c.String(), "DS1-"+m.String()+"-") {
			t.Fatalf("%s: code %s", m, c)
		}
	}
	if _, err := ParseMode("D2N"); err == nil {
		t.Fatal("D2N accepted")
	}
}
