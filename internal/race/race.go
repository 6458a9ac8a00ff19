// Package race is the two-player race engine (docs/rules.md §3): each seat
// plays its own 52-card Klondike of 7 columns onto 8 shared foundations, in
// simultaneous or alternating turns, until a seat goes out, both seats are
// blocked, or a seat resigns or forfeits. It plays by the same rule code as the
// solo engine (package klondike) and is pure and deterministic: no clock, no
// I/O, no randomness — the same code, options and actions always give the same
// race.
package race

import (
	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// Limits of a race.
const (
	Seats        = 2
	Columns      = 7
	CardsPerSeat = 52
)

// Status of a race.
type Status uint8

// Race statuses.
const (
	Playing Status = iota
	Over
)

// String returns "playing" or "over".
func (s Status) String() string {
	if s == Over {
		return "over"
	}
	return "playing"
}

// Reason tells why a race ended.
type Reason uint8

// End reasons (docs/rules.md §3.5).
const (
	NotOver     Reason = iota
	Out                // a seat has all its cards on the foundations
	BothBlocked        // both seats are blocked at once
	Resigned           // a seat resigned
	Forfeited          // a seat forfeited (disconnected past the grace period)
	Limit              // the race reached klondike.MaxActions: decided by count
	TimeUp             // its arena's time ran out (klondike.TimeUp): decided by count
)

// String returns the wire name: "out", "blocked", "resign", "forfeit",
// "limit", "time" (or "").
func (r Reason) String() string {
	switch r {
	case Out:
		return "out"
	case BothBlocked:
		return "blocked"
	case Resigned:
		return "resign"
	case Forfeited:
		return "forfeit"
	case Limit:
		return "limit"
	case TimeUp:
		return "time"
	}
	return ""
}

// Result is the end of a race. Winner is 1 or 2, or 0 for a draw (no
// foundation play at all and equal counts). Counts are each seat's own cards
// on the foundations. LastPlay is the seat that made the last foundation play
// (0: none). Loser is the seat that resigned or forfeited (0 otherwise).
type Result struct {
	Winner   int
	Reason   Reason
	Counts   [Seats]int
	LastPlay int
	Loser    int
}

// Outcome describes an accepted action.
type Outcome struct {
	Seat       int      // the seat that acted (for a claim: the claimant)
	Action     k.Action // as resolved: tap, dtap and f become concrete targets
	Flipped    bool     // a face-down card was turned over
	Foundation bool     // a card went to a foundation
	TurnEnded  bool     // alternating: the turn passed to the other seat
	Over       bool     // the action ended the race; see Result
}

const (
	unknown int8 = iota
	isBlocked
	notBlocked
)

// Race is one race in play. It holds no pointers, so a copy (*r) is an
// independent race. The zero value is not usable; call New.
type Race struct {
	code    cards.Code
	opts    Options
	boards  [Seats]k.Board
	found   k.Foundations
	counts  [Seats]int16
	turn    int8 // alternating: 1 or 2
	last    int8 // seat of the last foundation play, 0 none
	status  Status
	result  Result
	blocked [Seats]int8 // cache: unknown, isBlocked, notBlocked
	actions int32
	// recycled: the seat has turned its waste over at least once, so its
	// stock is known to both players (see klondike.Seen).
	recycled [Seats]bool
}

// New deals the race of a DR1 or DR2 code with the given options.
func New(code cards.Code, opts Options) (*Race, error) {
	return deal(code, opts, cards.RaceDecks(code))
}

// deal starts a race of code's rules with the given options on explicit
// decks, each in dealing order (see klondike.Board.Deal) and holding its
// seat's own 52 cards.
func deal(code cards.Code, opts Options, decks [Seats][CardsPerSeat]cards.Card) (*Race, error) {
	r := &Race{}
	if err := r.init(code, opts); err != nil {
		return nil, err
	}
	for s := range decks {
		r.boards[s].Deal(decks[s][:], Columns, code.Draw, !code.Single)
	}
	r.checkEnd()
	return r, nil
}

func (r *Race) init(code cards.Code, opts Options) error {
	if code.Kind != cards.Race || !code.Valid() {
		return k.Errorf(k.BadRequest, "not a playable race code") // never the code itself: it tells the deal
	}
	if opts.Turns > Alternating {
		return k.Errorf(k.BadRequest, "unknown turn mode %d", opts.Turns)
	}
	if opts.Series < 0 {
		return k.Errorf(k.BadRequest, "a series has at least one game")
	}
	if opts.Turns == Alternating {
		switch {
		case opts.First == FirstCreator && opts.FirstSeat == 0:
			opts.FirstSeat = 1
		case opts.First == FirstOpponent && opts.FirstSeat == 0:
			opts.FirstSeat = 2
		}
		want := opts.First.Seat(func() int { return opts.FirstSeat - 1 })
		if opts.First > FirstOpponent || opts.FirstSeat != want || (opts.FirstSeat != 1 && opts.FirstSeat != 2) {
			return k.Errorf(k.BadRequest, "an alternating race needs its first seat (1 or 2) matching the %s rule", opts.First)
		}
		r.turn = int8(opts.FirstSeat)
	}
	r.code, r.opts = code, opts
	return nil
}

// Code returns the race's code.
func (r *Race) Code() cards.Code { return r.code }

// Options returns the race's options (with FirstSeat resolved).
func (r *Race) Options() Options { return r.opts }

// Status returns Playing or Over.
func (r *Race) Status() Status { return r.status }

// Result returns the result once the race is over (Reason NotOver before).
func (r *Race) Result() Result { return r.result }

// Turn returns the seat whose turn it is in an alternating race in play, else 0.
func (r *Race) Turn() int {
	if r.status == Over {
		return 0
	}
	return int(r.turn)
}

// Count returns how many of seat's own cards are on the foundations.
func (r *Race) Count(seat int) int { return int(r.counts[seat-1]) }

// Actions returns how many actions were accepted.
func (r *Race) Actions() int { return int(r.actions) }

// Board returns seat's board for inspection (read only).
func (r *Race) Board(seat int) *k.Board { return &r.boards[seat-1] }

// Foundations returns the shared foundations for inspection (read only). The
// seat of a foundation card is its Deck()+1.
func (r *Race) Foundations() *k.Foundations { return &r.found }

// Blocked reports whether seat is blocked (docs/rules.md §4): on its own
// board, with the shared foundations frozen, no sequence of its own column
// moves, waste-to-column moves, draws and recycles leads to a foundation play
// or a face-down card turned over. A bounded search (klondike.SearchLimit)
// that reaches its bound reports false. The answer is cached until the seat's
// board or the foundations change.
func (r *Race) Blocked(seat int) bool {
	i := seat - 1
	if r.blocked[i] == unknown {
		r.blocked[i] = notBlocked
		if !r.stockPlays(i) && k.Blocked(&r.boards[i], &r.found) {
			r.blocked[i] = isBlocked
		}
	}
	return r.blocked[i] == isBlocked
}

// stockPlays is a shortcut of the blocked search for draw 1: every stock
// card, and with unlimited redeals every waste card, comes up as the waste
// top by draws and recycles alone, so one that a foundation takes means
// "not blocked" — the answer the search would give, found without it.
func (r *Race) stockPlays(i int) bool {
	b := &r.boards[i]
	if b.DrawCount != 1 {
		return false
	}
	for _, c := range b.Stock[:b.NStock] {
		if r.found.FirstSlot(c) >= 0 {
			return true
		}
	}
	if b.CanRecycle {
		for _, c := range b.Waste[:b.NWaste] {
			if r.found.FirstSlot(c) >= 0 {
				return true
			}
		}
	}
	return false
}

func (r *Race) table(seat int) k.Table {
	return k.Table{B: &r.boards[seat-1], F: &r.found}
}
