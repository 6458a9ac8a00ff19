package race

import (
	"encoding/binary"
	"errors"
	"fmt"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// wireState is a race's state as AppendState writes it: all that its
// actions change (code and options are the header's, not in it),
// fixed-size.
type wireState struct {
	Boards   [Seats]k.Board
	Found    k.Foundations
	Counts   [Seats]int16
	Turn     int8
	Last     int8
	Status   Status
	Winner   int8
	Reason   Reason
	Result   [Seats]int16
	LastPlay int8
	Loser    int8
	Blocked  [Seats]int8
	Actions  int32
	Recycled [Seats]bool
}

// StateSize is the length of what AppendState appends.
var StateSize = binary.Size(wireState{})

// AppendState appends the race's state to dst: a race of the same code and
// options that loads it (LoadState) plays on exactly as this one would.
func (r *Race) AppendState(dst []byte) []byte {
	w := wireState{Boards: r.boards, Found: r.found, Counts: r.counts, Turn: r.turn, Last: r.last,
		Status: r.status, Winner: int8(r.result.Winner), Reason: r.result.Reason,
		Result:   [Seats]int16{int16(r.result.Counts[0]), int16(r.result.Counts[1])},
		LastPlay: int8(r.result.LastPlay), Loser: int8(r.result.Loser), Blocked: r.blocked,
		Actions: r.actions, Recycled: r.recycled}
	out, err := binary.Append(dst, binary.LittleEndian, &w)
	if err != nil {
		panic("race: the state has a size: " + err.Error()) // wireState is fixed-size
	}
	return out
}

// LoadState replaces the race's state with one AppendState wrote for a
// race of the same code and options. A state that cannot be one of that
// race (its cards are not the deal's, its counts out of range) is refused
// and the race left as it was.
func (r *Race) LoadState(src []byte) error {
	if len(src) != StateSize {
		return fmt.Errorf("race: a state is %d bytes, not %d", StateSize, len(src))
	}
	var w wireState
	if _, err := binary.Decode(src, binary.LittleEndian, &w); err != nil {
		return fmt.Errorf("race: state: %w", err)
	}
	seat := func(s int8, zero bool) bool { return s == 1 || s == 2 || (zero && s == 0) }
	switch {
	case w.Status > Over || w.Reason > Limit || !seat(w.Turn, true) || !seat(w.Last, true) ||
		!seat(w.Winner, true) || !seat(w.LastPlay, true) || !seat(w.Loser, true) || w.Actions < 0 ||
		w.Blocked[0] > notBlocked || w.Blocked[1] > notBlocked || w.Blocked[0] < 0 || w.Blocked[1] < 0 ||
		w.Counts[0] < 0 || w.Counts[0] > CardsPerSeat || w.Counts[1] < 0 || w.Counts[1] > CardsPerSeat:
		return errors.New("race: the state's counts are out of range")
	}
	for _, b := range w.Boards {
		if b.NCols != Columns || int(b.DrawCount) != r.code.Draw || b.CanRecycle == r.code.Single {
			return errors.New("race: the state is of another kind of race")
		}
	}
	decks := cards.RaceDecks(r.code)
	all := append(decks[0][:], decks[1][:]...)
	if err := k.CheckState(all, &w.Found, &w.Boards[0], &w.Boards[1]); err != nil {
		return err
	}
	r.boards, r.found, r.counts, r.turn, r.last, r.status = w.Boards, w.Found, w.Counts, w.Turn, w.Last, w.Status
	r.result = Result{Winner: int(w.Winner), Reason: w.Reason, Counts: [Seats]int{int(w.Result[0]), int(w.Result[1])},
		LastPlay: int(w.LastPlay), Loser: int(w.Loser)}
	r.blocked, r.actions, r.recycled = w.Blocked, w.Actions, w.Recycled
	return nil
}
