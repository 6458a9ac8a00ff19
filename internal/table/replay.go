package table

import (
	"context"
	"encoding/json"
	"errors"

	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/store"
)

// Replay is a finished game played again from its stored log, as one viewer
// sees it: the view before the first action, then for each action the
// delta from the view before it (the socket protocol's "d"), so a client
// folds Start through Steps exactly as it folds live events.
type Replay struct {
	Game    store.Game
	Actions []store.Action
	Start   View
	Steps   []json.RawMessage
}

// ErrNotFinished refuses the replay of a game still in play: its log tells
// the deal.
var ErrNotFinished = errors.New("table: the game is not finished")

// finished reports whether a game's status is over for good: a won solo
// game or a race that is over (however it ended). Only such a game's log
// may be shown.
func finished(status string) bool { return status == "won" || status == "over" }

// Replay reads a finished game and its log from the store and plays it
// through a fresh engine: a solo game as its player saw it, a race as a
// spectator saw it (both boards' face-up cards). The
// log of a finished game no longer changes, so the store is read directly,
// whichever node owns the game: no table is started. A game not finished
// is ErrNotFinished; one that does not exist is store.ErrNotFound.
func (r *Registry) Replay(ctx context.Context, id string) (Replay, error) {
	g, events, err := loadLog(ctx, &r.cfg, id)
	if err != nil {
		return Replay{}, err
	}
	viewer := 1
	if g.Kind == "race" {
		viewer = 0
	}
	eng, err := r.cfg.Engines[g.Kind](g)
	if err != nil {
		return Replay{}, err
	}
	out := Replay{Game: g, Actions: make([]store.Action, len(events)), Steps: make([]json.RawMessage, len(events))}
	prev := eng.View(viewer, g.ID, 0)
	out.Start = prev
	if rv, ok := prev.(RaceView); ok { // the players, for the start only: no step changes them
		players, err := seatPlayers(ctx, r.cfg.Store, g)
		if err != nil {
			return Replay{}, err
		}
		rv.Seats = append([]RaceSeatView(nil), rv.Seats...)
		for i := range rv.Seats {
			if players[i].ID != "" {
				p := players[i]
				rv.Seats[i].Player, rv.Seats[i].Bot = &p, p.Bot
			}
		}
		out.Start = rv
	}
	for i, ev := range events {
		a, err := klondike.DecodeAction(ev.Action)
		if err == nil {
			_, err = eng.Apply(ev.Seat, a)
		}
		if err != nil {
			return Replay{}, &game.Error{Code: game.Internal, Msg: "the action log does not replay", Err: errors.Join(errors.New("seq "+itoa(ev.Seq)), err)}
		}
		v := eng.View(viewer, g.ID, ev.Seq)
		out.Steps[i] = v.AppendDelta(nil, prev)
		out.Actions[i] = store.Action{GameID: g.ID, Seq: ev.Seq, Seat: ev.Seat, Action: ev.Action, At: ev.At}
		prev = v
	}
	// The log decides: the header's status is written after the answer to
	// the last action, and may lag. A race cancelled while it waited is over
	// by its header alone.
	if !finished(eng.Status()) && !finished(g.Status) {
		return Replay{Game: g}, ErrNotFinished
	}
	return out, nil
}
