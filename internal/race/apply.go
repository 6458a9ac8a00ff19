package race

import (
	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

var (
	errSeat       = &k.Error{Code: k.BadRequest, Msg: "a race has seats 1 and 2"}
	errOver       = &k.Error{Code: k.GameOver, Msg: "the race is over"}
	errTurn       = &k.Error{Code: k.NotYourTurn, Msg: "it is the other player's turn"}
	errUndo       = &k.Error{Code: k.BadRequest, Msg: "there is no undo in a race"}
	errFinish     = &k.Error{Code: k.BadRequest, Msg: "there is no finish in a race: every card is played by hand"}
	errPassSim    = &k.Error{Code: k.IllegalMove, Msg: "a simultaneous race has no turns to pass: a blocked player waits"}
	errEmptyStock = &k.Error{Code: k.IllegalMove, Msg: "the stock is empty: recycle the waste"}
	errEmptyOnce  = &k.Error{Code: k.IllegalMove, Msg: "the stock is empty and this race deals it only once"}
	errSingle     = &k.Error{Code: k.IllegalMove, Msg: "this race deals the stock only once"}
	errStockLeft  = &k.Error{Code: k.IllegalMove, Msg: "the stock still has cards: draw them first"}
	errNoWaste    = &k.Error{Code: k.IllegalMove, Msg: "the waste is empty: nothing to recycle"}
	errTooLate    = &k.Error{Code: k.TooLate, Msg: "the other player filled that foundation spot first"}
	errUnknown    = &k.Error{Code: k.BadRequest, Msg: "unknown action type"}
)

// Apply performs one action of seat (1 or 2), or refuses it with a
// *klondike.Error and changes nothing. Pile names refer to the acting seat's
// own board; foundation slots are shared. It allocates nothing for legal
// actions.
//
// Resign, Forfeit and Claim are accepted at any time, on turn or not, and end
// the race: Resign and Forfeit by seat make seat lose; Claim by seat makes the
// other seat forfeit (seat wins, reason "forfeit"). The engine knows no clock:
// the live game layer must accept a claim only after the opponent stayed
// disconnected past the grace period, and may instead apply Forfeit for the
// absent seat itself. TimeUp (the server's, for either seat) ends the race
// by count at any time, as when both seats are blocked.
//
// In an alternating race, other actions off turn get not_your_turn; a draw
// ends the turn after it happens, a pass ends it, a recycle does not. In a
// simultaneous race actions apply in arrival order and pass is refused; a
// foundation play that fails only because the opponent's card of the same
// face already took the spot gets too_late.
func (r *Race) Apply(seat int, a k.Action) (Outcome, error) {
	if seat != 1 && seat != 2 {
		return Outcome{}, errSeat
	}
	switch a.Type {
	case k.Undo:
		return Outcome{}, errUndo
	case k.Finish:
		return Outcome{}, errFinish
	}
	if a.Type == 0 || (a.Type > k.Forfeit && a.Type != k.TimeUp) {
		return Outcome{}, errUnknown
	}
	if r.status == Over {
		return Outcome{}, errOver
	}
	out := Outcome{Seat: seat, Action: k.Simple(a.Type)}
	switch a.Type {
	case k.TimeUp:
		r.end(TimeUp, 0)
		r.result.Winner = r.winner(0)
		out.Over = true
		r.actions++
		return out, nil
	case k.Resign, k.Forfeit:
		r.end(reasonOf(a.Type), seat)
		out.Over = true
		r.actions++
		return out, nil
	case k.Claim:
		r.end(Forfeited, 3-seat)
		out.Over = true
		r.actions++
		return out, nil
	}
	if r.opts.Turns == Alternating && int(r.turn) != seat {
		return Outcome{}, errTurn
	}
	i := seat - 1
	b := &r.boards[i]
	switch a.Type {
	case k.Move, k.Tap, k.DTap:
		t := r.table(seat)
		from, to, count, err := t.Resolve(a)
		if err != nil {
			if r.tooLate(seat, a) {
				return Outcome{}, errTooLate
			}
			return Outcome{}, err
		}
		st := t.DoMove(from, to, count)
		out.Action = k.NewMove(st.From, st.To, int(st.Count))
		out.Flipped = st.Flipped
		r.blocked[i] = unknown
		if to.IsSlot() {
			out.Foundation = true
			r.counts[i]++
			r.last = int8(seat)
			r.blocked[1-i] = unknown
		}
	case k.Draw:
		if b.NStock == 0 {
			if r.code.Single {
				return Outcome{}, errEmptyOnce
			}
			return Outcome{}, errEmptyStock
		}
		b.DrawCards()
		r.blocked[i] = unknown
		if r.opts.Turns == Alternating {
			r.turn = int8(3 - seat)
			out.TurnEnded = true
		}
	case k.Recycle:
		switch {
		case r.code.Single:
			return Outcome{}, errSingle
		case b.NStock > 0:
			return Outcome{}, errStockLeft
		case b.NWaste == 0:
			return Outcome{}, errNoWaste
		}
		b.RecycleWaste()
		r.blocked[i] = unknown
		r.recycled[i] = true
	case k.Pass:
		if r.opts.Turns != Alternating {
			return Outcome{}, errPassSim
		}
		r.turn = int8(3 - seat)
		out.TurnEnded = true
	}
	r.actions++
	out.Over = r.checkEnd()
	return out, nil
}

func reasonOf(t k.Type) Reason {
	if t == k.Resign {
		return Resigned
	}
	return Forfeited
}

// tooLate reports whether a refused foundation play of a simultaneous race
// failed only because the opponent's copy of the card took the spot: the
// named slot's top (for f and tap: a slot of the card's row) is the
// opponent's card of the same face.
func (r *Race) tooLate(seat int, a k.Action) bool {
	if r.opts.Turns != Simultaneous {
		return false
	}
	to := a.To
	switch a.Type {
	case k.Tap:
		to = k.AnyF
	case k.Move:
		if a.Count > 1 {
			return false
		}
	default:
		return false
	}
	if !to.IsFoundation() {
		return false
	}
	b := &r.boards[seat-1]
	c := cards.None
	switch {
	case a.From == k.Waste:
		c = b.WasteTop()
	case a.From.IsColumn() && int(a.From) < int(b.NCols):
		c = b.Cols[a.From].Top()
	}
	if c == cards.None {
		return false
	}
	taken := func(slot int) bool {
		t := r.found.Top(slot)
		return t != cards.None && t.Face() == c.Face() && t.Deck() != c.Deck()
	}
	if to == k.AnyF {
		row := 2 * int(c.Suit())
		return taken(row) || taken(row+1)
	}
	return taken(int(to - k.F1))
}

// checkEnd ends the race when a seat is out, both seats are blocked or it
// reached klondike.MaxActions, and reports whether it is over.
func (r *Race) checkEnd() bool {
	for s := 1; s <= Seats; s++ {
		if r.boards[s-1].CardsLeft() == 0 {
			r.end(Out, 0)
			r.result.Winner = r.winner(s)
			return true
		}
	}
	// Look at a seat with a cached "not blocked" first: no search needed.
	first := 1
	if r.blocked[1] == notBlocked {
		first = 2
	}
	if r.Blocked(first) && r.Blocked(3-first) {
		r.end(BothBlocked, 0)
		r.result.Winner = r.winner(0)
		return true
	}
	if r.actions >= k.MaxActions {
		r.end(Limit, 0)
		r.result.Winner = r.winner(0)
		return true
	}
	return false
}

// end closes the race; loser is the seat that resigned or forfeited, if any.
func (r *Race) end(reason Reason, loser int) {
	r.status = Over
	r.result = Result{Reason: reason, LastPlay: int(r.last), Loser: loser,
		Counts: [Seats]int{int(r.counts[0]), int(r.counts[1])}}
	if loser != 0 {
		r.result.Winner = 3 - loser
	}
}

// winner applies the result rules: the out seat with the solo-out bonus; else
// more cards wins; a tie goes to the seat of the last foundation play; no
// foundation play at all is a draw (0).
func (r *Race) winner(out int) int {
	if out != 0 && r.opts.SoloOutBonus {
		return out
	}
	switch c := r.counts; {
	case c[0] > c[1]:
		return 1
	case c[1] > c[0]:
		return 2
	}
	return int(r.last)
}
