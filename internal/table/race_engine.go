package table

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/race"
	"dsol/internal/store"
)

// EngineOptions maps stored race options to the engine's. Options the
// engine does not take are refused as game.RaceOptions.Check words it.
func EngineOptions(o game.RaceOptions) (race.Options, error) {
	t, okTurns := race.ParseTurns(o.Turns)
	first, okFirst := race.ParseFirst(o.First)
	if !okTurns || !okFirst {
		if err := o.Check(); err != nil {
			return race.Options{}, err
		}
		return race.Options{}, game.Errorf(game.BadRequest, "the race options %q and %q are not the engine's", o.Turns, o.First)
	}
	opts := race.Options{Turns: t, First: first, SoloOutBonus: o.SoloOutBonus, Series: o.Series}
	if t == race.Alternating {
		opts.FirstSeat = o.FirstSeat
	}
	return opts, nil
}

// raceEngine adapts race.Race to Engine. Once its log has replayed, the
// table attaches its live state and a reader of its header (attach): from
// then on the engine also keeps the header's "waiting" and cancelled
// statuses and the claim rule, and its views show the live state.
type raceEngine struct {
	r          *race.Race
	opts       game.RaceOptions
	code, salt string // shown once the race is over
	secret     bool   // a server-dealt DR2 code, not a numbered one
	commitment string
	turns      int                // turn changes so far (alternating)
	live       *raceLive          // nil while the log replays: no clock rules then
	header     func() *store.Game // the table's header, never changed in place; set with live

	// board is the race's view (the same for every viewer) after its
	// boardAt-1 actions, shared by the views of every viewer at that point,
	// and the next board shares its unchanged piles (race.NextView): views
	// are read-only once built.
	board   race.View
	boardAt int
}

// NewRace builds the engine of a race header.
func NewRace(h store.Game) (Engine, error) {
	code, err := cards.ParseCode(h.Code)
	if err != nil {
		return nil, err
	}
	if code.Kind != cards.Race {
		return nil, fmt.Errorf("table: game %s: its code is not a race code", h.ID) // never the code: it tells the deal
	}
	o, err := game.ParseRaceOptions(h.Options)
	if err != nil {
		return nil, err
	}
	eo, err := EngineOptions(o)
	if err != nil {
		return nil, err
	}
	r, err := race.New(code, eo)
	if err != nil {
		return nil, err
	}
	salt := hex.EncodeToString(h.Salt)
	return &raceEngine{r: r, opts: o, code: code.String(), salt: salt, secret: code.Secret,
		commitment: cards.Commitment(code.String(), h.Salt)}, nil
}

// attach gives the engine the race's live state and how to read the
// race's header as its table last stored or loaded it.
func (e *raceEngine) attach(l *raceLive, header func() *store.Game) {
	e.live, e.header = l, header
}

var (
	errWaiting = &klondike.Error{Code: klondike.NotYourTurn, Msg: "the race starts when the second player joins"}
	errRaceOn  = &klondike.Error{Code: klondike.GameOver, Msg: "the race is over"}
)

func (e *raceEngine) waiting() bool {
	return e.live != nil && e.header().Status == "waiting"
}

// cancelled reports whether the race ended while it waited: its creator
// cancelled it (store.Store.CancelRace), or the rematch it offered was
// declined. The header says over and the log did not end it.
func (e *raceEngine) cancelled() bool {
	return e.live != nil && e.r.Status() != race.Over && e.header().Status == "over"
}

func (e *raceEngine) Check(seat int) error {
	if e.r.Status() == race.Over || e.cancelled() {
		return errRaceOn
	}
	if e.waiting() {
		return errWaiting
	}
	return nil
}

func (e *raceEngine) Apply(seat int, a klondike.Action) (Outcome, error) {
	if l := e.live; l != nil {
		if e.waiting() {
			return Outcome{}, errWaiting
		}
		if a.Type == klondike.Claim && e.r.Status() == race.Playing {
			if err := l.mayClaim(seat, e, e.header()); err != nil {
				return Outcome{}, err
			}
		}
	}
	out, err := e.r.Apply(seat, a)
	if err != nil {
		return Outcome{}, err
	}
	if out.TurnEnded {
		e.turns++
	}
	if l := e.live; l != nil {
		l.seen[seat-1] = l.now()
	}
	return Outcome{Action: out.Action}, nil
}

func (e *raceEngine) Status() string {
	if e.r.Status() == race.Over || e.cancelled() {
		return "over"
	}
	if e.waiting() {
		return "waiting"
	}
	return "playing"
}

func (e *raceEngine) Result() []byte {
	if e.r.Status() != race.Over {
		return nil
	}
	b, _ := json.Marshal(e.r.View(0).Result)
	return b
}
