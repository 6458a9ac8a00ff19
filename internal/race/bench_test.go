package race

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"dsol/internal/cards"
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

// BenchmarkThink times one decision of the strong bot (Think with
// StrongOptions) over 64 positions of bot-vs-bot races in play, at draw 1
// and draw 3, and reports the median and the 95th percentile of one.
func BenchmarkThink(b *testing.B) {
	for _, draw := range []int{1, 3} {
		b.Run(fmt.Sprintf("draw%d", draw), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(21, uint64(draw)))
			var seens []Seen
			for len(seens) < 64 {
				code := cards.Code{Kind: cards.Race, Draw: draw, Deal: rng.Uint64N(cards.DealCount)}
				r := mustRace(b, code.String(), Options{})
				log, _ := botGame(b, r, rng, 20+rng.IntN(100), nil)
				if s := r.Seen(1 + len(log)%2); r.Status() == Playing && !s.Blocked[s.Seat-1] {
					seens = append(seens, s)
				}
			}
			var times []time.Duration
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				Think(seens[i%len(seens)], uint64(i), StrongOptions)
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			at := func(q float64) float64 {
				return float64(times[min(len(times)-1, int(q*float64(len(times))))]) / float64(time.Millisecond)
			}
			b.ReportMetric(at(0.5), "p50-ms")
			b.ReportMetric(at(0.95), "p95-ms")
		})
	}
}
