package service

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"dsol/internal/daily"
	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/racelive"
	"dsol/internal/store"
)

// Replay is a finished game played again from its stored log, as one viewer
// sees it: the view before the first action, then for each action the
// delta from the view before it (the socket protocol's "d"), so a client
// folds Start through Steps exactly as it folds live events.
type Replay struct {
	Game    store.Game
	Actions []store.Action
	Start   protocol.View
	Steps   []json.RawMessage
}

// ErrNotFinished refuses the replay of a game still in play: its log tells
// the deal.
var ErrNotFinished = errors.New("service: the game is not finished")

// Replay reads a finished game and its log from the store and plays it
// through a fresh engine: a solo game as its player saw it, a race as a
// spectator saw it (both boards' face-up cards). The
// log of a finished game no longer changes, so the store is read directly,
// whichever node owns the game: no table is started. A game not finished
// is ErrNotFinished; one that does not exist is store.ErrNotFound.
func (s *Service) Replay(ctx context.Context, id string) (Replay, error) {
	g, err := s.store.Game(ctx, id)
	if err != nil {
		return Replay{}, err
	}
	events, err := s.store.Actions(ctx, id, 0)
	if err != nil {
		return Replay{}, err
	}
	viewer := 1
	if g.Kind == "race" {
		viewer = 0
	}
	newEngine := engine.DefaultEngines()[g.Kind]
	if newEngine == nil {
		return Replay{}, &game.Error{Code: game.Internal, Msg: "unknown game kind " + g.Kind}
	}
	eng, err := newEngine(g)
	if err != nil {
		return Replay{}, err
	}
	out := Replay{Game: g, Actions: make([]store.Action, len(events)), Steps: make([]json.RawMessage, len(events))}
	prev := eng.View(viewer, g.ID, 0)
	out.Start = prev
	if rv, ok := prev.(protocol.RaceView); ok { // the players, for the start only: no step changes them
		players, err := racelive.SeatPlayers(ctx, s.store, g)
		if err != nil {
			return Replay{}, err
		}
		rv.Seats = append([]protocol.RaceSeatView(nil), rv.Seats...)
		for i := range rv.Seats {
			if players[i].ID != "" {
				p := players[i]
				rv.Seats[i].Player, rv.Seats[i].Bot = &p, p.Bot
			}
		}
		out.Start = rv
	}
	for i, ev := range events {
		if ev.Seq != int64(i+1) {
			return Replay{}, &game.Error{Code: game.Internal, Msg: fmt.Sprintf("the action log has a gap at seq %d", i+1)}
		}
		a, err := klondike.DecodeAction(ev.Action)
		if err == nil {
			_, err = eng.Apply(ev.Seat, a)
		}
		if err != nil {
			return Replay{}, &game.Error{Code: game.Internal, Msg: "the action log does not replay", Err: errors.Join(fmt.Errorf("seq %d", ev.Seq), err)}
		}
		v := eng.View(viewer, g.ID, ev.Seq)
		out.Steps[i] = v.AppendDelta(nil, prev)
		out.Actions[i] = store.Action{GameID: g.ID, Seq: ev.Seq, Seat: ev.Seat, Action: ev.Action, At: ev.At}
		prev = v
	}
	// The log decides: the header's status is written after the answer to
	// the last action, and may lag. A race cancelled while it waited is over
	// by its header alone.
	if !game.Finished(eng.Status()) && !game.Finished(g.Status) { // only a finished game's log may be shown
		return Replay{Game: g}, ErrNotFinished
	}
	return out, nil
}

// ReplayAction is one action of a replay: when it was played and by which
// seat, as the log stores it.
type ReplayAction struct {
	Seq    int64           `json:"seq"`
	Seat   int             `json:"seat"`
	Action json.RawMessage `json:"action"`
	At     time.Time       `json:"at"`
}

// ReplayView is the replay of a finished game as GET
// /api/v1/games/{id}/replay answers it: the game's code (for a race its
// salt too, which checks the commitment the race was played under), its
// actions, and what a viewer needs to watch it without the rules: the view
// before the first action and each action's delta from the view before
// it, to fold in order.
type ReplayView struct {
	ID      string            `json:"id"`
	Kind    string            `json:"kind"`
	Code    string            `json:"code"`
	Salt    string            `json:"salt,omitempty"`
	Actions []ReplayAction    `json:"actions"`
	Start   protocol.View     `json:"start"`
	Steps   []json.RawMessage `json:"steps"`
}

// Watch returns the replay of a finished game (a won solo game, a race
// that is over) for anyone, so that it can be shared. A game in play is
// refused to everyone, its players included: its log tells its deal; so is
// a daily challenge's game until its day has closed.
func (s *Service) Watch(ctx context.Context, id string) (ReplayView, error) {
	rp, err := s.Replay(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return ReplayView{}, game.Errorf(game.NotFound, "no such game")
	case errors.Is(err, ErrNotFinished):
		return ReplayView{}, game.Errorf(game.Forbidden, "a game can be replayed once it is finished")
	case err != nil:
		return ReplayView{}, err
	}
	if daily.Hidden(rp.Game.Kind, rp.Game.Options, s.clock()) {
		return ReplayView{}, game.Errorf(game.Forbidden, "a daily challenge's game can be replayed once its day has closed (UTC midnight)")
	}
	out := ReplayView{ID: rp.Game.ID, Kind: rp.Game.Kind, Code: rp.Game.Code, Start: rp.Start, Steps: rp.Steps,
		Actions: make([]ReplayAction, len(rp.Actions))}
	if rp.Game.Kind == game.KindRace {
		out.Salt = hex.EncodeToString(rp.Game.Salt)
	}
	for i, a := range rp.Actions {
		out.Actions[i] = ReplayAction{Seq: a.Seq, Seat: a.Seat, Action: a.Action, At: a.At.UTC()}
	}
	return out, nil
}
