package httpapi

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"dsol/internal/game"
	"dsol/internal/store"
	"dsol/internal/table"
)

// replayAction is one action of a replay: when it was played and by which
// seat, as the log stores it.
type replayAction struct {
	Seq    int64           `json:"seq"`
	Seat   int             `json:"seat"`
	Action json.RawMessage `json:"action"`
	At     time.Time       `json:"at"`
}

// replayView is the answer of GET /api/v1/games/{id}/replay: the game's
// code (for a race its salt too, which checks the commitment the race was
// played under), its actions, and what a viewer needs to watch it without
// the rules: the view before the first action and each action's delta from the view before it, to fold in order.
type replayView struct {
	ID      string            `json:"id"`
	Kind    string            `json:"kind"`
	Code    string            `json:"code"`
	Salt    string            `json:"salt,omitempty"`
	Actions []replayAction    `json:"actions"`
	Start   table.View        `json:"start"`
	Steps   []json.RawMessage `json:"steps"`
}

// replay is GET /api/v1/games/{id}/replay: a finished game (a won solo
// game, a race that is over) for anyone signed in, so that it can be
// shared. A game in play is refused to everyone, its players included: its
// log tells its deal; so is a daily challenge's game until its day has
// closed.
func (s *server) replay(w http.ResponseWriter, r *http.Request) {
	rp, err := s.tables.Replay(r.Context(), chi.URLParam(r, "id"))
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.error(w, r, game.Errorf(game.NotFound, "no such game"))
		return
	case errors.Is(err, table.ErrNotFinished):
		s.error(w, r, game.Errorf(game.Forbidden, "a game can be replayed once it is finished"))
		return
	case err != nil:
		s.error(w, r, err)
		return
	}
	if dailyOpen(rp.Game, s.clock()) {
		s.error(w, r, game.Errorf(game.Forbidden, "a daily challenge's game can be replayed once its day has closed (UTC midnight)"))
		return
	}
	out := replayView{ID: rp.Game.ID, Kind: rp.Game.Kind, Code: rp.Game.Code, Start: rp.Start, Steps: rp.Steps,
		Actions: make([]replayAction, len(rp.Actions))}
	if rp.Game.Kind == "race" {
		out.Salt = hex.EncodeToString(rp.Game.Salt)
	}
	for i, a := range rp.Actions {
		out.Actions[i] = replayAction{Seq: a.Seq, Seat: a.Seat, Action: a.Action, At: a.At.UTC()}
	}
	writeJSON(w, http.StatusOK, out)
}
