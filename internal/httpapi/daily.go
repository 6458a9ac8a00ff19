package httpapi

import (
	"context"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"dsol/internal/daily"
	"dsol/internal/game"
	"dsol/internal/table"
)

// dailyJSON is the answer of GET /api/v1/daily and GET /api/v1/daily/{day}:
// the day's challenges and the caller's state in each, and their streak.
type dailyJSON struct {
	table.DailyPage
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
	s.writeDaily(w, r, daily.Day(s.clock()))
}

// getDailyDay is GET /api/v1/daily/{day}: a day's challenges, with their
// codes once the day has closed.
func (s *server) getDailyDay(w http.ResponseWriter, r *http.Request) {
	day, err := dayParam(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.writeDaily(w, r, day)
}

// dayParam reads the {day} of the path.
func dayParam(r *http.Request) (string, error) {
	day := chi.URLParam(r, "day")
	if _, _, err := daily.Bounds(day); err != nil {
		return "", game.Errorf(game.BadRequest, "day must be a date, YYYY-MM-DD (UTC)")
	}
	return day, nil
}

// writeDaily answers the challenges of a day and the caller's state in
// each: today's are made on need, a day without any is 404.
func (s *server) writeDaily(w http.ResponseWriter, r *http.Request, day string) {
	p, _ := playerOf(r.Context())
	page, err := s.tables.Daily(r.Context(), day, p.ID)
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

// modeParam reads the {mode} of the path.
func modeParam(r *http.Request) (daily.Mode, error) {
	m, ok := daily.ModeOf(chi.URLParam(r, "mode"))
	if !ok {
		return m, game.Errorf(game.NotFound, "there is no daily challenge of mode %q (D1N or D3N)", chi.URLParam(r, "mode"))
	}
	return m, nil
}

// startDaily is POST /api/v1/daily/{mode}: the caller's game of today's
// challenge of that mode, started (201) or the one they have (200): one
// game per player and challenge, resumable, never a second try.
func (s *server) startDaily(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	m, err := modeParam(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	id, view, created, err := s.tables.StartDaily(r.Context(), p.ID, m)
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
// (Registry.Leaderboard).
func (s *server) leaderboard(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	day, err := dayParam(r)
	if err == nil {
		_, err = modeParam(r)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	limit := leaderboardLimit
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > listLimit {
			s.error(w, r, game.Errorf(game.BadRequest, "limit must be a whole number from 1 to %d", listLimit))
			return
		}
		limit = n
	}
	out, err := s.tables.Leaderboard(r.Context(), day, chi.URLParam(r, "mode"), p.ID, limit)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
