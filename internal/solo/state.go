package solo

import (
	"encoding/binary"
	"errors"
	"fmt"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// wireState is a game's state as AppendState writes it: all that its
// actions change (the code is the header's, not in it), fixed-size.
type wireState struct {
	Board       k.Board
	Found       k.Foundations
	Score       int32
	Moves       int32
	Status      Status
	Recycled    bool
	Hist        [UndoLimit]wireUndo
	HistN       int32
	HistI       int32
	BeforeBoard k.Board
	BeforeFound k.Foundations
}

type wireUndo struct {
	Step  k.Step
	Delta int32
}

// StateSize is the length of what AppendState appends.
var StateSize = binary.Size(wireState{})

// AppendState appends the game's state to dst: a game of the same code
// that loads it (LoadState) plays on exactly as this one would.
func (g *Game) AppendState(dst []byte) []byte {
	w := wireState{Board: g.board, Found: g.found, Score: g.score, Moves: g.moves, Status: g.status,
		Recycled: g.recycled, HistN: int32(g.histN), HistI: int32(g.histI),
		BeforeBoard: g.beforeFinish.board, BeforeFound: g.beforeFinish.found}
	for i, e := range g.hist {
		w.Hist[i] = wireUndo{Step: e.step, Delta: e.delta}
	}
	out, err := binary.Append(dst, binary.LittleEndian, &w)
	if err != nil {
		panic("solo: the state has a size: " + err.Error()) // wireState is fixed-size
	}
	return out
}

// LoadState replaces the game's state with one AppendState wrote for a
// game of the same code. A state that cannot be one of that game (its
// cards are not the deal's, its counts out of range) is refused and the
// game left as it was.
func (g *Game) LoadState(src []byte) error {
	if len(src) != StateSize {
		return fmt.Errorf("solo: a state is %d bytes, not %d", StateSize, len(src))
	}
	var w wireState
	if _, err := binary.Decode(src, binary.LittleEndian, &w); err != nil {
		return fmt.Errorf("solo: state: %w", err)
	}
	deck := cards.SoloDeck(g.code)
	switch {
	case w.Board.NCols != Columns || int(w.Board.DrawCount) != g.code.Draw || w.Board.CanRecycle == g.code.Vegas:
		return errors.New("solo: the state is of another kind of game")
	case w.Status > Won || w.HistN < 0 || w.HistN > UndoLimit || w.HistI < 0 || w.HistI >= UndoLimit:
		return errors.New("solo: the state's counts are out of range")
	}
	if err := k.CheckState(deck[:], &w.Found, &w.Board); err != nil {
		return err
	}
	if w.BeforeBoard.NCols != 0 {
		if err := k.CheckState(deck[:], &w.BeforeFound, &w.BeforeBoard); err != nil {
			return err
		}
	}
	for _, e := range w.Hist {
		if e.Step != (k.Step{}) {
			if err := k.CheckStep(e.Step, Columns); err != nil {
				return err
			}
		}
	}
	g.board, g.found, g.score, g.moves, g.status, g.recycled = w.Board, w.Found, w.Score, w.Moves, w.Status, w.Recycled
	for i, e := range w.Hist {
		g.hist[i] = undoEntry{step: e.Step, delta: e.Delta}
	}
	g.histN, g.histI = int(w.HistN), int(w.HistI)
	g.beforeFinish = position{board: w.BeforeBoard, found: w.BeforeFound}
	g.finishAt = nil
	return nil
}
