package engine

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/race"
	"dsol/internal/store"
)

// RaceOptions maps stored race options to the engine's. Options the
// engine does not take are refused as game.RaceOptions.Check words it.
func RaceOptions(o game.RaceOptions) (race.Options, error) {
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

// RaceLive is a race's live side as its engine reads it once the log has
// replayed (Race.Attach): the header as last stored or loaded (whose
// "waiting" and cancelled "over" statuses the log does not have), the claim
// rule, a seat's last action, and what the views show besides the rules'
// state (players, presence, clocks, series, rematch, ratings).
type RaceLive interface {
	Header() *store.Game
	// MayClaim refuses a claim by seat before the opponent's grace has run
	// out.
	MayClaim(seat int) error
	// Acted records that seat acted now.
	Acted(seat int)
	// Fill adds the live state to a view for viewer.
	Fill(v *protocol.RaceView, viewer int)
}

// Race adapts race.Race to Engine. Once its log has replayed, the table
// attaches its live side (Attach): from then on the engine also keeps the
// header's "waiting" and cancelled statuses and the claim rule, and its
// views show the live state.
type Race struct {
	r          *race.Race
	opts       game.RaceOptions
	code, salt string // shown once the race is over
	secret     bool   // a server-dealt DR2 code, not a numbered one
	commitment string
	turns      int      // turn changes so far (alternating)
	live       RaceLive // nil while the log replays: no clock rules then

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
		return nil, fmt.Errorf("engine: game %s: its code is not a race code", h.ID) // never the code: it tells the deal
	}
	o, err := game.ParseRaceOptions(h.Options)
	if err != nil {
		return nil, err
	}
	eo, err := RaceOptions(o)
	if err != nil {
		return nil, err
	}
	r, err := race.New(code, eo)
	if err != nil {
		return nil, err
	}
	salt := hex.EncodeToString(h.Salt)
	return &Race{r: r, opts: o, code: code.String(), salt: salt, secret: code.Secret,
		commitment: cards.Commitment(code.String(), h.Salt)}, nil
}

// Attach gives the engine the race's live side, once its log has replayed.
func (e *Race) Attach(l RaceLive) { e.live = l }

// Race is the race itself, for what reads it besides actions (the bot, the
// clocks, the rating). Only the table's goroutine may use it.
func (e *Race) Race() *race.Race { return e.r }

// Options are the race's stored options.
func (e *Race) Options() game.RaceOptions { return e.opts }

// Turns is how many times the turn changed (alternating turns).
func (e *Race) Turns() int { return e.turns }

// ChosenDeal reports whether the deal was not the server's own secret one:
// a code its creator chose, or a numbered one.
func (e *Race) ChosenDeal() bool { return e.opts.Chosen || !e.secret }

var (
	errWaiting = &klondike.Error{Code: klondike.NotYourTurn, Msg: "the race starts when the second player joins"}
	errRaceOn  = &klondike.Error{Code: klondike.GameOver, Msg: "the race is over"}
)

func (e *Race) waiting() bool {
	return e.live != nil && e.live.Header().Status == "waiting"
}

// cancelled reports whether the race ended while it waited: its creator
// cancelled it (store.Store.CancelRace), or the rematch it offered was
// declined. The header says over and the log did not end it.
func (e *Race) cancelled() bool {
	return e.live != nil && e.r.Status() != race.Over && e.live.Header().Status == "over"
}

func (e *Race) Check(seat int) error {
	if e.r.Status() == race.Over || e.cancelled() {
		return errRaceOn
	}
	if e.waiting() {
		return errWaiting
	}
	return nil
}

func (e *Race) Apply(seat int, a klondike.Action) (Outcome, error) {
	if l := e.live; l != nil {
		if e.waiting() {
			return Outcome{}, errWaiting
		}
		if a.Type == klondike.Claim && e.r.Status() == race.Playing {
			if err := l.MayClaim(seat); err != nil {
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
		l.Acted(seat)
	}
	return Outcome{Action: out.Action}, nil
}

func (e *Race) Status() string {
	if e.r.Status() == race.Over || e.cancelled() {
		return "over"
	}
	if e.waiting() {
		return "waiting"
	}
	return "playing"
}

func (e *Race) Result() []byte {
	if e.r.Status() != race.Over {
		return nil
	}
	b, _ := json.Marshal(e.r.View(0).Result)
	return b
}

func (e *Race) View(viewer int, id string, seq int64) protocol.View {
	if n := e.r.Actions() + 1; e.boardAt != n {
		e.board, e.boardAt = e.r.NextView(&e.board), n
	}
	v := protocol.RaceView{ID: id, Seq: seq, View: e.board, Status: e.Status(),
		Series: protocol.SeriesView{Games: e.opts.Series, Index: 1}, Bot: e.opts.Bot,
		Commitment: e.commitment, ChosenDeal: e.opts.Chosen, Arena: e.opts.Arena}
	if v.Status == "over" {
		v.Code, v.Salt = e.code, e.salt
	}
	if viewer == 1 || viewer == 2 {
		you := viewer
		v.You = &you
	}
	if v.Turns == "alternating" {
		v.First = e.opts.First
		if v.First == "" {
			v.First = "random"
		}
		v.TurnSeconds = e.opts.TurnSeconds
	}
	v.Seats = make([]protocol.RaceSeatView, len(v.View.Seats))
	for i := range v.Seats {
		v.Seats[i] = protocol.RaceSeatView{SeatView: v.View.Seats[i]}
	}
	if l := e.live; l != nil {
		l.Fill(&v, viewer)
	}
	if v.Status == "waiting" || e.cancelled() {
		v.Turn = nil
	}
	v.Cancelled = e.cancelled()
	v.RematchOf = e.opts.RematchOf
	return v
}

// AppendState appends the race's state and its turn changes.
func (e *Race) AppendState(dst []byte) []byte {
	return binary.LittleEndian.AppendUint32(e.r.AppendState(dst), uint32(e.turns))
}

// LoadState loads what AppendState wrote; the views built before are
// dropped.
func (e *Race) LoadState(src []byte) error {
	if len(src) != race.StateSize+4 {
		return fmt.Errorf("engine: a race state is %d bytes, not %d", race.StateSize+4, len(src))
	}
	if err := e.r.LoadState(src[:race.StateSize]); err != nil {
		return err
	}
	e.turns = int(binary.LittleEndian.Uint32(src[race.StateSize:]))
	e.board, e.boardAt = race.View{}, 0
	return nil
}
