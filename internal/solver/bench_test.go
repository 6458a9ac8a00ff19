package solver_test

import (
	"testing"
	"time"

	"dsol/internal/cards"
	"dsol/internal/solver"
)

// BenchmarkSolve solves the same 16 random deals of each mode over and over
// with one Solver, each with a budget of 20,000 positions (so that the work
// does not depend on the machine): time and allocations per deal, and
// positions per second. The allocations are the winning lines (the tables
// are reused).
func BenchmarkSolve(b *testing.B) {
	for _, mode := range modes {
		b.Run(mode, func(b *testing.B) {
			r := cards.NewSplitMix64(99)
			codes := make([]cards.Code, 16)
			for i := range codes {
				codes[i] = randomCode(b, r, mode)
			}
			s := solver.New()
			for _, c := range codes { // grow the tables first
				s.SolveCode(c, solver.Options{MaxPositions: 20000})
			}
			var positions int64
			var elapsed time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				res := s.SolveCode(codes[i%len(codes)], solver.Options{MaxPositions: 20000})
				positions += res.Positions
				elapsed += res.Elapsed
			}
			b.ReportMetric(float64(positions)/elapsed.Seconds(), "positions/s")
		})
	}
}
