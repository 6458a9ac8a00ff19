package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"dsol/internal/protocol"
)

// TestRaceBoardShared: the race part of every viewer's view, which the
// engine builds once per action and shares, is at every step what the race
// itself shows that viewer then, over random races.
func TestRaceBoardShared(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		eng := raceEngine1(t, r)
		e := eng.(*Race)
		for seq, tries := int64(0), 0; seq < 150 && tries < 4000 && eng.Check(1) == nil; tries++ {
			for viewer := range 3 {
				got := eng.View(viewer, "g", seq).(protocol.RaceView).View
				if want := e.Race().View(viewer); !reflect.DeepEqual(got, want) {
					t.Fatalf("after %d actions, viewer %d: the shared view differs from the race's:\n%+v\nwant\n%+v", seq, viewer, got, want)
				}
			}
			if _, err := eng.Apply(1+r.IntN(2), randomAction(r, true)); err == nil {
				seq++
			}
		}
	}
}
