// Package klondike holds the rules that solo Double Klondike and the two-player
// race share: one player's board (columns, stock, waste), the foundations, the
// actions and their wire form, the error codes, and the stuck/blocked search.
// It is pure: no clock, no I/O, no randomness, no allocation per move.
package klondike

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"dsol/internal/input"
)

// Pile names a pile of one board: a column c1…c9, the waste, the stock, a
// foundation slot f1…f8, or the whole foundation area f.
type Pile uint8

// Pile values. Columns are 0…8, so Pile(i) is column c(i+1).
const (
	Waste    Pile = 9
	Stock    Pile = 10
	F1       Pile = 11 // f1 … f8 are F1 … F1+7
	AnyF     Pile = 19 // "f": the engine picks the slot
	NoPile   Pile = 0xFF
	numSlots      = 8
)

// ColPile returns the pile of column i (0-based).
func ColPile(i int) Pile { return Pile(i) }

// Slot returns the pile of foundation slot i (0-based).
func Slot(i int) Pile { return F1 + Pile(i) }

// IsColumn reports whether p is a column.
func (p Pile) IsColumn() bool { return p < 9 }

// IsSlot reports whether p is one foundation slot f1…f8.
func (p Pile) IsSlot() bool { return p >= F1 && p < F1+numSlots }

// IsFoundation reports whether p is a slot or the foundation area.
func (p Pile) IsFoundation() bool { return p.IsSlot() || p == AnyF }

// String returns the wire name: c1…c9, w, s, f1…f8, f.
func (p Pile) String() string {
	switch {
	case p.IsColumn():
		return "c" + strconv.Itoa(int(p)+1)
	case p == Waste:
		return "w"
	case p == Stock:
		return "s"
	case p.IsSlot():
		return "f" + strconv.Itoa(int(p-F1)+1)
	case p == AnyF:
		return "f"
	}
	return ""
}

// ParsePile reads a wire pile name.
func ParsePile(s string) (Pile, bool) {
	switch {
	case s == "w":
		return Waste, true
	case s == "s":
		return Stock, true
	case s == "f":
		return AnyF, true
	case len(s) == 2 && s[0] == 'c' && s[1] >= '1' && s[1] <= '9':
		return Pile(s[1] - '1'), true
	case len(s) == 2 && s[0] == 'f' && s[1] >= '1' && s[1] <= '8':
		return F1 + Pile(s[1]-'1'), true
	}
	return NoPile, false
}

// Type is the kind of an action.
type Type uint8

// Action types (docs/protocol.md and the API reference).
const (
	Move Type = iota + 1
	Draw
	Recycle
	Tap
	DTap
	Undo
	Pass
	Resign
	Claim
	// Forfeit is never sent by a client: the live game layer applies it for a
	// seat that stayed disconnected past the grace period.
	Forfeit
	// Finish plays a solo game's remaining cards up once nothing is hidden
	// and the game can be won.
	Finish
	// TimeUp is never sent by a client (protocol refuses it): the server
	// applies it to a race of an arena still in play well after the arena
	// ended, which ends it by count.
	TimeUp
)

var typeNames = [...]string{Move: "move", Draw: "draw", Recycle: "recycle", Tap: "tap",
	DTap: "dtap", Undo: "undo", Pass: "pass", Resign: "resign", Claim: "claim", Forfeit: "forfeit",
	Finish: "finish", TimeUp: "time"}

// String returns the wire name of the type.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return ""
}

// Action is one player action. Count is 1 or more for move and dtap.
type Action struct {
	Type  Type
	From  Pile
	To    Pile
	Count uint8
}

// MaxCount is the largest count an action may carry (a king-to-ace run).
const MaxCount = 13

// MaxActions is the most actions a game may have (docs/rules.md §2.8,
// §3.5): real games have a few hundred to a few thousand, the bots' races
// under 500. A solo game refuses the next one; a race that reaches it ends
// by count, as when both seats are blocked.
const MaxActions = 20_000

type wireAction struct {
	Type  string `json:"type"`
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
	Count *int   `json:"count,omitempty"`
	Seat  int    `json:"seat,omitempty"`
}

// DecodeAction reads the JSON form of an action, strictly: JSON that
// input.CheckJSON refuses, unknown keys, a missing or unknown field, or a
// field the type does not take is an error with code bad_request.
func DecodeAction(data []byte) (Action, error) {
	if err := input.CheckJSON(data); err != nil {
		return Action{}, Errorf(BadRequest, "action: %v", err)
	}
	var w wireAction
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Action{}, Errorf(BadRequest, "action is not of the form {\"type\": ...}: %s", input.Describe(err))
	}
	return w.action()
}

