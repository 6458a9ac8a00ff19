package table

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"dsol/internal/game"
)

// TestViewFor: a view made for one viewer and turned to another with For is
// the view the engine builds for that viewer, at every seq of random solo
// games and races, with a seat away (so that claim times show) or both
// connected.
func TestViewFor(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	check := func(t *testing.T, eng Engine, seq int64) {
		t.Helper()
		for from := range 3 {
			base := eng.View(from, "g", seq)
			for to := range 3 {
				if got, want := base.For(to), eng.View(to, "g", seq); !reflect.DeepEqual(got, want) {
					t.Fatalf("seq %d: the view of %d for %d is\n%+v\nwant\n%+v", seq, from, to, got, want)
				}
			}
		}
	}
	play := func(t *testing.T, eng Engine, race bool) {
		check(t, eng, 0)
		for seq := int64(1); seq <= 150; {
			if eng.Check(1) != nil {
				return
			}
			if _, err := eng.Apply(1+r.IntN(2), randomAction(r, race)); err == nil {
				check(t, eng, seq)
				seq++
			}
		}
	}
	t.Run("solo", func(t *testing.T) {
		for range 5 {
			play(t, soloEngine1(t, r), false)
		}
	})
	t.Run("race", func(t *testing.T) {
		for i := range 6 {
			rig := newLiveRig(t, game.RaceOptions{Turns: "simultaneous", Series: 1}, [2]string{"a", "b"})
			rig.l.online = [2]bool{i%3 != 1, i%3 != 2}
			play(t, rig.e, true)
		}
	})
}
