package race

import (
	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// ColumnView is a column as everyone sees it: how many cards are face down,
// and the face-up cards bottom first.
type ColumnView struct {
	Down int      `json:"down"`
	Up   []string `json:"up"`
}

// FoundationCard is a card on a shared foundation with the seat it belongs to.
type FoundationCard struct {
	Card string `json:"card"`
	Seat int    `json:"seat"`
}

// SeatView is one seat's side of the table (the server adds "player" and
// "online"). The stock is a count; the waste lists all its cards, bottom first.
type SeatView struct {
	Columns []ColumnView `json:"columns"`
	Stock   int          `json:"stock"`
	Waste   []string     `json:"waste"`
	Count   int          `json:"count"`
	Blocked bool         `json:"blocked"`
}

// ResultView is the end of a race on the wire: winner 1, 2 or null (a draw).
type ResultView struct {
	Winner *int   `json:"winner"`
	Reason string `json:"reason"`
	Counts [2]int `json:"counts"`
}

// View is what a viewer sees of a race (the race view without the id, seq,
// players, presence, the "waiting" status and the code's commitment that the
// server adds). Face-down cards, the order of either stock and the race's
// code never appear in it: the code tells the whole deal, so the server
// shows it only once the race is over.
type View struct {
	Kind         string             `json:"kind"`
	Draw         int                `json:"draw"`
	Redeal       string             `json:"redeal"`
	Decks        string             `json:"decks"`
	Turns        string             `json:"turns"`
	SoloOutBonus bool               `json:"soloOutBonus"`
	Status       string             `json:"status"`
	Turn         *int               `json:"turn"`
	Foundations  [][]FoundationCard `json:"foundations"`
	Seats        []SeatView         `json:"seats"`
	Result       *ResultView        `json:"result"`
}

// Redeal returns "unlimited" or "single" for a race code.
func Redeal(c cards.Code) string {
	if c.Single {
		return "single"
	}
	return "unlimited"
}

// Decks returns "independent" or "mirrored" for a race code.
func Decks(c cards.Code) string {
	if c.Mirrored {
		return "mirrored"
	}
	return "independent"
}

// View projects the race for a viewer: 1 or 2 for a seated player, 0 for a
// spectator. Every viewer sees the same public information today (both seats'
// face-up cards, counts of face-down and stock cards); the parameter keeps the
// door open for private details. It is the only way race state leaves the
// engine (NextView is the same view, built after an earlier one).
func (r *Race) View(viewer int) View {
	_ = viewer
	return r.view(nil)
}

// NextView is View(0) built after prev, an earlier view of this race: every
// pile that is as it was in prev (a foundation, a waste, a seat's columns) is
// prev's own slice, not a copy, so an action costs the piles it changed.
// Views are read-only once built, which is what lets them share.
func (r *Race) NextView(prev *View) View {
	if prev == nil || len(prev.Foundations) != len(r.found.Piles) || len(prev.Seats) != Seats {
		return r.view(nil)
	}
	for s := range prev.Seats {
		if len(prev.Seats[s].Columns) != Columns {
			return r.view(nil)
		}
	}
	return r.view(prev)
}

// view builds the race's view, sharing prev's unchanged piles when prev is
// not nil (NextView has checked its shape).
func (r *Race) view(prev *View) View {
	v := View{
		Kind:         "race",
		Draw:         r.code.Draw,
		Redeal:       Redeal(r.code),
		Decks:        Decks(r.code),
		Turns:        r.opts.Turns.String(),
		SoloOutBonus: r.opts.SoloOutBonus,
		Status:       r.status.String(),
		Foundations:  make([][]FoundationCard, 8),
		Seats:        make([]SeatView, Seats),
	}
	if t := r.Turn(); t != 0 {
		v.Turn = &t
	}
	// What changed goes in fresh arrays, each of its exact size: the
	// foundations' cards in one, the piles' texts in another, each seat's
	// columns in a third; what did not change is prev's.
	nf, nt := 0, 0
	var keptF [8]bool
	var keptW, keptC [Seats]bool
	for i := range v.Foundations {
		pile := r.found.Piles[i][:r.found.N[i]]
		if prev != nil && sameFoundation(prev.Foundations[i], pile) {
			keptF[i] = true
			continue
		}
		nf += len(pile)
	}
	for s := range r.boards {
		b := &r.boards[s]
		if prev != nil && cards.SameTexts(prev.Seats[s].Waste, b.Waste[:b.NWaste]) {
			keptW[s] = true
		} else {
			nt += int(b.NWaste)
		}
		if prev != nil && sameColumns(prev.Seats[s].Columns, b) {
			keptC[s] = true
			continue
		}
		for i := range Columns {
			nt += len(b.Cols[i].Up())
		}
	}
	found := make([]FoundationCard, 0, nf) // never nil: an empty pile is []
	for i := range v.Foundations {
		if keptF[i] {
			v.Foundations[i] = prev.Foundations[i]
			continue
		}
		start := len(found)
		for _, c := range r.found.Piles[i][:r.found.N[i]] {
			found = append(found, FoundationCard{Card: c.String(), Seat: c.Deck() + 1})
		}
		v.Foundations[i] = found[start:len(found):len(found)]
	}
	texts := cards.NewTexts(nt)
	for s := range v.Seats {
		b := &r.boards[s]
		sv := SeatView{
			Stock:   int(b.NStock),
			Count:   int(r.counts[s]),
			Blocked: r.status == Playing && r.Blocked(s+1),
		}
		if keptW[s] {
			sv.Waste = prev.Seats[s].Waste
		} else {
			sv.Waste = texts.Of(b.Waste[:b.NWaste])
		}
		if keptC[s] {
			sv.Columns = prev.Seats[s].Columns
		} else {
			sv.Columns = make([]ColumnView, Columns)
			for i := range sv.Columns {
				sv.Columns[i] = ColumnView{Down: int(b.Cols[i].Down), Up: texts.Of(b.Cols[i].Up())}
			}
		}
		v.Seats[s] = sv
	}
	if r.status == Over {
		res := r.result
		rv := &ResultView{Reason: res.Reason.String(), Counts: res.Counts}
		if res.Winner != 0 {
			w := res.Winner
			rv.Winner = &w
		}
		v.Result = rv
	}
	return v
}

// sameFoundation reports whether a foundation of a view holds the cards of
// pile, each of the same seat.
func sameFoundation(fv []FoundationCard, pile []cards.Card) bool {
	if fv == nil || len(fv) != len(pile) {
		return false
	}
	for i, c := range pile {
		if fv[i].Card != c.String() || fv[i].Seat != c.Deck()+1 {
			return false
		}
	}
	return true
}

// sameColumns reports whether a seat's columns in a view are those of b:
// the same face-down counts and face-up cards.
func sameColumns(cols []ColumnView, b *k.Board) bool {
	for i := range cols {
		if cols[i].Down != int(b.Cols[i].Down) || !cards.SameTexts(cols[i].Up, b.Cols[i].Up()) {
			return false
		}
	}
	return true
}

// texts returns the text forms of cards, never nil.
func texts(cs []cards.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// SeatDeal is one seat's full deal: each column bottom first (its last card
// the face-up one), the stock in draw order.
type SeatDeal struct {
	Columns [][]string `json:"columns"`
	Stock   []string   `json:"stock"`
}

// Deal is the full deal of a race code, hidden cards included: for `dsol
// deal` and for checking deals, never for players.
type Deal struct {
	Code  string     `json:"code"`
	Seats []SeatDeal `json:"seats"`
}

// DealOf lists both seats' deals of a race code (cards.RaceDecks).
func DealOf(code cards.Code) Deal {
	d := Deal{Code: code.String(), Seats: make([]SeatDeal, Seats)}
	decks := cards.RaceDecks(code)
	for s := range d.Seats {
		var b k.Board
		b.Deal(decks[s][:], Columns, code.Draw, !code.Single)
		sd := SeatDeal{Columns: make([][]string, Columns), Stock: texts(b.StockCards())}
		for i := range sd.Columns {
			sd.Columns[i] = texts(b.Cols[i].Cards[:b.Cols[i].N])
		}
		d.Seats[s] = sd
	}
	return d
}
