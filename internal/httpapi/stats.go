package httpapi

import (
	"math"
	"net/http"
	"time"

	"dsol/internal/players"
)

// statsJSON is the answer of GET /api/v1/me/stats.
type statsJSON struct {
	Solo  []soloStatsJSON `json:"solo"`
	Race  raceStatsJSON   `json:"race"`
	Since *time.Time      `json:"since"` // the reset point, null: never reset
	Daily streakJSON      `json:"daily"` // the daily streak (never reset)
}

type soloStatsJSON struct {
	Draw        int          `json:"draw"`
	Scoring     string       `json:"scoring"`
	Played      int          `json:"played"`
	Won         int          `json:"won"`
	WinRate     float64      `json:"winRate"` // won / played, 0 with no game
	Streak      int          `json:"streak"`
	BestStreak  int          `json:"bestStreak"`
	BestScore   *int         `json:"bestScore"`
	FastestWin  *int64       `json:"fastestWin"` // seconds of play
	FewestMoves *int         `json:"fewestMoves"`
	Clean       int          `json:"clean"`
	Assisted    int          `json:"assisted"`
	Recent      []recentJSON `json:"recent"` // oldest first
}

type recentJSON struct {
	Won     bool   `json:"won"`
	Playing bool   `json:"playing"` // the latest game, unwon and not lost yet
	Score   *int   `json:"score"`
	Moves   *int   `json:"moves"`
	Seconds *int64 `json:"seconds"`
}

type raceCountsJSON struct {
	Played int `json:"played"`
	Won    int `json:"won"`
	Lost   int `json:"lost"`
	Drawn  int `json:"drawn"`
}

type raceStatsJSON struct {
	raceCountsJSON
	Rating      int            `json:"rating"`
	Provisional bool           `json:"provisional"` // the rating is provisional (see GET /api/v1/me)
	Bot         raceCountsJSON `json:"bot"`         // the races against the server's bot, counted above too
}

// getStats is GET /api/v1/me/stats.
func (s *server) getStats(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	st, err := s.players.Stats(r.Context(), p.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	out := statsOf(st)
	if out.Daily, err = s.dailyStreak(r.Context(), p.ID); err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// resetStats is POST /api/v1/me/stats/reset: only the games started from
// now on count; the race rating stays. It answers the statistics after it.
func (s *server) resetStats(w http.ResponseWriter, r *http.Request) {
	p, _ := playerOf(r.Context())
	if err := s.players.ResetStats(r.Context(), p.ID); err != nil {
		s.error(w, r, err)
		return
	}
	s.getStats(w, r)
}

func statsOf(st players.Stats) statsJSON {
	out := statsJSON{Solo: make([]soloStatsJSON, len(st.Solo)), Race: raceStatsJSON{
		raceCountsJSON: countsOf(st.Race.RaceCounts),
		Rating:         int(math.Round(st.Race.Rating)),
		Provisional:    st.Race.Provisional(),
		Bot:            countsOf(st.Race.Bot),
	}}
	if !st.Since.IsZero() {
		out.Since = &st.Since
	}
	for i, m := range st.Solo {
		j := soloStatsJSON{
			Draw: m.Draw, Scoring: m.Scoring, Played: m.Played, Won: m.Won,
			Streak: m.Streak, BestStreak: m.BestStreak,
			BestScore: m.BestScore, FastestWin: secondsOf(m.FastestWin), FewestMoves: m.FewestMoves,
			Clean: m.Clean(), Assisted: m.Assisted, Recent: make([]recentJSON, len(m.Recent)),
		}
		if m.Played > 0 {
			j.WinRate = float64(m.Won) / float64(m.Played)
		}
		for k, g := range m.Recent {
			j.Recent[k] = recentJSON{Won: g.Won, Playing: g.Playing, Score: g.Score, Moves: g.Moves, Seconds: secondsOf(g.Play)}
		}
		out.Solo[i] = j
	}
	return out
}

func countsOf(c players.RaceCounts) raceCountsJSON {
	return raceCountsJSON{Played: c.Played, Won: c.Won, Lost: c.Lost, Drawn: c.Drawn}
}

// secondsOf rounds a duration to whole seconds; nil stays nil.
func secondsOf(d *time.Duration) *int64 {
	if d == nil {
		return nil
	}
	s := int64(math.Round(d.Seconds()))
	return &s
}
