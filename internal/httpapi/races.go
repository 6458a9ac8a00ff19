package httpapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"dsol/internal/lobby"
	"dsol/internal/protocol"
)

// createRace is POST /api/v1/races: a new race with the caller in seat 1 and,
// for a race against the computer, the server's bot in seat 2. The answer
// carries the secret invite, shown this once (only its hash is stored).
func (s *server) createRace(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	spec, err := raceBody(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	v, err := s.games.CreateRace(r.Context(), p.ID, spec.table())
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.answerRace(w, http.StatusCreated, v)
}

// raceBody reads and checks the race options of a request's body (POST
// /api/v1/races; POST /api/v1/match reads them with decodeMatch).
func raceBody(r *http.Request) (raceSpec, error) {
	b, err := readBody(r)
	if err != nil {
		return raceSpec{}, err
	}
	return decodeCreateRace(b)
}

// answerRace writes a race view; a 201 names the new race in Location.
func (s *server) answerRace(w http.ResponseWriter, status int, v protocol.RaceView) {
	if status == http.StatusCreated {
		w.Header().Set("Location", "/api/v1/games/"+v.ID)
	}
	writeJSON(w, status, v)
}

// joinRace is POST /api/v1/races/{id}/join {"invite"}: seat 2 (table's
// Registry.Join tells who may).
func (s *server) joinRace(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	b, err := readBody(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	invite, err := decodeJoin(b)
	if err != nil {
		s.error(w, r, err)
		return
	}
	v, err := s.games.Join(r.Context(), chi.URLParam(r, "id"), p.ID, invite)
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.answerRace(w, http.StatusOK, v)
}

// cancelRace is POST /api/v1/races/{id}/cancel: the creator ends their race
// while it still waits for a second player (Registry.Cancel).
func (s *server) cancelRace(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	v, err := s.games.Cancel(r.Context(), chi.URLParam(r, "id"), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.answerRace(w, http.StatusOK, v)
}

// lobby is GET /api/v1/lobby: the public races waiting for a second player,
// oldest first, but those of players the caller blocked or was blocked by
// (lobby.Race; the lobby socket sends the same list).
func (s *server) lobby(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	l, err := s.hub.List(r.Context())
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Races []lobby.Race `json:"races"`
	}{l.For(p.ID)})
}

// rematch is POST /api/v1/races/{id}/rematch: once the race is over, a
// player offers the next game of its series, and the other player accepts
// it the same way (Registry.Rematch). 201 when this call created the next
// race, 200 after.
func (s *server) rematch(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	v, created, err := s.games.Rematch(r.Context(), chi.URLParam(r, "id"), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	s.answerRace(w, status, v)
}

// declineRematch is POST /api/v1/races/{id}/decline: the player of a
// finished race declines the rematch the opponent offered after it
// (Registry.Decline).
func (s *server) declineRematch(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	v, err := s.games.Decline(r.Context(), chi.URLParam(r, "id"), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.answerRace(w, http.StatusOK, v)
}
