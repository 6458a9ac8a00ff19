package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"dsol/internal/daily"
	"dsol/internal/game"
	"dsol/internal/solver"
	"dsol/internal/store"
)

// dailyJSON is the answer of GET /api/v1/daily and GET /api/v1/daily/{day}.
type dailyJSON struct {
	Day        string          `json:"day"`
	ClosesAt   time.Time       `json:"closesAt"`
	Challenges []challengeJSON `json:"challenges"`
	Streak     streakJSON      `json:"streak"`
}

// challengeJSON is one challenge of a day and the caller's state in it.
// Code is there once the day has closed.
type challengeJSON struct {
	Mode    string  `json:"mode"`
	Draw    int     `json:"draw"`
	Scoring string  `json:"scoring"`
	State   string  `json:"state"` // new, playing, won
	Game    *string `json:"game"`
	Rank    *int    `json:"rank"` // null: not won, or a player created that day (unranked)
	Players int     `json:"players"`
	Code    string  `json:"code,omitempty"`
}

// streakJSON is a daily streak: days in a row with a won challenge.
type streakJSON struct {
	Current int `json:"current"`
	Best    int `json:"best"`
}

// leaderboardJSON is the answer of GET /api/v1/daily/{day}/{mode}/leaderboard.
type leaderboardJSON struct {
	Day     string      `json:"day"`
	Mode    string      `json:"mode"`
	Entries []entryJSON `json:"entries"`
	You     *entryJSON  `json:"you"`
	Players int         `json:"players"`
}

// entryJSON is one entry of a leaderboard. Ranked is false for the
// caller's own entry when their account was made on the day itself.
type entryJSON struct {
	Rank    *int       `json:"rank"` // null: not won (or not ranked)
	Player  playerJSON `json:"player"`
	Won     bool       `json:"won"`
	Clean   bool       `json:"clean"`
	Seconds int64      `json:"seconds"`
	Moves   int        `json:"moves"`
	Ranked  bool       `json:"ranked"`
}

// leaderboardLimit is the page of a leaderboard unless limit says less.
const leaderboardLimit = 50

// dailyMaker makes the challenges of a day on first need: one at a time on
// a node (a draw runs the solver), outside any store transaction; nodes
// racing keep whichever the store holds first.
type dailyMaker struct {
	mu     sync.Mutex
	solver *solver.Solver // used under mu
}

// challenges returns the challenges of day; with create, the missing ones of
// that day are drawn and stored first (today's, on the first request that
// needs them).
func (s *server) challenges(ctx context.Context, day string, create bool) ([]store.DailyChallenge, error) {
	cs, err := s.store.DailyChallenges(ctx, day)
	if err != nil || !create || len(cs) == len(daily.Modes) {
		return cs, err
	}
	s.daily.mu.Lock()
	defer s.daily.mu.Unlock()
	if cs, err = s.store.DailyChallenges(ctx, day); err != nil || len(cs) == len(daily.Modes) {
		return cs, err
	}
	if s.daily.solver == nil {
		s.daily.solver = solver.New()
	}
	for _, m := range daily.Modes {
		if challengeOf(cs, m.Name) != nil {
			continue
		}
		code, err := daily.Pick(s.daily.solver, m, s.random)
		if err != nil {
			return nil, err
		}
		if _, err := s.store.PutDailyChallenge(ctx, store.DailyChallenge{Day: day, Mode: m.Name, Code: code.String(), CreatedAt: s.clock()}); err != nil {
			return nil, err
		}
	}
	return s.store.DailyChallenges(ctx, day)
}

func challengeOf(cs []store.DailyChallenge, mode string) *store.DailyChallenge {
	for i := range cs {
		if cs[i].Mode == mode {
			return &cs[i]
		}
	}
	return nil
}

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
	now := s.clock()
	cs, err := s.challenges(r.Context(), day, day == daily.Day(now))
	if err != nil {
		s.error(w, r, err)
		return
	}
	if len(cs) == 0 {
		s.error(w, r, game.Errorf(game.NotFound, "there is no daily challenge of %s", day))
		return
	}
	begin, end, _ := daily.Bounds(day)
	out := dailyJSON{Day: day, ClosesAt: end, Challenges: []challengeJSON{}}
	for _, m := range daily.Modes {
		c := challengeOf(cs, m.Name)
		if c == nil {
			continue
		}
		lb, err := s.store.Leaderboard(r.Context(), store.LeaderboardQuery{Day: day, Mode: m.Name, Begin: begin, Player: p.ID})
		if err != nil {
			s.error(w, r, err)
			return
		}
		cj := challengeJSON{Mode: m.Name, Draw: m.Draw, Scoring: m.Scoring(), State: "new", Players: lb.Players}
		if lb.You != nil {
			cj.State, cj.Game = "playing", &lb.You.GameID
			if lb.You.Won {
				cj.State = "won"
			}
			cj.Rank = rankOf(*lb.You)
		}
		if daily.Closed(day, now) {
			cj.Code = c.Code
		}
		out.Challenges = append(out.Challenges, cj)
	}
	if out.Streak, err = s.dailyStreak(r.Context(), p.ID); err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// dailyStreak is the caller's daily streak now.
