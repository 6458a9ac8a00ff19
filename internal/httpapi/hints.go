package httpapi

import (
	"net/http"

	"dsol/internal/hint"
	"dsol/internal/klondike"
	"dsol/internal/table"
)

// hintBody is the answer of GET /api/v1/games/{id}/hint: a legal action, or
// null when no move helps, and a short sentence saying why.
type hintBody struct {
	Action *klondike.Action `json:"action"`
	Reason string           `json:"reason"`
}

// getHint is GET /api/v1/games/{id}/hint: a move recommended from what the
// player has seen (package hint), for the caller's own solo game in play.
// The hint is worked out outside the game's table, in one of the server's
// hint slots (HintWorkers; none free: rate_limited), and a hint with an
// action is counted in the game. The seq and the board do not change.
func (s *server) getHint(w http.ResponseWriter, r *http.Request) {
	t, _, err := s.game(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if t.Game().Kind != "solo" {
		s.error(w, r, table.Errorf(table.Forbidden, "hints are for solo games, not races"))
		return
	}
	pos, err := s.tables.SoloPosition(r.Context(), t.ID())
	if err != nil {
		s.error(w, r, err)
		return
	}
	if pos.Status != "playing" {
		s.error(w, r, &klondike.Error{Code: klondike.GameOver, Msg: "the game is won; start a new one"})
		return
	}
	select {
	case s.hintSlots <- struct{}{}:
	default:
		s.error(w, r, table.Errorf(table.RateLimited, "the server is working out other hints; ask again in a moment"))
		return
	}
	h := hint.For(pos.Seen, &pos.Found, hint.Seed(t.ID(), pos.Seq), s.cfg.Hint)
	<-s.hintSlots
	out := hintBody{Reason: h.Reason}
	if h.OK {
		out.Action = &h.Action
		if _, err := s.tables.AddHint(r.Context(), t.ID()); err != nil {
			s.error(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, out)
}
