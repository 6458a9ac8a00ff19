// Package solo is the solo Double Klondike engine: two decks, nine columns,
// draw 1 or 3, Normal or Vegas scoring, tap and double tap, recovery from the
// foundations and 200 undos, exactly as docs/rules.md §2 describes. It is
// pure and deterministic: the same code and actions always give the same game.
package solo

import (
	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// Limits and scores of docs/rules.md §2.6, §2.9 and §2.10.
const (
	Columns      = 9
	TotalCards   = 104
	UndoLimit    = 200
	VegasStart   = -104
	recyclePrice = 100
)

// Status of a solo game.
type Status uint8

// Solo statuses.
const (
	Playing Status = iota
	Won
)

// String returns "playing" or "won".
func (s Status) String() string {
	if s == Won {
		return "won"
	}
	return "playing"
}

// Outcome describes an accepted action.
type Outcome struct {
	Action  k.Action // the action as resolved: tap, dtap and f become concrete targets
	Flipped bool     // a face-down card was turned over
	Delta   int      // points (Normal) or dollars (Vegas) the action applied
	Won     bool     // the action completed the game
}

type undoEntry struct {
	step  k.Step
	delta int32
}

// Game is one solo game in play. The zero value is not usable; call New.
type Game struct {
	code   cards.Code
	board  k.Board
	found  k.Foundations
	score  int32
	moves  int32
	status Status
	// recycled: the waste has been turned over at least once (an undone
	// recycle counts too: by then the player had seen every talon card).
	recycled bool

	hist  [UndoLimit]undoEntry // ring buffer of undoable steps
	histN int                  // how many entries are valid
	histI int                  // index of the next entry to write

	// beforeFinish is the position the last finish started from: its undo
	// step puts it back (a finish is one undo step however many moves it made).
	beforeFinish position
	// finishAt is what a finish from the current position would do, once
	// asked (nil: not asked since the last change). The plan it points to
	// never changes, so copies of a Game may share it.
	finishAt *finishPlan
}

// position is the cards of a game: board and foundations.
type position struct {
	board k.Board
	found k.Foundations
}

// New deals the game of a DS1 code.
func New(code cards.Code) (*Game, error) {
	if code.Kind != cards.Solo || !code.Valid() {
		return nil, k.Errorf(k.BadRequest, "%s is not a solo game code", code)
	}
	g := &Game{code: code}
	deck := cards.SoloDeck(code)
	g.board.Deal(deck[:], Columns, code.Draw, !code.Vegas)
	if code.Vegas {
		g.score = VegasStart
	}
	return g, nil
}

// Code returns the game's code.
func (g *Game) Code() cards.Code { return g.code }

// Score returns the points (Normal) or dollars (Vegas).
func (g *Game) Score() int { return int(g.score) }

// Moves returns the move counter: accepted actions other than undo.
func (g *Game) Moves() int { return int(g.moves) }

// Status returns Playing or Won.
func (g *Game) Status() Status { return g.status }

// Board returns the board for inspection (read only).
func (g *Game) Board() *k.Board { return &g.board }

// Foundations returns the foundations for inspection (read only).
func (g *Game) Foundations() *k.Foundations { return &g.found }

// Stuck reports whether no useful move is left (docs/rules.md §4): no
// sequence of column moves, waste-to-column moves, draws and recycles leads to
// a foundation play or a face-down card turned over. The search is bounded by
// klondike.SearchLimit positions; hitting the bound reports false. A won game
// is not stuck.
func (g *Game) Stuck() bool {
	return g.status == Playing && k.Blocked(&g.board, &g.found)
}

// Seen is what the player has seen of the board (klondike.Seen): the
// face-up cards, the whole waste, the counts, and the stock once the waste
// has been turned over. Hints decide from it and the foundations only.
func (g *Game) Seen() k.Seen { return g.board.Seen(g.recycled) }

func (g *Game) table() k.Table { return k.Table{B: &g.board, F: &g.found, AllowRecovery: true} }

var (
	errOver       = &k.Error{Code: k.GameOver, Msg: "the game is won; start a new one"}
	errEmptyStock = &k.Error{Code: k.IllegalMove, Msg: "the stock is empty: recycle the waste"}
	errNoUndo     = &k.Error{Code: k.IllegalMove, Msg: "there is nothing to undo"}
	errVegas      = &k.Error{Code: k.IllegalMove, Msg: "Vegas scoring deals the stock only once"}
	errStockLeft  = &k.Error{Code: k.IllegalMove, Msg: "the stock still has cards: draw them first"}
	errNoWaste    = &k.Error{Code: k.IllegalMove, Msg: "the waste is empty: nothing to recycle"}
)

// Apply performs one action, or refuses it with a *klondike.Error and changes
// nothing. It allocates nothing for legal actions other than finish.
func (g *Game) Apply(a k.Action) (Outcome, error) {
	if g.status == Won {
		return Outcome{}, errOver
	}
	switch a.Type {
	case k.Undo:
		return g.undo()
	case k.Finish:
		return g.finish()
	}
	st, err := g.do(a)
	if err != nil {
		return Outcome{}, err
	}
	delta := g.score1(st)
	g.record(undoEntry{step: st, delta: delta})
	return Outcome{Action: resolved(st), Flipped: st.Flipped, Delta: int(delta), Won: g.checkWon()}, nil
}

// do performs a move, tap, double tap, draw or recycle on the board, or
// refuses it and changes nothing.
func (g *Game) do(a k.Action) (k.Step, error) {
	switch a.Type {
	case k.Move, k.Tap, k.DTap:
		t := g.table()
		from, to, count, err := t.Resolve(a)
		if err != nil {
			return k.Step{}, err
		}
		return t.DoMove(from, to, count), nil
	case k.Draw:
		if g.board.NStock == 0 {
			return k.Step{}, errEmptyStock
		}
		n := g.board.DrawCards()
		return k.Step{Type: k.Draw, Count: uint8(n), Card: g.board.WasteTop()}, nil
	case k.Recycle:
		switch {
		case g.code.Vegas:
			return k.Step{}, errVegas
		case g.board.NStock > 0:
			return k.Step{}, errStockLeft
		case g.board.NWaste == 0:
			return k.Step{}, errNoWaste
		}
		g.board.RecycleWaste()
		g.recycled = true
		return k.Step{Type: k.Recycle}, nil
	}
	return k.Step{}, k.Errorf(k.BadRequest, "%s is not a solo action", a.Type)
}

// score1 scores a performed step and counts it as one move.
func (g *Game) score1(st k.Step) int32 {
	delta := g.points(st)
	g.score += delta
	g.moves++
	g.finishAt = nil
	return delta
}

// record adds an undo step to the history.
func (g *Game) record(e undoEntry) {
	g.hist[g.histI] = e
	g.histI = (g.histI + 1) % UndoLimit
	g.histN = min(g.histN+1, UndoLimit)
}

// checkWon marks the game won when every card is up and reports it.
func (g *Game) checkWon() bool {
	if g.found.Total() == TotalCards {
		g.status = Won
	}
	return g.status == Won
}

// points scores a step by the game's scoring.
func (g *Game) points(st k.Step) int32 {
	toF := st.Type == k.Move && st.To.IsSlot()
	if g.code.Vegas {
		if toF {
			return 5
		}
		return 0
	}
	var p int32
	switch {
	case toF:
		p = 10
	case st.Type == k.Move && st.From == k.Waste:
		p = 5
	case st.Type == k.Recycle:
		p = -min(recyclePrice, g.score)
	}
	if st.Flipped {
		p += 5
	}
	return p
}

func (g *Game) undo() (Outcome, error) {
	if g.histN == 0 {
		return Outcome{}, errNoUndo
	}
	g.histI = (g.histI + UndoLimit - 1) % UndoLimit
	g.histN--
	e := g.hist[g.histI]
	if e.step.Type == k.Finish {
		g.board, g.found = g.beforeFinish.board, g.beforeFinish.found
	} else {
		g.table().Undo(e.step)
	}
	g.score -= e.delta
	g.finishAt = nil
	return Outcome{Action: k.Simple(k.Undo), Flipped: e.step.Flipped, Delta: -int(e.delta)}, nil
}

func resolved(st k.Step) k.Action {
	switch st.Type {
	case k.Draw, k.Recycle:
		return k.Simple(st.Type)
	}
	return k.NewMove(st.From, st.To, int(st.Count))
}
