package service

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"dsol/internal/daily"
	"dsol/internal/game"
	"dsol/internal/protocol"
	"dsol/internal/solver"
	"dsol/internal/store"
)

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
func (s *Service) challenges(ctx context.Context, day string, create bool) ([]store.DailyChallenge, error) {
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

// DailyPage is a day's challenges and a player's state in each, as GET
// /api/v1/daily answers them (the transport adds the player's streak).
type DailyPage struct {
	Day        string           `json:"day"`
	ClosesAt   time.Time        `json:"closesAt"`
	Challenges []DailyChallenge `json:"challenges"`
}

// DailyChallenge is one challenge of a day and a player's state in it.
// Code is there once the day has closed.
type DailyChallenge struct {
	Mode    string  `json:"mode"`
	Draw    int     `json:"draw"`
	Scoring string  `json:"scoring"`
	State   string  `json:"state"` // new, playing, won
	Game    *string `json:"game"`
	Rank    *int    `json:"rank"` // null: not won, or not ranked
	// Unranked says why the player's entry does not rank, as
	// LeaderboardEntry.Unranked.
	Unranked string `json:"unranked,omitempty"`
	Players  int    `json:"players"`
	Code     string `json:"code,omitempty"`
}

// Daily returns the challenges of day ("": today, UTC) and player's state
// in each: today's are made on need; a day without any is not_found, one
// that is not a date bad_request.
func (s *Service) Daily(ctx context.Context, day, player string) (DailyPage, error) {
	now := s.clock()
	if day == "" {
		day = daily.Day(now)
	}
	if err := checkDay(day); err != nil {
		return DailyPage{}, err
	}
	cs, err := s.challenges(ctx, day, day == daily.Day(now))
	if err != nil {
		return DailyPage{}, err
	}
	if len(cs) == 0 {
		return DailyPage{}, game.Errorf(game.NotFound, "there is no daily challenge of %s", day)
	}
	_, end, _ := daily.Bounds(day)
	out := DailyPage{Day: day, ClosesAt: end, Challenges: []DailyChallenge{}}
	for _, m := range daily.Modes {
		c := challengeOf(cs, m.Name)
		if c == nil {
			continue
		}
		lb, err := s.store.Leaderboard(ctx, leaderboardQuery(day, m.Name, player, 0))
		if err != nil {
			return DailyPage{}, err
		}
		cj := DailyChallenge{Mode: m.Name, Draw: m.Draw, Scoring: m.Scoring(), State: "new", Players: lb.Players}
		if lb.You != nil {
			cj.State, cj.Game = "playing", &lb.You.GameID
			if lb.You.Won {
				cj.State = "won"
			}
			cj.Rank, cj.Unranked = rankOf(*lb.You), lb.You.Unranked
		}
		if daily.Closed(day, now) {
			cj.Code = c.Code
		}
		out.Challenges = append(out.Challenges, cj)
	}
	return out, nil
}

// leaderboardQuery is the store's query of the leaderboard of day's
// challenge of mode, by the rules of package daily.
func leaderboardQuery(day, mode, player string, limit int) store.LeaderboardQuery {
	begin, end, _ := daily.Bounds(day)
	return store.LeaderboardQuery{Day: day, Mode: mode, Begin: begin, End: end, Player: player, Limit: limit,
		EarlierActions: daily.EarlierActions, MinGap: daily.MinGap}
}

func rankOf(e store.DailyRow) *int {
	if e.Rank == 0 {
		return nil
	}
	n := e.Rank
	return &n
}

// StartDaily returns player's game of today's challenge of mode m, started
// (created true) or the one they have: one game per player and challenge,
// resumable, never a second try. The game header and the entry are stored
// in one transaction.
func (s *Service) StartDaily(ctx context.Context, player, mode string) (id string, v protocol.View, created bool, err error) {
	m, err := modeOf(mode)
	if err != nil {
		return "", nil, false, err
	}
	now := s.clock()
	day := daily.Day(now)
	cs, err := s.challenges(ctx, day, true)
	if err != nil {
		return "", nil, false, err
	}
	c := challengeOf(cs, m.Name)
	if c == nil {
		return "", nil, false, game.Errorf(game.Unavailable, "today's %s challenge is not ready: try again", m.Name)
	}
	id, err = s.randomString(12)
	if err != nil {
		return "", nil, false, err
	}
	opts, _ := json.Marshal(game.SoloOptions{Daily: day})
	g := store.Game{ID: id, Kind: game.KindSolo, Code: c.Code, Options: opts, Status: game.Playing,
		Seats: [2]string{player}, CreatedAt: now, UpdatedAt: now}
	e, created, err := s.store.StartDaily(ctx, g, store.DailyEntry{Day: day, Mode: m.Name, PlayerID: player, GameID: id, CreatedAt: now})
	if err != nil {
		return "", nil, false, err
	}
	if created {
		_, v, err = s.tables.Preview(ctx, e.GameID, 1)
	} else {
		_, v, err = s.tables.Snapshot(ctx, e.GameID, 1)
	}
	if err != nil {
		return "", nil, false, err
	}
	return e.GameID, v, created, nil
}

// Leaderboard is a challenge's leaderboard as GET
// /api/v1/daily/{day}/{mode}/leaderboard answers it.
type Leaderboard struct {
	Day     string             `json:"day"`
	Mode    string             `json:"mode"`
	Entries []LeaderboardEntry `json:"entries"`
	You     *LeaderboardEntry  `json:"you"`
	Players int                `json:"players"`
}

// LeaderboardEntry is one entry of a leaderboard. Won is a win stored
// before the day closed. Ranked is false for the caller's own entry when
// it does not rank, and Unranked says why: "new_account" (no solo game of
// daily.EarlierActions actions before the day) or "too_fast" (a win at a
// pace no person plays).
type LeaderboardEntry struct {
	Rank     *int        `json:"rank"` // null: not won (or not ranked)
	Player   EntryPlayer `json:"player"`
	Won      bool        `json:"won"`
	Clean    bool        `json:"clean"`
	Seconds  int64       `json:"seconds"`
	Moves    int         `json:"moves"`
	Ranked   bool        `json:"ranked"`
	Unranked string      `json:"unranked,omitempty"`
}

// EntryPlayer is the player of a leaderboard entry.
type EntryPlayer struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Leaderboard returns the leaderboard of day's challenge of mode, at most
// limit ranked entries (players created before the day began) in order,
// wins first (clean above assisted, then fewer seconds, then fewer moves,
// then who won first: every win has its own rank), then the entries not
// won, unranked; and player's own entry, ranked or not.
func (s *Service) Leaderboard(ctx context.Context, day, mode, player string, limit int) (Leaderboard, error) {
	if err := checkDay(day); err != nil {
		return Leaderboard{}, err
	}
	if _, err := modeOf(mode); err != nil {
		return Leaderboard{}, err
	}
	cs, err := s.store.DailyChallenges(ctx, day)
	if err != nil {
		return Leaderboard{}, err
	}
	if challengeOf(cs, mode) == nil {
		return Leaderboard{}, game.Errorf(game.NotFound, "there is no %s challenge of %s", mode, day)
	}
	lb, err := s.store.Leaderboard(ctx, leaderboardQuery(day, mode, player, limit))
	if err != nil {
		return Leaderboard{}, err
	}
	out := Leaderboard{Day: day, Mode: mode, Entries: make([]LeaderboardEntry, len(lb.Entries)), Players: lb.Players}
	for i, e := range lb.Entries {
		out.Entries[i] = entryOf(e)
	}
	if lb.You != nil {
		you := entryOf(*lb.You)
		out.You = &you
	}
	return out, nil
}

func entryOf(e store.DailyRow) LeaderboardEntry {
	return LeaderboardEntry{Rank: rankOf(e), Player: EntryPlayer{ID: e.PlayerID, Name: e.Name}, Won: e.Won, Clean: e.Clean,
		Seconds: int64(e.Play.Round(time.Second) / time.Second), Moves: e.Moves, Ranked: e.Ranked, Unranked: e.Unranked}
}

// checkDay refuses a day that is not a date.
func checkDay(day string) error {
	if _, _, err := daily.Bounds(day); err != nil {
		return game.Errorf(game.BadRequest, "day must be a date, YYYY-MM-DD (UTC)")
	}
	return nil
}

// modeOf finds a mode of the daily challenge by name.
func modeOf(name string) (daily.Mode, error) {
	m, ok := daily.ModeOf(name)
	if !ok {
		return m, game.Errorf(game.NotFound, "there is no daily challenge of mode %q (D1N or D3N)", name)
	}
	return m, nil
}
