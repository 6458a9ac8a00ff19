package httpapi

import (
	"context"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"dsol/internal/game"
	"dsol/internal/service"
)

// dailyJSON is the answer of GET /api/v1/daily and GET /api/v1/daily/{day}:
// the day's challenges and the caller's state in each, and their streak.
type dailyJSON struct {
	service.DailyPage
	Streak streakJSON `json:"streak"`
}

// streakJSON is a daily streak: days in a row with a won challenge.
type streakJSON struct {
	Current int `json:"current"`
	Best    int `json:"best"`
}

// leaderboardLimit is the page of a leaderboard unless limit says less.
const leaderboardLimit = 50

// getDaily is GET /api/v1/daily: today's challenges (UTC), made on first
// need.
func (s *server) getDaily(w http.ResponseWriter, r *http.Request) {
	s.writeDaily(w, r, "")
}

// getDailyDay is GET /api/v1/daily/{day}: a day's challenges, with their
// codes once the day has closed.
func (s *server) getDailyDay(w http.ResponseWriter, r *http.Request) {
	s.writeDaily(w, r, chi.URLParam(r, "day"))
}

// writeDaily answers the challenges of a day ("": today) and the caller's
// state in each: today's are made on need, a day without any is 404.
func (s *server) writeDaily(w http.ResponseWriter, r *http.Request, day string) {
	p, _ := playerOf(r.Context())
	page, err := s.games.Daily(r.Context(), day, p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	out := dailyJSON{DailyPage: page}
	if out.Streak, err = s.dailyStreak(r.Context(), p.ID); err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// dailyStreak is the caller's daily streak now.
func (s *server) dailyStreak(ctx context.Context, playerID string) (streakJSON, error) {
	cur, best, err := s.players.Streak(ctx, playerID)
	return streakJSON{Current: cur, Best: best}, err
}

// startDaily is POST /api/v1/daily/{mode}: the caller's game of today's
// challenge of that mode, started (201) or the one they have (200): one
// game per player and challenge, resumable, never a second try.
func (s *server) startDaily(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	id, view, created, err := s.games.StartDaily(r.Context(), p.ID, chi.URLParam(r, "mode"))
	if err != nil {
		s.error(w, r, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	w.Header().Set("Location", "/api/v1/games/"+id)
	writeJSON(w, status, view)
}

// leaderboard is GET /api/v1/daily/{day}/{mode}/leaderboard?limit=: the
// ranked entries in order and the caller's own entry, ranked or not
// (service.Service.Leaderboard).
func (s *server) leaderboard(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	limit := leaderboardLimit
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > listLimit {
			s.error(w, r, game.Errorf(game.BadRequest, "limit must be a whole number from 1 to %d", listLimit))
			return
		}
		limit = n
	}
	out, err := s.games.Leaderboard(r.Context(), chi.URLParam(r, "day"), chi.URLParam(r, "mode"), p.ID, limit)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
