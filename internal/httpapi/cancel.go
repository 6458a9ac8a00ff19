package httpapi

import (
	"errors"
	"net/http"

	"dsol/internal/game"
	"dsol/internal/store"
)

// cancelRace is POST /api/v1/races/{id}/cancel: the creator ends their race
// while it still waits for a second player. The race becomes "over" with no
// result ("cancelled": true in its view), leaves the lobby and takes no
// join any more; its subscribers get {"type": "over"}. Cancelling again
// answers the view; 403 for anybody but the creator, 409 once a second
// player has joined.
func (s *server) cancelRace(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	g, err := s.raceHeader(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if g.Seats[0] != p.ID {
		s.error(w, r, game.Errorf(game.Forbidden, "only the creator of a race can cancel it"))
		return
	}
	err = s.store.CancelRace(r.Context(), g.ID, p.ID, s.clock())
	if errors.Is(err, store.ErrConflict) {
		if g, err = s.store.Game(r.Context(), g.ID); err == nil && !(g.Status == "over" && g.Seats[1] == "") {
			err = game.Errorf(game.Conflict, "the race has started: it can only be resigned now")
		}
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	if g.Public {
		s.lobbyWS.Hub().Changed()
	}
	if err := s.tables.Cancelled(r.Context(), g.ID); err != nil {
		s.error(w, r, err)
		return
	}
	s.answerRace(w, r, http.StatusOK, g.ID, 1, "")
}
