package race

import (
	"math/rand/v2"
	"testing"
)

// recordRace plays a bot-vs-bot race and returns its pristine start and the
// actions it took.
func recordRace(tb testing.TB, code string, opts Options) (*Race, []Step) {
	tb.Helper()
	pristine := mustRace(tb, code, opts)
	r := *pristine
	log, stalled := botGame(tb, &r, rand.New(rand.NewPCG(3, 4)), 100000, nil)
	if stalled || len(log) < 50 {
		tb.Fatalf("%s: a recorded race of %d actions", code, len(log))
	}
	return pristine, log
}

// BenchmarkRaceApply replays a recorded legal race, one action per op (the
// end-of-race checks included), on a pristine copy each time the record
// runs out. It must not allocate.
func BenchmarkRaceApply(b *testing.B) {
	for _, tc := range []struct {
		name, code string
		opts       Options
	}{
		{"simultaneous", "DR1-D1UI-AAAAAAD", Options{}},
		{"alternating", "DR1-D3UI-AAAAAAF", Options{Turns: Alternating, First: FirstCreator}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			pristine, log := recordRace(b, tc.code, tc.opts)
			r := *pristine
			j := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if j == len(log) {
					r, j = *pristine, 0
				}
				if _, err := r.Apply(log[j].Seat, log[j].Action); err != nil {
					b.Fatal(err)
				}
				j++
			}
		})
	}
}

// BenchmarkBotRace plays one whole bot-vs-bot race per op.
func BenchmarkBotRace(b *testing.B) {
	codes := []string{"DR1-D1UI-AAAAAAD", "DR1-D3UI-AAAAAAE", "DR1-D1SM-AAAAAAF", "DR1-D3SI-AAAAAAG"}
	rng := rand.New(rand.NewPCG(5, 6))
	b.ReportAllocs()
	actions := 0
	for i := 0; i < b.N; i++ {
		r := mustRace(b, codes[i%len(codes)], Options{})
		log, stalled := botGame(b, r, rng, 100000, nil)
		if stalled {
			b.Fatal("stalled")
		}
		actions += len(log)
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/race")
}
