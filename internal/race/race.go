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

// Turns is how the seats take turns.
type Turns uint8

// Turn modes. Simultaneous is the default (the zero value).
const (
	Simultaneous Turns = iota
	Alternating
)

// String returns "simultaneous" or "alternating".
func (t Turns) String() string {
	if t == Alternating {
		return "alternating"
	}
	return "simultaneous"
}

// ParseTurns reads "simultaneous" or "alternating" (the empty string is the
// default, simultaneous).
func ParseTurns(s string) (Turns, bool) {
	switch s {
	case "", "simultaneous":
		return Simultaneous, true
	case "alternating":
		return Alternating, true
	}
	return Simultaneous, false
}

// FirstPlayer is the agreed first player of an alternating race.
type FirstPlayer uint8

// First-player choices. Random is the default (the zero value).
const (
	FirstRandom   FirstPlayer = iota
	FirstCreator              // seat 1
	FirstOpponent             // seat 2
)

// String returns "random", "creator" or "opponent".
func (f FirstPlayer) String() string {
	switch f {
	case FirstCreator:
		return "creator"
	case FirstOpponent:
		return "opponent"
	}
	return "random"
}

// ParseFirst reads "random", "creator" or "opponent" (the empty string is
// the default, random).
func ParseFirst(s string) (FirstPlayer, bool) {
	switch s {
	case "", "random":
		return FirstRandom, true
	case "creator":
		return FirstCreator, true
	case "opponent":
		return FirstOpponent, true
	}
	return FirstRandom, false
}

// Seat returns the seat that starts: 1 for the creator, 2 for the opponent;
// for random, coin decides — coin() returns 0 or 1 and comes from the caller's
// random source, so the engine itself stays deterministic. The caller stores
// the seat it got (in Options.FirstSeat) so that a replay starts the same way.
func (f FirstPlayer) Seat(coin func() int) int {
	switch f {
	case FirstCreator:
		return 1
	case FirstOpponent:
		return 2
	}
	return 1 + coin()&1
}

// Options are the settings of a race that its DR1 code does not carry (the
// code gives draw 1/3, unlimited/single redeal and independent/mirrored decks).
type Options struct {
	Turns Turns
	// First is the agreed first-player rule of an alternating race, and
	// FirstSeat the seat it chose (1 or 2). For FirstCreator and FirstOpponent
	// a zero FirstSeat is filled in; FirstRandom needs the seat the caller drew
	// with First.Seat. Simultaneous races ignore both.
	First     FirstPlayer
	FirstSeat int
	// SoloOutBonus: the seat that goes out wins whatever the counts.
	SoloOutBonus bool
	// Series is the number of games of the series this race belongs to (0 or
	// 1: a single game). The engine only checks it and keeps it (Options);
	// the live state of the race's table (package live) adds up each seat's
	// counts over the games of the series.
	Series int
}

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
)

// String returns the wire name: "out", "blocked", "resign", "forfeit" (or "").
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
// absent seat itself.
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
	if a.Type == 0 || a.Type > k.Forfeit {
		return Outcome{}, errUnknown
	}
	if r.status == Over {
		return Outcome{}, errOver
	}
	out := Outcome{Seat: seat, Action: k.Simple(a.Type)}
	switch a.Type {
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

// checkEnd ends the race when a seat is out or both seats are blocked, and
// reports whether it is over.
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
