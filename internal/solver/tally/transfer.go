package tally

import "dsol/internal/cards"

// covers reports whether every line of mode b plays, in mode a, on the same
// deal: a game of a has at least the lines of b. Vegas's single pass is
// Normal without recycles, so Normal covers Vegas of the same draw; and a
// draw of three is three draws of one that turn up the same cards in the
// same order (fewer at the end of the stock), with a recycle turning the
// same waste over, so draw 1 covers draw 3 of the same scoring.
func covers(a, b cards.Code) bool {
	return (!a.Vegas || b.Vegas) && (a.Draw == 1 || b.Draw == 3)
}

// Transfer returns what verdict v of a deal in mode from proves of the same
// deal in mode to (the same deal number, or the same secret): a win
// carries to every mode that covers from, a proof of no win to every mode
// that from covers; otherwise Unknown. So Normal's Unwinnable carries to
// Vegas of the same draw, Vegas's Won to Normal, draw 3's Won to draw 1 and
// draw 1's Unwinnable to draw 3.
func Transfer(from cards.Code, v Verdict, to cards.Code) Verdict {
	if from.Kind != cards.Solo || to.Kind != cards.Solo || from.Secret != to.Secret ||
		from.Deal != to.Deal || from.Key != to.Key {
		return Unknown
	}
	switch {
	case v == Won && covers(to, from):
		return Won
	case v == Unwinnable && covers(from, to):
		return Unwinnable
	}
	return Unknown
}
