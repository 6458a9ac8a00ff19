package httpapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// getHint is GET /api/v1/games/{id}/hint: a move recommended from what the
// player has seen (package hint), for the caller's own solo game in play,
// {"action", "reason"} (service.Hint). The hint is worked out outside the
// game's table, in one of the game service's solver slots (none free:
// rate_limited), and a hint with an action is counted in the game. The seq
// and the board do not change.
func (s *server) getHint(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	h, err := s.games.Hint(r.Context(), chi.URLParam(r, "id"), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, h)
}

// postCheck is POST /api/v1/games/{id}/check {"on": true}: turns the live
// check ("still winnable?") on for the caller's own solo game in play and
// answers the view, whose stillWinnable is null until the answer comes
// (live.Table.SetCheck). The game counts as assisted from then on.
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
	v, err := s.games.SetCheck(r.Context(), chi.URLParam(r, "id"), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
