// Package winnable deals solo games that are known to be winnable: deals of
// which the solver (internal/solver) found a winning line, checked through
// the solo engine. They come from two sources: the lists shipped in the
// binary (deals/*.txt, made by make winnable-list), and the pool stored in
// the database, which a background search (Run) fills while the server has
// CPU to spare. A Pool holds both in memory and picks one at random.
package winnable

import (
	"fmt"

	"dsol/internal/cards"
)

// Mode is one of the four solo modes: draw 1 or 3, Normal or Vegas
// scoring. A deal won in one mode is won in every mode that covers it (a
// draw-3 win is a draw-1 win, a Vegas win a Normal win: tally.Transfer), and
// in no other for all we know.
type Mode uint8

// The four modes, named as in the codes (DS1-D1N-…).
const (
	D1N Mode = iota
	D3N
	D1V
	D3V
)

// Modes lists every mode.
var Modes = []Mode{D1N, D3N, D1V, D3V}

// String returns the mode as in a code: D1N, D3N, D1V or D3V.
func (m Mode) String() string {
	if int(m) < len(Modes) {
		return [...]string{"D1N", "D3N", "D1V", "D3V"}[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// Draw returns 1 or 3.
func (m Mode) Draw() int {
	if m == D3N || m == D3V {
		return 3
	}
	return 1
}

// Vegas reports whether the mode has Vegas scoring (a single pass).
func (m Mode) Vegas() bool { return m == D1V || m == D3V }

// Code returns the DS1 code of a deal number in the mode.
func (m Mode) Code(deal uint64) cards.Code {
	return cards.Code{Kind: cards.Solo, Draw: m.Draw(), Vegas: m.Vegas(), Deal: deal}
}

// ModeOf returns the mode of a solo code.
func ModeOf(c cards.Code) Mode {
	switch {
	case c.Draw == 3 && c.Vegas:
		return D3V
	case c.Draw == 3:
		return D3N
	case c.Vegas:
		return D1V
	}
	return D1N
}

// ParseMode reads D1N, D3N, D1V or D3V.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("winnable: mode %q: want D1N, D3N, D1V or D3V", s)
}
