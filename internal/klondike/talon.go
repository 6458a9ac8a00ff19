package klondike

import "fmt"

// TalonDraws is how a player brings the waste from w cards to q, with n
// cards in the stock and the waste together, drawing d at a time: forward
// by draws when they reach q (every d-th card onward, and the end of the
// stock), else by draws to the end of the stock (before), a recycle, and
// draws from the start. after is the draws that end on q.
func TalonDraws(w, n, d, q int) (before int, recycle bool, after int) {
	draws := func(k int) int { return (k + d - 1) / d }
	switch {
	case q == w:
		return 0, false, 0
	case q < w || ((q-w)%d != 0 && q != n):
		return draws(n - w), true, draws(q)
	}
	return 0, false, draws(q - w)
}

// BringUp appends to out the draws and the recycle (TalonDraws) that make
// b's waste hold q cards, and makes them on b. It fails when q needs a
// recycle that b does not allow, or when the draws pass over q.
func BringUp(b *Board, q int, out []Action) ([]Action, error) {
	if _, recycle, _ := TalonDraws(int(b.NWaste), int(b.NWaste)+int(b.NStock), int(b.DrawCount), q); recycle {
		for b.NStock > 0 {
			b.DrawCards()
			out = append(out, Simple(Draw))
		}
		if !b.CanRecycle {
			return out, fmt.Errorf("klondike: boundary %d is out of reach without a recycle", q)
		}
		b.RecycleWaste()
		out = append(out, Simple(Recycle))
	}
	for int(b.NWaste) < q {
		b.DrawCards()
		out = append(out, Simple(Draw))
	}
	if int(b.NWaste) != q {
		return out, fmt.Errorf("klondike: draws pass over boundary %d", q)
	}
	return out, nil
}

// Reachable writes to out the waste boundaries q (1 … tn, tn the cards of
// the stock and waste together, tw those of the waste) at which draws of
// draw cards, and recycles when allowed, bring the card at q to the top of
// the waste, and returns how many: tw itself, every draw-th one onward and
// the end of the stock, and with recycles every draw-th one from the start.
func Reachable(tw, tn, draw int, recycle bool, out *[MaxStock + 1]uint8) int {
	var seen uint64
	n := 0
	add := func(q int) {
		if q >= 1 && q <= tn && seen&(1<<q) == 0 {
			seen |= 1 << q
			out[n] = uint8(q)
			n++
		}
	}
	add(tw)
	for q := tw + draw; q < tn; q += draw {
		add(q)
	}
	add(tn)
	if recycle {
		for q := draw; q < tn; q += draw {
			add(q)
		}
	}
	return n
}
