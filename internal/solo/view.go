package solo

import (
	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// ColumnView is a column as a player sees it: how many cards are face down,
// and the face-up cards bottom first.
type ColumnView struct {
	Down int      `json:"down"`
	Up   []string `json:"up"`
}

// View is what a player sees of a solo game (the solo game view of the API,
// without the id and seq that the server adds). Face-down cards and the stock
// order never appear in it.
type View struct {
	Kind        string       `json:"kind"`
	Code        string       `json:"code,omitempty"` // empty for a daily challenge's game (its server leaves it out)
	Draw        int          `json:"draw"`
	Scoring     string       `json:"scoring"`
	Status      string       `json:"status"`
	Score       int          `json:"score"`
	Moves       int          `json:"moves"`
	Undo        int          `json:"undo"`
	Stuck       bool         `json:"stuck"`
	Finish      bool         `json:"finish"` // a finish action is legal
	Stock       int          `json:"stock"`
	Waste       []string     `json:"waste"`
	Foundations [][]string   `json:"foundations"`
	Columns     []ColumnView `json:"columns"`
}

// Scoring returns "normal" or "vegas" for a code.
func Scoring(c cards.Code) string {
	if c.Vegas {
		return "vegas"
	}
	return "normal"
}

// View projects the game to what its player may see. It is the only way game
// state leaves the engine.
func (g *Game) View() View {
	v := View{
		Kind:        "solo",
		Code:        g.code.String(),
		Draw:        g.code.Draw,
		Scoring:     Scoring(g.code),
		Status:      g.status.String(),
		Score:       int(g.score),
		Moves:       int(g.moves),
		Undo:        g.histN,
		Stuck:       g.Stuck(),
		Finish:      g.CanFinish(),
		Stock:       int(g.board.NStock),
		Foundations: make([][]string, 8),
		Columns:     make([]ColumnView, Columns),
	}
	// Every pile's texts in one backing array: a view costs a few
	// allocations, not one per pile.
	texts := cards.NewTexts(2 * 52)
	v.Waste = texts.Of(g.board.Waste[:g.board.NWaste])
	for i := range v.Foundations {
		v.Foundations[i] = texts.Of(g.found.Piles[i][:g.found.N[i]])
	}
	for i := range v.Columns {
		col := &g.board.Cols[i]
		v.Columns[i] = ColumnView{Down: int(col.Down), Up: texts.Of(col.Up())}
	}
	return v
}

// Texts returns the text forms of cards, never nil.
func Texts(cs []cards.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// Deal is the full deal of a code, hidden cards included: for `dsol deal` and
// for checking deals, never for players.
type Deal struct {
	Code    string     `json:"code"`
	Columns [][]string `json:"columns"`
	Stock   []string   `json:"stock"`
}

// DealOf lists the deal of a solo code: each column bottom first, the stock in
// draw order.
func DealOf(code cards.Code) Deal {
	var b k.Board
	deck := cards.SoloDeck(code)
	b.Deal(deck[:], Columns, code.Draw, !code.Vegas)
	d := Deal{Code: code.String(), Columns: make([][]string, Columns), Stock: Texts(b.StockCards())}
	for i := range d.Columns {
		d.Columns[i] = Texts(b.Cols[i].Cards[:b.Cols[i].N])
	}
	return d
}
