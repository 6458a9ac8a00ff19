package load

import (
	"fmt"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/load/client"
)

// playView is the part of a race view (the "game" of a state or an event)
// that the race modes read.
type playView struct {
	Status      string `json:"status"`
	You         *int   `json:"you"`
	Foundations [][]struct {
		Card string `json:"card"`
	} `json:"foundations"`
	Seats []seatView `json:"seats"`
}

// seatView is one seat's side of a race view.
type seatView struct {
	Columns []struct {
		Down int      `json:"down"`
		Up   []string `json:"up"`
	} `json:"columns"`
	Stock int      `json:"stock"`
	Waste []string `json:"waste"`
}

// seatOf returns the side of seat (1 or 2).
func (v *playView) seatOf(seat int) (*seatView, error) {
	if v.You != nil && *v.You != seat {
		return nil, &client.Error{Code: "bad_view", Message: fmt.Sprintf("the view is seat %d's, not seat %d's", *v.You, seat)}
	}
	if seat < 1 || seat > len(v.Seats) {
		return nil, &client.Error{Code: "bad_view", Message: fmt.Sprintf("the view has %d seats", len(v.Seats))}
	}
	return &v.Seats[seat-1], nil
}

// board rebuilds seat's board and the foundations from the view, the
// face-down cards as cards.None (only face-up cards are ever read).
func (v *playView) board(seat int) (k.Board, k.Foundations, error) {
	var b k.Board
	var f k.Foundations
	sv, err := v.seatOf(seat)
	if err != nil {
		return b, f, err
	}
	bad := func(what string) error { return &client.Error{Code: "bad_view", Message: what} }
	if len(sv.Columns) > k.MaxColumns || sv.Stock < 0 || sv.Stock > k.MaxStock || len(sv.Waste) > k.MaxStock ||
		len(v.Foundations) > len(f.N) {
		return b, f, bad("a view too large for a board")
	}
	b.NCols, b.DrawCount, b.CanRecycle = uint8(len(sv.Columns)), 1, true
	for i, c := range sv.Columns {
		col := &b.Cols[i]
		if c.Down < 0 || c.Down+len(c.Up) > k.MaxColumnCards {
			return b, f, bad("a column too long")
		}
		col.Down, col.N = uint8(c.Down), uint8(c.Down+len(c.Up))
		for j := range c.Down {
			col.Cards[j] = cards.None
		}
		for j, t := range c.Up {
			if col.Cards[c.Down+j], err = cards.Parse(t); err != nil {
				return b, f, bad(err.Error())
			}
		}
	}
	b.NStock, b.NWaste = uint8(sv.Stock), uint8(len(sv.Waste))
	for j, t := range sv.Waste {
		if b.Waste[j], err = cards.Parse(t); err != nil {
			return b, f, bad(err.Error())
		}
	}
	for i, pile := range v.Foundations {
		if len(pile) > len(f.Piles[i]) {
			return b, f, bad("a foundation too high")
		}
		f.N[i] = uint8(len(pile))
		for j, c := range pile {
			if f.Piles[i][j], err = cards.Parse(c.Card); err != nil {
				return b, f, bad(err.Error())
			}
		}
	}
	return b, f, nil
}

// progressKey sums up what the race-play policy can change on the table:
// cards on the foundations, face-down cards and cards in the columns, of
// both seats. Draws and recycles leave it as it is.
type progressKey struct{ found, down, inColumns int }

// progress returns the view's progressKey.
func (v *playView) progress() progressKey {
	var p progressKey
	for _, pile := range v.Foundations {
		p.found += len(pile)
	}
	for _, sv := range v.Seats {
		for _, c := range sv.Columns {
			p.down += c.Down
			p.inColumns += c.Down + len(c.Up)
		}
	}
	return p
}

// choosePlay is the race-play policy: a foundation play from the waste or a
// column, then a whole face-up run that uncovers a face-down card, then the
// waste card to a column, else a draw or a recycle. It reports false when
// none of them is legal.
func choosePlay(b *k.Board, f *k.Foundations) (k.Action, bool) {
	n := int(b.NCols)
	if top := b.WasteTop(); top != cards.None && f.FirstSlot(top) >= 0 {
		return k.FromPile(k.Tap, k.Waste, 1), true
	}
	for i := range n {
		col := &b.Cols[i]
		if col.N > col.Down && f.FirstSlot(col.Top()) >= 0 {
			return k.FromPile(k.Tap, k.ColPile(i), 1), true
		}
	}
	for i := range n {
		col := &b.Cols[i]
		if col.Down == 0 || col.N == col.Down {
			continue
		}
		first := col.Cards[col.Down]
		for j := range n {
			if j != i && b.Cols[j].Accepts(first) {
				return k.NewMove(k.ColPile(i), k.ColPile(j), int(col.N-col.Down)), true
			}
		}
	}
	if top := b.WasteTop(); top != cards.None {
		for j := range n {
			if b.Cols[j].Accepts(top) {
				return k.NewMove(k.Waste, k.ColPile(j), 1), true
			}
		}
	}
	return stockAction(b)
}

// stockAction is a draw while the stock has cards, else a recycle of a
// waste that has some.
func stockAction(b *k.Board) (k.Action, bool) {
	switch {
	case b.NStock > 0:
		return k.Simple(k.Draw), true
	case b.NWaste > 0 && b.CanRecycle:
		return k.Simple(k.Recycle), true
	}
	return k.Action{}, false
}
