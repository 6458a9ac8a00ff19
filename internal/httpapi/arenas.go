package httpapi

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"dsol/internal/game"
	"dsol/internal/service"
)

// arenaRequest is the body of POST /api/v1/arenas.
type arenaRequest struct {
	Minutes  *int    `json:"minutes"`
	Draw     *int    `json:"draw"`
	Redeal   *string `json:"redeal"`
	StartsIn *int    `json:"startsIn"`
}

// decodeArena reads and checks a request for a new arena: minutes 5 to
// 120 (required), draw 1 or 3 (default 1), redeal (default unlimited),
// startsIn seconds from now (default 60; 0: now; at most a day).
func decodeArena(body []byte) (service.ArenaSpec, error) {
	var in arenaRequest
	if err := decodeJSON(body, &in, false); err != nil {
		return service.ArenaSpec{}, err
	}
	spec := service.ArenaSpec{Draw: draws[0], StartsIn: service.DefaultStartsIn}
	if in.Minutes == nil || *in.Minutes < service.MinArenaMinutes || *in.Minutes > service.MaxArenaMinutes {
		return spec, game.Errorf(game.BadRequest, "minutes must be a whole number from %d to %d", service.MinArenaMinutes, service.MaxArenaMinutes)
	}
	spec.Minutes = *in.Minutes
	var err error
	if in.Draw != nil {
		if spec.Draw, err = readDraw(*in.Draw); err != nil {
			return spec, err
		}
	}
	if in.Redeal != nil {
		if spec.Single, err = readFlag("redeal", redeals, *in.Redeal); err != nil {
			return spec, err
		}
	}
	if in.StartsIn != nil {
		maxIn := int(service.MaxArenaStartsIn / time.Second)
		if *in.StartsIn < 0 || *in.StartsIn > maxIn {
			return spec, game.Errorf(game.BadRequest, "startsIn must be seconds from 0 to %d", maxIn)
		}
		spec.StartsIn = time.Duration(*in.StartsIn) * time.Second
	}
	return spec, nil
}

// createArena is POST /api/v1/arenas: 201 with the new arena, which its
// creator has joined.
func (s *server) createArena(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	b, err := readBody(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	spec, err := decodeArena(b)
	if err != nil {
		s.error(w, r, err)
		return
	}
	v, err := s.games.CreateArena(r.Context(), p, spec)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

// listArenas is GET /api/v1/arenas: {"arenas": [view, …]}, the upcoming
// and running ones and those that ended in the last minutes, soonest start
// first, without their standings.
func (s *server) listArenas(w http.ResponseWriter, r *http.Request) {
	vs, err := s.games.Arenas(r.Context())
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Arenas []service.ArenaView `json:"arenas"`
	}{vs})
}

// getArena is GET /api/v1/arenas/{id}: the arena with all its standings.
func (s *server) getArena(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	v, err := s.games.ArenaView(r.Context(), chi.URLParam(r, "id"), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// arenaRaces is GET /api/v1/arenas/{id}/races: {"races": [...]}, every race
// of the arena, oldest first, each with its players and points (its replay
// is GET /api/v1/games/{id}/replay once over).
func (s *server) arenaRaces(w http.ResponseWriter, r *http.Request) {
	rs, err := s.games.ArenaRaces(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Races []service.ArenaRace `json:"races"`
	}{rs})
}

// joinArena is POST /api/v1/arenas/{id}/join (idempotent; brings a paused
// player back): the arena's view.
func (s *server) joinArena(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	v, err := s.games.JoinArena(r.Context(), chi.URLParam(r, "id"), p)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// leaveArena is POST /api/v1/arenas/{id}/leave: the player is no longer
// paired (their points stay) until they join again; the arena's view.
func (s *server) leaveArena(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	v, err := s.games.LeaveArena(r.Context(), chi.URLParam(r, "id"), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
