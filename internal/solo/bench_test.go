package solo

import (
	"math/rand/v2"
	"testing"

	k "dsol/internal/klondike"
)

// slowStuck is the slowest position for the stuck search found by playing
// 300 mixed greedy and random games before the search was improved: a Vegas
// game late in play, a long waste that cannot recycle and many runs that can
// move between duplicate targets. It took about 120 ms (the search hit its
// bound); the relaxed game now proves it blocked at once.
const slowStuck = `
c1: KS QH JS TD 9C 8D
c2: KH QC JD TS 9D 8C 7D
c3: 8C 7D 6C 5D 4S 3D
c4: KD QS JH TC 9D 8S 7H 6S 5D
c5: #JD #5H JH TC
c6: #QS 8D 7S
c7: #4C #3S TH 9C 8H 7S 6H 5S 4D 3C
c8: #2S #QD #KD 8S
c9: #9S #3H #4S 5S 4H
w: 2C 2D 2D 3D KC 6D 6D QH 6S 4D KS 9H 5C QC 9H 9S JC 7C JS TD 7C TH KC KH TS JC QD
s:
f1: AS 2S 3S
f2: AS
f3: AH 2H 3H 4H 5H 6H 7H 8H
f4: AH 2H
f5: AD
f6: AD
f7: AC 2C 3C 4C 5C 6C
f8: AC
draw: 1 scoring: vegas score: 101
`

// worstStuck is the slowest position for the improved search among those of
// 4,000 mixed greedy and random games (best of three timings each).
const worstStuck = `
c1: JH TS 9D 8C 7H
c2: QD JS TD
c3: 9H 8S 7H
c4: #7D #QH #3C QD JS TD 9C 8H
c5:
c6: 8S
c7: #KS #TC #7C JC TH 9S 8D 7C 6H
c8: #6H #9C #QS JC
c9: 5C 4D
w: KH KH QH 2H JD 7S 5H KD 2D 7S 9D 4S 6S 3D QC 6S 8H KS KC 9S TC KC JD 9H 5H 3H TS QC 6C
s: 4C 4H 6D 5S QS KD JH 8C TH 5D
f1: AS 2S 3S 4S 5S
f2: AS 2S 3S
f3: AH 2H 3H 4H
f4: AH
f5: AD 2D 3D 4D 5D 6D 7D 8D
f6: AD
f7: AC 2C 3C 4C 5C 6C
f8: AC 2C
draw: 1 scoring: vegas score: 151
`

// mostStates is the position whose search visited the most positions (2,862)
// among those of 20,000 mixed greedy and random games.
const mostStates = `
c2: KC QH JC TD 9C 8H 7S 6H
c3: QS JH TC 9H 8S
c4: KH QS
c5: KS QH JC TH 9S 8H 7S
c6: 9H 8C 7H 6S 5D
c7: KS
c8: QC JH TS 9D 8S
c9: 7H
w: 6C 8D 6S 5H 3H 9C 6D 7C JS 7D TC 4D 4S 4C QD 5H 2H 3C 5S 4H
s: 6H JD KC KD TH KH 5C 9S JS QC TS
f1: AS 2S 3S 4S 5S
f2: AS 2S 3S
f3: AH 2H 3H 4H
f4: AH
f5: AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD
f6: AD 2D 3D
f7: AC 2C 3C 4C 5C 6C 7C 8C
f8: AC 2C
draw: 1 scoring: vegas score: 146
`

// draw3Early is the slowest position for the incrementally hashed search
// among those of 6,000 mixed greedy and random games (DSOL_SCAN_STUCK): draw
// 3, Vegas, early in the game with a long stock.
const draw3Early = `
c1: 2S
c2: #8C 4S
c3: #5D #9D 5S
c4: #JD #KH #QD 4S
c5: #TH #9S #AD #2S JD
c6: #6H #AH #6D #7D #9H JS
c7: #KD #3D #KC #7S #AH #2D JH
c8: #QC #4D #9H #AC #TC #TD #8H 5C
c9: #8D #7H #TC #2C #JC #2C #TS #AC 8S
w: JS KH 3H 5D KD QH 6C 8H 2H AS 7S JC 9C KC TS 9S QC
s: 6S 2D 9D QS 4C 5H 8S 5S TD 6D 6H KS KS QD QH QS 3S 7C AS 7C 4D TH 8D 3D 4H 7H 3C 5C 6S 2H 6C 5H 7D 8C JH 3H 4C 4H 9C 3S 3C
f5: AD
draw: 3 scoring: vegas score: -94
`

