package tally_test

import (
	"testing"

	"dsol/internal/cards"
	"dsol/internal/solver/tally"
)

// BenchmarkVegas searches a draw-1 Vegas deal for 200,000 positions.
func BenchmarkVegas(b *testing.B) {
	c, _ := cards.ParseCode("DS1-D1V-AAAAAAB")
	s := tally.New()
	for b.Loop() {
		s.SolveCode(c, tally.Options{MaxPositions: 200000})
	}
}
