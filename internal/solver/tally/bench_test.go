package tally_test

import (
	"testing"
	"time"

	"dsol/internal/cards"
	"dsol/internal/solver/tally"
)

// BenchmarkSolve solves the same 16 random deals of each mode over and over
// with one Solver, each with a budget of 20,000 positions (so that the work
// does not depend on the machine): time and allocations per deal, and
// positions per second. The allocations are the winning lines (the tables
// are reused).
func BenchmarkSolve(b *testing.B) {
	for _, mode := range []string{"D1N", "D3N", "D1V", "D3V"} {
		b.Run(mode, func(b *testing.B) {
			r := cards.NewSplitMix64(99)
			codes := make([]cards.Code, 16)
			for i := range codes {
				codes[i], _ = cards.ParseCode("DS1-" + mode + "-AAAAAAA")
				codes[i].Deal = r.Uniform(cards.DealCount)
			}
			s := tally.New()
			for _, c := range codes { // grow the tables first
				s.SolveCode(c, tally.Options{MaxPositions: 20000})
			}
			var positions int64
			start := time.Now()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				positions += s.SolveCode(codes[i%len(codes)], tally.Options{MaxPositions: 20000}).Positions
			}
			b.ReportMetric(float64(positions)/time.Since(start).Seconds(), "positions/s")
		})
	}
}

// BenchmarkBeam searches the same 4 random draw-1 Vegas deals over and over
// with a beam of 5,000 within 1,000,000 positions each (the ladder's third
// width), one Solver reused: time per deal and positions per second.
func BenchmarkBeam(b *testing.B) {
	r := cards.NewSplitMix64(7)
	codes := make([]cards.Code, 4)
	for i := range codes {
		codes[i], _ = cards.ParseCode("DS1-D1V-AAAAAAA")
		codes[i].Deal = r.Uniform(cards.DealCount)
	}
	s := tally.New()
	var positions int64
	start := time.Now()
	for i := 0; b.Loop(); i++ {
		positions += s.SolveCode(codes[i%len(codes)], tally.Options{MaxPositions: 1000000, Beam: 5000}).Positions
	}
	b.ReportMetric(float64(positions)/time.Since(start).Seconds(), "positions/s")
}