func BenchmarkStuck(b *testing.B) {
	for _, bc := range []struct{ name, pos string }{{"worst", worstStuck}, {"most-states", mostStates}, {"formerly-slowest", slowStuck}, {"draw3-early", draw3Early}} {
		b.Run(bc.name, func(b *testing.B) {
			g := mustPosition(b, bc.pos)
			b.ReportAllocs()
			for b.Loop() {
				g.Stuck()
			}
		})
	}
}

// recordGame plays random legal actions (no undo) on a deal and returns the
// pristine game and the actions.
func recordGame(tb testing.TB, code string, n int) (Game, []k.Action) {
	tb.Helper()
	g := mustNew(tb, code)
	pristine := *g
	r := rand.New(rand.NewPCG(5, 6))
	var acts, buf []k.Action
	for len(acts) < n {
		buf = legalActions(g, buf)
		if len(buf) == 0 {
			break
		}
		a := buf[r.IntN(len(buf))]
		if _, err := g.Apply(a); err != nil {
			tb.Fatal(err)
		}
		acts = append(acts, a)
	}
	if len(acts) < UndoLimit {
		tb.Fatalf("recorded only %d actions", len(acts))
	}
	return pristine, acts
}

func BenchmarkSoloApply(b *testing.B) {
	pristine, acts := recordGame(b, "DS1-D1N-AAAAAAB", 400)
	g := pristine
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		if i == len(acts) {
			g, i = pristine, 0
		}
		if _, err := g.Apply(acts[i]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkSoloUndo(b *testing.B) {
	start, acts := recordGame(b, "DS1-D3N-AAAAAAB", 400)
	for _, a := range acts {
		if _, err := start.Apply(a); err != nil {
			b.Fatal(err)
		}
	}
	g := start
	b.ReportAllocs()
	for b.Loop() {
		if g.histN == 0 {
			g = start
		}
		if _, err := g.Apply(k.Simple(k.Undo)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSoloPlayout(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	var buf []k.Action
	var g Game
	deal := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		deal++
		g = Game{}
		g.code.Kind, g.code.Draw, g.code.Deal = 0, 1, deal
		ng, _ := New(g.code)
		g = *ng
		for n := 0; n < 1000; n++ {
			buf = legalActions(&g, buf)
			if len(buf) == 0 {
				break
			}
			if _, err := g.Apply(buf[r.IntN(len(buf))]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkView(b *testing.B) {
	pristine, acts := recordGame(b, "DS1-D1N-AAAAAAB", 300)
	g := pristine
	for _, a := range acts[:100] {
		if _, err := g.Apply(a); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = g.View()
	}
}

// nearEnd is the first position of the solver's winning line of
// DS1-D1N-AAAAAAA where a finish is legal: 22 cards left in two columns.
const nearEnd = `
c1: KS QD JS TD 9S 8D 7S 6D 5S 4D
c2: KD QS JD TS 9D 8S 7D 6S 5D 4S 3D
c6: 2D
f1: AS..KS
f2: AS 2S 3S
f3: AH..KH
f4: AH..KH
f5: AD..KD
f6: AD
f7: AC..KC
f8: AC..KC
draw: 1 scoring: normal score: 225
`

// BenchmarkViewFinish is the view of positions where a finish is legal: the
// first view after an action (which decides the finish with the solver), a
// view again at the same position (the decision kept), and the decision
// alone.
func BenchmarkViewFinish(b *testing.B) {
	for _, bc := range []struct{ name, pos string }{
		{"near-end", nearEnd},
		{"deep-waste-vegas", deepWaste + "draw: 3 scoring: vegas"},
	} {
		g := mustPosition(b, bc.pos)
		if !g.CanFinish() {
			b.Fatalf("%s: no finish", bc.name)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g.finishAt = nil
				_ = g.View()
			}
		})
		b.Run(bc.name+"-again", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = g.View()
			}
		})
		b.Run(bc.name+"-decide", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g.finishAt = nil
				_ = g.CanFinish()
			}
		})
	}
}
