package race

import (
	"testing"

	k "dsol/internal/klondike"
)

// slowBlocked is the slowest position for the blocked search among those of
// 3,000 races of the bot mixed with random moves (DSOL_SCAN_BLOCKED): seat 2,
// draw 1 without redeals early in the race, blocked; the search visits 1,013
// positions.
const slowBlocked = `
f1: AS2
f2: AS1
f5: AD2
last: 2
seat 1
c1: 7S 6H
c2: AC | 3S
c3: 6S JH | KC
c4: 2D TS | TH
c5: QD 8H 4H | 8S
c6: 5C JS KH 6D 7C | 4C
c7: KD AH QS QC 2S JC | 4S 3D
s: AD 8D 3H 6C KS TC 9C 2C 4D 8C TD 5H 7H 5D QH 2H 9H 9S 3C 7D JD 5S
w: 9D
seat 2
c1: 7S 6H
c2: AC | 3S
c3: 6S JH | KC
c4: 2D TS | TH
c5: QD 8H 4H | 8S
c6: 5C JS KH 6D 7C | 4C
c7: KD AH QS QC 2S JC | 4S 3D
s: 3H 6C KS TC 9C 2C 4D 8C TD 5H 7H 5D QH 2H 9H 9S 3C 7D JD 5S
w: 9D 8D
`

// BenchmarkBlocked runs the blocked search on a race board (the race's
// cache and its draw-1 shortcut left out).
func BenchmarkBlocked(b *testing.B) {
	r := mustPosition(b, "DR1-D1SM-OBJJGFA", Options{}, slowBlocked)
	if !k.Blocked(r.Board(2), r.Foundations()) {
		b.Fatal("the position is not blocked")
	}
	b.ReportAllocs()
	for b.Loop() {
		k.Blocked(r.Board(2), r.Foundations())
	}
}
