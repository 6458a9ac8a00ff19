package solo

import k "dsol/internal/klondike"

// naiveLimit bounds naiveSearch; positions that need more are not compared.
const naiveLimit = 30000

// naiveSearch is the stuck rule written as plainly as possible
// (klondike.PlainBlocked) on the game's board and foundations.
func naiveSearch(g *Game) (blocked, complete bool) {
	return k.PlainBlocked(&g.board, &g.found, naiveLimit)
}

// naiveBlocked is naiveSearch for positions known to be small.
func naiveBlocked(g *Game) bool {
	if g.status == Won {
		return false
	}
	blocked, complete := naiveSearch(g)
	if !complete {
		panic("naiveBlocked: position too large")
	}
	return blocked
}
