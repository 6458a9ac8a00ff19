package httpapi

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"dsol/internal/game"
)

// getHint is GET /api/v1/games/{id}/hint: a move recommended from what the
// player has seen (package hint), for the caller's own solo game in play,
// {"action", "reason"} (table.Hint). The hint is worked out outside the
// game's table, in one of the server's hint slots (HintWorkers; none free:
// rate_limited), and a hint with an action is counted in the game. The seq
// and the board do not change.
func (s *server) getHint(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	id := chi.URLParam(r, "id")
	pos, err := s.tables.SoloInPlay(r.Context(), id, p.ID, "hints are")
	if err != nil {
		s.error(w, r, err)
		return
	}
	select {
	case s.hintSlots <- struct{}{}:
	default:
		s.error(w, r, game.Errorf(game.RateLimited, "the server is working out other hints; ask again in a moment"))
		return
	}
	h := pos.Hint(id, s.cfg.Hint)
	<-s.hintSlots
	if h.Action != nil {
		if _, err := s.tables.AddHint(r.Context(), id); err != nil {
			s.error(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, h)
}

// postCheck is POST /api/v1/games/{id}/check {"on": true}: turns the live
// check ("still winnable?") on for the caller's own solo game in play and
// answers the view, whose stillWinnable is null until the answer comes
// (table.SetCheck). The game counts as assisted from then on.
func (s *server) postCheck(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err == nil {
		err = decodeCheck(body)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	p, _ := playerOf(r.Context())
	id := chi.URLParam(r, "id")
	if _, err := s.tables.SoloInPlay(r.Context(), id, p.ID, "the check is"); err != nil {
		s.error(w, r, err)
		return
	}
	v, err := s.tables.SetCheck(r.Context(), id)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// takeSlot waits for one of the hint slots, or for ctx; freeSlot gives it
// back. The live checks (table.SolverCheck) share the slots with the hints.
func (s *server) takeSlot(ctx context.Context) bool {
	select {
	case s.hintSlots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (s *server) freeSlot() { <-s.hintSlots }

// tryTakeSlot takes a hint slot if one is free, at once (the strong race
// bot's searches: with none free the bot plays its plain move).
func (s *server) tryTakeSlot() bool {
	select {
	case s.hintSlots <- struct{}{}:
		return true
	default:
		return false
	}
}
