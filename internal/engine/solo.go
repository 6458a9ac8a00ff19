// Package engine is the rules engines of the live games behind one
// interface: a solo game (which closes with its contest) and a race, each
// built from its stored header, applying actions and projecting views
// (package protocol's). Engines are pure apart from what their game's live
// side gives them once its log has replayed: a solo game's clock, a race's
// live state (RaceLive).
package engine

import (
	"encoding/json"
	"fmt"
	"time"

	"dsol/internal/cards"
	"dsol/internal/daily"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/solo"
	"dsol/internal/store"
)

// Engine is the rules engine of one live game as its table drives it. A
// table owns its engine and calls it from one goroutine only, so an Engine
// needs no locking. Engines are pure and deterministic: the same game header and the
// same actions always give the same state, which is what replay relies on.
type Engine interface {
	// Check refuses, without changing anything, an action by seat that no
	// action could make legal now: game_over, not_your_turn, too_late.
	Check(seat int) error
	// Apply performs an action for a seat (1 or 2), or refuses it with a
	// *klondike.Error and changes nothing.
	Apply(seat int, a klondike.Action) (Outcome, error)
	// View projects the game for a viewer (a seat, or 0 for a spectator),
	// adding the game id and the seq the view reflects. No hidden card may
	// appear in it.
	View(viewer int, id string, seq int64) protocol.View
	// Status is the stored status of the game now ("playing", "won", ...).
	Status() string
	// Result is the JSON result stored with the header once the game is over,
	// or nil.
	Result() []byte
	// AppendState appends what the game's actions made of it (not what
	// its header says) to dst; LoadState gives an engine built from the
	// same header that state, or refuses one that cannot be its game and
	// changes nothing. A table keeps them as snapshots, so that it need not
	// replay a long log.
	AppendState(dst []byte) []byte
	LoadState(src []byte) error
}

// Outcome is an accepted action.
type Outcome struct {
	// Action is the action as resolved by the engine (a tap names its target
	// slot, "f" a concrete slot). It is what the log stores and replays and
	// what subscribers receive.
	Action klondike.Action
	// Tally is the game's score and moves after the action, stored with it
	// (the table adds the seconds of play); nil for a race.
	Tally *store.Tally
}

// NewEngine builds the engine of a stored game header, at the start of the
// game; the table then replays the log through it.
type NewEngine func(g store.Game) (Engine, error)

// DefaultEngines returns the engines of the game kinds this build plays, by
// store.Game.Kind.
func DefaultEngines() map[string]NewEngine {
	return map[string]NewEngine{"solo": NewSolo, "race": NewRace}
}

// Solo adapts solo.Game to Engine. A solo game has one seat. hints
// is the header's count of hints given and checked its flag of the live
// check, neither in the log; still is the check's answer at the table's
// seq and answered whether it came (check.go). A game of a contest
// (a daily challenge) closes at closes: once its table has given the
// engine its clock (now, nil while the log replays, whose actions were all
// taken in time) the engine refuses every action from then on.
type Solo struct {
	g        *solo.Game
	opts     game.SoloOptions
	hints    int
	checked  bool
	still    *bool
	answered bool
	closes   time.Time // zero: never
	now      func() time.Time
}

// NewSolo builds the engine of a solo game header.
func NewSolo(h store.Game) (Engine, error) {
	code, err := cards.ParseCode(h.Code)
	if err != nil {
		return nil, err
	}
	if code.Kind != cards.Solo {
		return nil, fmt.Errorf("engine: game %s: %s is not a solo code", h.ID, h.Code)
	}
	g, err := solo.New(code)
	if err != nil {
		return nil, err
	}
	e := &Solo{g: g, hints: h.Hints, checked: h.Checked}
	if len(h.Options) > 0 {
		if err := json.Unmarshal(h.Options, &e.opts); err != nil {
			return nil, fmt.Errorf("engine: game %s: options: %w", h.ID, err)
		}
	}
	if e.opts.Daily != "" {
		_, end, err := daily.Bounds(e.opts.Daily)
		if err != nil {
			return nil, fmt.Errorf("engine: game %s: %w", h.ID, err)
		}
		e.closes = end
	}
	return e, nil
}

// SetClock gives the game its clock, once its log has replayed: from then
// on a game whose contest closed refuses every action.
func (e *Solo) SetClock(now func() time.Time) { e.now = now }

// Game is the solo game itself, for what reads it besides actions (a hint,
// the live check). Only the table's goroutine may use it.
func (e *Solo) Game() *solo.Game { return e.g }

// Daily is the day of the daily challenge the game is of ("": none).
func (e *Solo) Daily() string { return e.opts.Daily }

// SetHints records that n hints were given (the header's count), shown in
// the views from then on; a smaller count than known changes nothing.
func (e *Solo) SetHints(n int) { e.hints = max(e.hints, n) }

// Checked reports whether the live check is on; CheckOn turns it on.
func (e *Solo) Checked() bool { return e.checked }

// CheckOn turns the live check on.
func (e *Solo) CheckOn() { e.checked = true }

// Still returns the live check's answer at the current position and
// whether it came (nil with true: the check could not tell).
func (e *Solo) Still() (*bool, bool) { return e.still, e.answered }

// SetStill records the live check's answer at the current position
// (answered false: none yet, the view says null).
func (e *Solo) SetStill(v *bool, answered bool) { e.still, e.answered = v, answered }

// closed reports whether the game's contest has closed (never while the
// log replays).
func (e *Solo) closed() bool {
	return e.now != nil && !e.closes.IsZero() && !e.now().Before(e.closes)
}

// errClosed refuses an action of a daily game whose day has closed.
func (e *Solo) errClosed() error {
	return &klondike.Error{Code: klondike.GameOver,
		Msg: "the daily challenge of " + e.opts.Daily + " closed at midnight UTC: its game can no longer be played"}
}

var errSoloSeat = &klondike.Error{Code: klondike.NotYourTurn, Msg: "a solo game has one seat"}

func (e *Solo) Check(seat int) error {
	if seat != 1 {
		return errSoloSeat
	}
	if e.g.Status() == solo.Won {
		return &klondike.Error{Code: klondike.GameOver, Msg: "the game is won; start a new one"}
	}
	if e.closed() {
		return e.errClosed()
	}
	return nil
}

func (e *Solo) Apply(seat int, a klondike.Action) (Outcome, error) {
	if seat != 1 {
		return Outcome{}, errSoloSeat
	}
	out, err := e.g.Apply(a)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Action: out.Action, Tally: &store.Tally{Score: e.g.Score(), Moves: e.g.Moves()}}, nil
}

func (e *Solo) View(_ int, id string, seq int64) protocol.View {
	v := protocol.SoloView{ID: id, Seq: seq, Winnable: e.opts.Winnable, Hints: e.hints, Daily: e.opts.Daily, StillWinnable: e.still, View: e.g.View()}
	if v.Closed = e.closed(); v.Daily != "" && !v.Closed {
		v.Code = ""
	}
	return v
}

func (e *Solo) Status() string { return e.g.Status().String() }

func (e *Solo) Result() []byte { return nil }

func (e *Solo) AppendState(dst []byte) []byte { return e.g.AppendState(dst) }

func (e *Solo) LoadState(src []byte) error { return e.g.LoadState(src) }
