package httpapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// replay is GET /api/v1/games/{id}/replay: a finished game (a won solo
// game, a race that is over) for anyone signed in, so that it can be
// shared (service.ReplayView). A game in play is refused to everyone, its
// players included: its log tells its deal; so is a daily challenge's game
// until its day has closed.
func (s *server) replay(w http.ResponseWriter, r *http.Request) {
	out, err := s.games.Watch(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
