package tally

import (
	"fmt"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

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

// Carry rewrites a winning line of a deal in mode from for the same deal in
// mode to, when the win carries there (see Transfer): a draw-3 line becomes a
// draw-1 line (each draw of three as many draws of one as it turned up, see
// drawOne); a Vegas line plays unchanged in Normal, which only adds
// recycles. A win that does not carry is an error.
func Carry(from cards.Code, moves []k.Action, to cards.Code) ([]k.Action, error) {
	if Transfer(from, Won, to) != Won {
		return nil, fmt.Errorf("tally: a win of %s is not a win of %s", from, to)
	}
	if from.Draw == 3 && to.Draw == 1 {
		var b k.Board
		deck := cards.SoloDeck(from)
		b.Deal(deck[:], k.MaxColumns, from.Draw, !from.Vegas)
		return drawOne(&b, moves), nil
	}
	return moves, nil
}
