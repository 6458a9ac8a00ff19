package engine

import (
	"math/rand/v2"
	"testing"

	"dsol/internal/protocol"
)

// BenchmarkRaceEvent is what one race action costs the table beside the
// rules: the views of both seats and a spectator after it (one built, the
// others turned to their viewer with For) and the delta from the view
// before, which is the same for every viewer and built once, as the table
// builds them for every event.
// Each op is one accepted action of a random race.
//
//	go test -run '^$' -bench RaceEvent -benchmem ./internal/engine
func BenchmarkRaceEvent(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	eng := raceEngine1(b, r)
	var seq int64
	prev := [3]protocol.View{}
	for v := range prev {
		prev[v] = eng.View(v, "g", seq)
	}
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for {
			if eng.Check(1) != nil {
				b.StopTimer()
				eng = raceEngine1(b, r)
				seq = 0
				for v := range prev {
					prev[v] = eng.View(v, "g", seq)
				}
				b.StartTimer()
			}
			if _, err := eng.Apply(1+r.IntN(2), randomAction(r, true)); err == nil {
				break
			}
		}
		seq++
		built := eng.View(0, "g", seq)
		for v := range prev {
			next := built.For(v)
			if v == 0 {
				buf = next.AppendDelta(buf[:0], prev[v])
			}
			prev[v] = next
		}
	}
}
