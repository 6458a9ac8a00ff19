package tally

import (
	"testing"

	"dsol/internal/cards"
)

// TestTransfer checks the transfer rules mode by mode.
func TestTransfer(t *testing.T) {
	code := func(s string) cards.Code {
		c, err := cards.ParseCode(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, tc := range []struct {
		from string
		v    Verdict
		to   string
		want Verdict
	}{
		{"DS1-D1N-AAAAAAB", Unwinnable, "DS1-D1V-AAAAAAB", Unwinnable},
		{"DS1-D1N-AAAAAAB", Unwinnable, "DS1-D3V-AAAAAAB", Unwinnable},
		{"DS1-D1N-AAAAAAB", Unwinnable, "DS1-D3N-AAAAAAB", Unwinnable},
		{"DS1-D1N-AAAAAAB", Won, "DS1-D1V-AAAAAAB", Unknown},
		{"DS1-D3V-AAAAAAB", Won, "DS1-D1V-AAAAAAB", Won},
		{"DS1-D3V-AAAAAAB", Won, "DS1-D3N-AAAAAAB", Won},
		{"DS1-D3V-AAAAAAB", Won, "DS1-D1N-AAAAAAB", Won},
		{"DS1-D3V-AAAAAAB", Unwinnable, "DS1-D1V-AAAAAAB", Unknown},
		{"DS1-D1V-AAAAAAB", Unwinnable, "DS1-D3V-AAAAAAB", Unwinnable},
		{"DS1-D1V-AAAAAAB", Won, "DS1-D3V-AAAAAAB", Unknown},
		{"DS1-D1V-AAAAAAB", Won, "DS1-D1N-AAAAAAB", Won},
		{"DS1-D1V-AAAAAAB", Unwinnable, "DS1-D3N-AAAAAAB", Unknown},
		{"DS1-D3N-AAAAAAB", Unwinnable, "DS1-D1V-AAAAAAB", Unknown},
		{"DS1-D3N-AAAAAAB", Unwinnable, "DS1-D3V-AAAAAAB", Unwinnable},
		{"DS1-D1V-AAAAAAB", Unknown, "DS1-D3V-AAAAAAB", Unknown},
		{"DS1-D3V-AAAAAAB", Won, "DS1-D1V-AAAAAAC", Unknown},
	} {
		if got := Transfer(code(tc.from), tc.v, code(tc.to)); got != tc.want {
			t.Errorf("%s %s → %s: %s, want %s", tc.from, tc.v, tc.to, got, tc.want)
		}
	}
}

// TestTransferHolds: on real deals, a mode's verdict never contradicts a
// verdict transferred to it, and a draw-3 win rewritten for draw 1 wins the
// draw-1 game.
func TestTransferHolds(t *testing.T) {
	r := cards.NewSplitMix64(3)
	s := New()
	modes := []string{"D1N", "D3N", "D1V", "D3V"}
	checked := 0
	for range 6 {
		deal := r.Uniform(cards.DealCount)
		var codes []cards.Code
		var res []Result
		for _, m := range modes {
			c, _ := cards.ParseCode("DS1-" + m + "-AAAAAAA")
			c.Deal = deal
			codes = append(codes, c)
			res = append(res, s.SolveCode(c, Options{MaxPositions: 200000}))
		}
		for i := range codes {
			for j := range codes {
				if v := Transfer(codes[i], res[i].Verdict, codes[j]); v != Unknown && res[j].Verdict != Unknown {
					checked++
					if v != res[j].Verdict {
						t.Errorf("%s %s carries %s to %s, which is %s", codes[i], res[i].Verdict, v, codes[j], res[j].Verdict)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("nothing was checked")
	}
}

// TestCoversOnSmallPositions checks the transfer rules against the plain
// search: a small position played in the four modes (draw 1 or 3, with or
// without recycles, the same cards where they are), a mode won whenever a
// mode it covers is.
func TestCoversOnSmallPositions(t *testing.T) {
	r := cards.NewSplitMix64(45)
	type mode struct {
		draw    uint8
		recycle bool
		code    cards.Code // the mode as a code, for covers
	}
	modes := []mode{
		{1, true, cards.Code{Draw: 1}}, {3, true, cards.Code{Draw: 3}},
		{1, false, cards.Code{Draw: 1, Vegas: true}}, {3, false, cards.Code{Draw: 3, Vegas: true}},
	}
	checked := 0
	positions := 60
	if testing.Short() {
		positions = 30
	}
	for i := 0; i < positions; i++ {
		b, f := smallPosition(r, 6+int(r.Uniform(6)))
		var won [4]bool
		complete := true
		for j, m := range modes {
			bb := b
			bb.DrawCount, bb.CanRecycle = m.draw, m.recycle
			w, ok := plainWinnable(&bb, &f, 60000)
			won[j], complete = w, complete && ok
		}
		if !complete {
			continue
		}
		for a := range modes {
			for c := range modes {
				if covers(modes[a].code, modes[c].code) && won[c] && !won[a] {
					t.Fatalf("position %d: won in mode %+v but not in %+v, which covers it\n%s", i, modes[c], modes[a], describe(&b, &f))
				}
			}
		}
		if won[0] != won[3] {
			checked++ // the modes differ here: the rule was put to the test
		}
	}
	t.Logf("%d of %d positions won in some modes and not in others", checked, positions)
	if checked < positions/30 {
		t.Fatalf("only %d positions where the modes differ", checked)
	}
}
