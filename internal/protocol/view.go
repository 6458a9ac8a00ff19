package protocol

import (
	"encoding/json"
	"time"

	"dsol/internal/game"
	"dsol/internal/race"
	"dsol/internal/solo"
)

// SoloView is the solo game view of the API: the engine's view plus the
// game id, the seq it reflects, whether the game was dealt as winnable
// (a deal the solver won: see internal/winnable), the hints given so
// far, the day of the daily challenge it is the game of ("": none), and
// the live check's answer at this seq (StillWinnable: true, false, or nil
// while the check is off, not decided yet or undecided within its budget;
// always in the JSON, null then). A daily game's view has no code until
// its day has closed (a known deal can be solved offline); from then on it
// says Closed, and the game takes no more actions.
type SoloView struct {
	ID            string `json:"id"`
	Seq           int64  `json:"seq"`
	Winnable      bool   `json:"winnable"`
	Hints         int    `json:"hints"`
	Daily         string `json:"daily,omitempty"`
	Closed        bool   `json:"closed,omitempty"`
	StillWinnable *bool  `json:"stillWinnable"`
	solo.View
}

// For implements View: every viewer of a solo game sees the same.
func (v SoloView) For(int) View { return v }

// RaceSeatView is one seat of the race view: the engine's seat view plus the
// player, whether they are connected, and when the opponent may claim the win
// if they are not.
type RaceSeatView struct {
	Player *game.PlayerRef `json:"player"`
	race.SeatView
	Online  bool       `json:"online"`
	Bot     bool       `json:"bot,omitempty"`
	ClaimAt *time.Time `json:"claimAt,omitempty"`
}

// SeriesView is the series a race belongs to: its length, the index of this
// game (1-based) and each seat's cards on the foundations over the finished
// games. Winner is set once the series is done (null: tied totals).
type SeriesView struct {
	ID     string `json:"id"`
	Games  int    `json:"games"`
	Index  int    `json:"index"`
	Totals [2]int `json:"totals"`
	Done   bool   `json:"done"`
	Winner *int   `json:"winner,omitempty"`
}

// RaceView is the race view: the engine's view plus the game id, the seq,
// the "waiting" status, the players, presence, the viewer's seat (you: null
// for a spectator), the disconnect grace, the turn clock, the series and the
// fairness keys. Invite is set only in the creator's answer to POST
// /api/v1/races.
//
// Commitment is SHA-256 of the code and the race's secret salt
// (cards.Commitment), shown from creation on; Code and Salt are shown only
// once the race is over, so that nothing sent during play tells the deal and
// anyone can check afterwards that it was fixed before the first move.
// ChosenDeal marks a race created from a code its creator chose.
type RaceView struct {
	ID         string `json:"id"`
	Seq        int64  `json:"seq"`
	Code       string `json:"code,omitempty"`
	Salt       string `json:"salt,omitempty"`
	Commitment string `json:"commitment"`
	ChosenDeal bool   `json:"chosenDeal"`
	// Arena is the id of the arena the race is part of, if any.
	Arena string `json:"arena,omitempty"`
	race.View
	Status       string         `json:"status"`
	Seats        []RaceSeatView `json:"seats"`
	You          *int           `json:"you"`
	First        string         `json:"first,omitempty"`
	GraceSeconds int            `json:"graceSeconds"`
	ClaimAt      *time.Time     `json:"claimAt,omitempty"` // when the viewer may claim (opponent away)
	TurnSeconds  int            `json:"turnSeconds,omitempty"`
	TurnDeadline *time.Time     `json:"turnDeadline,omitempty"`
	Bot          string         `json:"bot,omitempty"`
	Series       SeriesView     `json:"series"`
	Invite       string         `json:"invite,omitempty"`
	// Cancelled is set on a race its creator cancelled while it waited: its
	// status is "over" and it has no result (a declined rematch too).
	Cancelled bool `json:"cancelled,omitempty"`
	// RematchOf names the race this one was offered after (see
	// game.RaceOptions.RematchOf); Rematch, on a finished race, the rematch one
	// of its players offered and where it stands.
	RematchOf string       `json:"rematchOf,omitempty"`
	Rematch   *RematchView `json:"rematch,omitempty"`
	// OfferExpires is when this race, a rematch offer still waiting for an
	// answer, lapses.
	OfferExpires *time.Time `json:"offerExpires,omitempty"`
	// Ratings is each seat's rating before and after the race, once it is
	// over and rated (see rated.go); absent otherwise.
	Ratings []SeatRating `json:"ratings,omitempty"`
}

// RematchView is the rematch offered after a race: the next race's id, the
// seat that offered it, and "offered", "accepted", "declined" or "lapsed"
// (unanswered in time).
type RematchView struct {
	ID     string `json:"id"`
	By     int    `json:"by"`
	Status string `json:"status"`
	// Expires is when an offer still waiting lapses.
	Expires *time.Time `json:"expires,omitempty"`
}

// For implements View. Only You and ClaimAt (the opponent's) depend on the
// viewer; the rest, seats included, is shared, as views are read-only
// once built.
func (v RaceView) For(viewer int) View {
	v.You, v.ClaimAt = nil, nil
	if viewer == 1 || viewer == 2 {
		you := viewer
		v.You = &you
		if i := 2 - viewer; i < len(v.Seats) {
			v.ClaimAt = v.Seats[i].ClaimAt
		}
	}
	return v
}

// SeatRating is a seat's rating before and after a rated race, rounded,
// and whether the rating after it is still provisional.
type SeatRating struct {
	Before      int  `json:"before"`
	After       int  `json:"after"`
	Provisional bool `json:"provisional,omitempty"`
}

// StillJSON is the live check's answer as JSON: true, false or null.
func StillJSON(v *bool) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