func (s *server) dailyStreak(ctx context.Context, playerID string) (streakJSON, error) {
	days, err := s.store.DailyWins(ctx, playerID)
	if err != nil {
		return streakJSON{}, err
	}
	cur, best := daily.Streak(days, s.clock())
	return streakJSON{Current: cur, Best: best}, nil
}

func rankOf(e store.DailyRow) *int {
	if e.Rank == 0 {
		return nil
	}
	n := e.Rank
	return &n
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
// game per player and challenge, resumable, never a second try. The game
// header and the entry are stored in one transaction.
func (s *server) startDaily(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	m, err := modeParam(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	now := s.clock()
	day := daily.Day(now)
	cs, err := s.challenges(r.Context(), day, true)
	if err != nil {
		s.error(w, r, err)
		return
	}
	c := challengeOf(cs, m.Name)
	if c == nil {
		s.error(w, r, game.Errorf(game.Unavailable, "today's %s challenge is not ready: try again", m.Name))
		return
	}
	id, err := s.randomString(12)
	if err != nil {
		s.error(w, r, err)
		return
	}
	opts, _ := json.Marshal(game.SoloOptions{Daily: day})
	g := store.Game{ID: id, Kind: "solo", Code: c.Code, Options: opts, Status: "playing",
		Seats: [2]string{p.ID}, CreatedAt: now, UpdatedAt: now}
	e, created, err := s.store.StartDaily(r.Context(), g, store.DailyEntry{Day: day, Mode: m.Name, PlayerID: p.ID, GameID: id, CreatedAt: now})
	if err != nil {
		s.error(w, r, err)
		return
	}
	status := http.StatusOK
	var view any
	if created {
		status = http.StatusCreated
		_, view, err = s.tables.Preview(r.Context(), e.GameID, 1)
	} else {
		_, view, err = s.tables.Snapshot(r.Context(), e.GameID, 1)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/v1/games/"+e.GameID)
	writeJSON(w, status, view)
}

// leaderboard is GET /api/v1/daily/{day}/{mode}/leaderboard?limit=: the
// ranked entries (players created before the day began) in order, wins
// first (clean above assisted, then fewer seconds, then fewer moves, then
// who won first: every win has its own rank), then the entries not won,
// unranked; and the caller's own entry, ranked or not.
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
	mode := chi.URLParam(r, "mode")
	limit := leaderboardLimit
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > listLimit {
			s.error(w, r, game.Errorf(game.BadRequest, "limit must be a whole number from 1 to %d", listLimit))
			return
		}
		limit = n
	}
	cs, err := s.store.DailyChallenges(r.Context(), day)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if challengeOf(cs, mode) == nil {
		s.error(w, r, game.Errorf(game.NotFound, "there is no %s challenge of %s", mode, day))
		return
	}
	begin, _, _ := daily.Bounds(day)
	lb, err := s.store.Leaderboard(r.Context(), store.LeaderboardQuery{Day: day, Mode: mode, Begin: begin, Player: p.ID, Limit: limit})
	if err != nil {
		s.error(w, r, err)
		return
	}
	out := leaderboardJSON{Day: day, Mode: mode, Entries: make([]entryJSON, len(lb.Entries)), Players: lb.Players}
	for i, e := range lb.Entries {
		out.Entries[i] = entryOf(e)
	}
	if lb.You != nil {
		you := entryOf(*lb.You)
		out.You = &you
	}
	writeJSON(w, http.StatusOK, out)
}

func entryOf(e store.DailyRow) entryJSON {
	return entryJSON{Rank: rankOf(e), Player: playerJSON{ID: e.PlayerID, Name: e.Name}, Won: e.Won, Clean: e.Clean,
		Seconds: int64(e.Play.Round(time.Second) / time.Second), Moves: e.Moves, Ranked: e.Ranked}
}

// dailyOpen reports whether g is a daily challenge's game whose day has
// not closed at now: its code, and its log, which tells the deal as well,
// are kept from everyone until then.
func dailyOpen(g store.Game, now time.Time) bool {
	day := game.DailyOf(g.Kind, g.Options)
	return day != "" && !daily.Closed(day, now)
}
