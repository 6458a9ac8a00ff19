package race

import k "dsol/internal/klondike"

// Seen is what the player in a seat has seen of a race, and all that a fair
// player — the bot, a hint — may decide from: the race views the seat has
// received and nothing else. Both boards are masked (klondike.Seen): a
// seat's face-down cards never appear, and its stock cards only once it has
// recycled, when they all came from a waste everyone saw. That holds for
// the opponent's board as much as for the seat's own, since every viewer is
// shown the same views. The race's code is left out: a public code tells
// the whole deal.
//
// A Seen has no pointers, so it is an independent copy, and two Seens are
// equal (==) exactly when they show the same.
type Seen struct {
	Seat   int           // the seat whose player this is: 1 or 2
	Boards [Seats]k.Seen // seat s's board is Boards[s-1]
	Found  k.Foundations // the shared foundations
	// Blocked are the flags the views show (false once the race is over).
	// They are worked out from the whole boards, hidden cards included, but
	// every player is shown them.
	Blocked [Seats]bool
	Turn    int     // the seat to play in an alternating race in play, else 0
	Status  Status  // Playing or Over
	Options Options // the race's options
}

// Seen projects the race for the player in seat (1 or 2). It is a pure
// projection of the engine's state, so the same actions give the same Seen.
func (r *Race) Seen(seat int) Seen {
	s := Seen{Seat: seat, Found: r.found, Turn: r.Turn(), Status: r.status, Options: r.opts}
	for i := range s.Boards {
		s.Boards[i] = r.boards[i].Seen(r.recycled[i])
		s.Blocked[i] = r.status == Playing && r.Blocked(i+1)
	}
	return s
}