// ActionOf builds an action from the fields of its JSON form, with the rules
// of DecodeAction: typ, from and to as the strings of the JSON ("" for an
// absent field), count nil when absent. It is the last step of a decoder
// that has read the JSON itself.
func ActionOf(typ, from, to string, count *int) (Action, error) {
	return wireAction{Type: typ, From: from, To: to, Count: count}.action()
}

// UnmarshalJSON implements json.Unmarshaler with the rules of DecodeAction.
func (a *Action) UnmarshalJSON(data []byte) error {
	v, err := DecodeAction(data)
	if err != nil {
		return err
	}
	*a = v
	return nil
}

func (w wireAction) action() (Action, error) {
	a := Action{From: NoPile, To: NoPile}
	for t, name := range typeNames {
		if name != "" && name == w.Type && Type(t) != Forfeit {
			a.Type = Type(t)
		}
	}
	if a.Type == 0 {
		if w.Type == "" {
			return Action{}, Errorf(BadRequest, "action needs a type")
		}
		return Action{}, Errorf(BadRequest, "unknown action type %s", input.Quote(w.Type))
	}
	if w.Seat != 0 {
		return Action{}, Errorf(BadRequest, "seat is not an action field")
	}
	needFrom := a.Type == Move || a.Type == Tap || a.Type == DTap
	needTo := a.Type == Move
	takesCount := a.Type == Move || a.Type == DTap
	if needFrom != (w.From != "") {
		return Action{}, fieldErr(a.Type, "from", needFrom)
	}
	if needTo != (w.To != "") {
		return Action{}, fieldErr(a.Type, "to", needTo)
	}
	if !takesCount && w.Count != nil {
		return Action{}, fieldErr(a.Type, "count", false)
	}
	if needFrom {
		p, ok := ParsePile(w.From)
		if !ok {
			return Action{}, Errorf(BadRequest, "from: unknown pile %s (piles: c1…c9, w, s, f1…f8)", input.Quote(w.From))
		}
		a.From = p
	}
	if needTo {
		p, ok := ParsePile(w.To)
		if !ok {
			return Action{}, Errorf(BadRequest, "to: unknown pile %s (piles: c1…c9, f, f1…f8)", input.Quote(w.To))
		}
		a.To = p
	}
	if takesCount {
		a.Count = 1
		if w.Count != nil {
			if *w.Count < 1 || *w.Count > MaxCount {
				return Action{}, Errorf(BadRequest, "count must be between 1 and %d", MaxCount)
			}
			a.Count = uint8(*w.Count)
		}
	}
	return a, nil
}

func fieldErr(t Type, field string, need bool) error {
	if need {
		return Errorf(BadRequest, "%s needs %q", t, field)
	}
	return Errorf(BadRequest, "%s takes no %q", t, field)
}

// MarshalJSON writes the canonical wire form.
func (a Action) MarshalJSON() ([]byte, error) {
	return a.AppendJSON(nil), nil
}

// AppendJSON appends the canonical wire form of a to b.
func (a Action) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, a.Type.String()...)
	b = append(b, '"')
	if a.From != NoPile && a.Type != Draw && a.Type != Recycle && a.Type != Undo {
		b = append(b, `,"from":"`...)
		b = append(b, a.From.String()...)
		b = append(b, '"')
	}
	if a.To != NoPile && a.Type == Move {
		b = append(b, `,"to":"`...)
		b = append(b, a.To.String()...)
		b = append(b, '"')
	}
	if (a.Type == Move || a.Type == DTap) && a.Count > 1 {
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(a.Count), 10)
	}
	return append(b, '}')
}

// String returns the canonical wire form.
func (a Action) String() string { return string(a.AppendJSON(nil)) }

// NewMove builds a move action.
func NewMove(from, to Pile, count int) Action {
	return Action{Type: Move, From: from, To: to, Count: uint8(count)}
}

// Simple builds an action that takes no pile (draw, recycle, undo, pass, …).
func Simple(t Type) Action { return Action{Type: t, From: NoPile, To: NoPile} }

// FromPile builds a tap or dtap action.
func FromPile(t Type, from Pile, count int) Action {
	return Action{Type: t, From: from, To: NoPile, Count: uint8(count)}
}

// ErrCode is the machine-readable code of an error (docs/protocol.md lists them).
type ErrCode string

// Error codes that engines produce.
const (
	BadRequest  ErrCode = "bad_request"
	IllegalMove ErrCode = "illegal_move"
	TooLate     ErrCode = "too_late"
	NotYourTurn ErrCode = "not_your_turn"
	GameOver    ErrCode = "game_over"
)

// Error is a refused action: nothing changed. Code is for machines, Msg for people.
type Error struct {
	Code ErrCode
	Msg  string
}

// Error implements error with the message for people.
func (e *Error) Error() string { return "klondike: " + e.Msg }

// Errorf builds an *Error.
func Errorf(code ErrCode, format string, args ...any) error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}
