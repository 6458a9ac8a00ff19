package table

import (
	"encoding/json"
	"slices"
	"time"

	"dsol/internal/game"
	"dsol/internal/race"
	"dsol/internal/store"
)

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

// rematchOf tells where the race offered after another stands; an offer
// still waiting lapses timeout after it was made.
func rematchOf(next store.Game, timeout time.Duration) *RematchView {
	o, _ := game.ParseRaceOptions(next.Options)
	v := &RematchView{ID: next.ID, By: o.OfferedBy, Status: "accepted"}
	switch {
	case next.Status == "waiting":
		v.Status = "offered"
		exp := next.CreatedAt.Add(timeout).UTC()
		v.Expires = &exp
	case next.Status == "over" && len(next.Result) == 0:
		// ended unanswered: declined, or lapsed when it ended at its time
		v.Status = "declined"
		if !next.UpdatedAt.Before(next.CreatedAt.Add(timeout)) {
			v.Status = "lapsed"
		}
	}
	return v
}

// Notice is a message of a table that is not an event of the log, ready to be
// sent as is on the WebSocket: {"type": "presence", "seat", "online",
// "claimAt", "graceSeconds"}, {"type": "over", "result", "ratings"}
// (ratings only when the race is rated), or a solo game's live check
// {"type": "check", "seq", "stillWinnable"} (check.go).
type Notice struct {
	Type         string          `json:"type"`
	Seat         int             `json:"seat,omitempty"`
	Online       *bool           `json:"online,omitempty"`
	ClaimAt      *time.Time      `json:"claimAt,omitempty"`
	GraceSeconds int             `json:"graceSeconds,omitempty"`
	Result       json.RawMessage `json:"result,omitempty"`
	Rematch      *RematchView    `json:"rematch,omitempty"`
	Ratings      []SeatRating    `json:"ratings,omitempty"`
	// Seq and StillWinnable are a check's: the seq of the view it decided,
	// and true, false or null.
	Seq           *int64          `json:"seq,omitempty"`
	StillWinnable json.RawMessage `json:"stillWinnable,omitempty"`
}

func (e *raceEngine) View(viewer int, id string, seq int64) View {
	if n := e.r.Actions() + 1; e.boardAt != n {
		e.board, e.boardAt = e.r.NextView(&e.board), n
	}
	v := RaceView{ID: id, Seq: seq, View: e.board, Status: e.Status(),
		Series: SeriesView{Games: e.opts.Series, Index: 1}, Bot: e.opts.Bot,
		Commitment: e.commitment, ChosenDeal: e.opts.Chosen}
	if v.Status == "over" {
		v.Code, v.Salt = e.code, e.salt
	}
	if viewer == 1 || viewer == 2 {
		you := viewer
		v.You = &you
	}
	if v.Turns == "alternating" {
		v.First = e.opts.First
		if v.First == "" {
			v.First = "random"
		}
		v.TurnSeconds = e.opts.TurnSeconds
	}
	v.Seats = make([]RaceSeatView, len(v.View.Seats))
	for i := range v.Seats {
		v.Seats[i] = RaceSeatView{SeatView: v.View.Seats[i]}
	}
	if l := e.live; l != nil {
		l.fill(&v, viewer, e, e.header())
	}
	if v.Status == "waiting" || e.cancelled() {
		v.Turn = nil
	}
	v.Cancelled = e.cancelled()
	v.RematchOf = e.opts.RematchOf
	return v
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

// fill adds the live state to the view of race e, whose header is g: the
// players, presence and claims, the turn clock, the series, the rematch
// offer and the ratings.
func (l *raceLive) fill(v *RaceView, viewer int, e *raceEngine, g *store.Game) {
	v.GraceSeconds = int(l.env.grace / time.Second)
	for i := range v.Seats {
		s := &v.Seats[i]
		if l.players[i].ID != "" {
			p := l.players[i]
			s.Player = &p
		}
		s.Bot = isBot(g, i+1)
		if s.Player != nil {
			s.Player.Bot = s.Bot
		}
		s.Online = l.online[i] || s.Bot
		if at := l.claimAt(i+1, e, g); !at.IsZero() {
			at = at.UTC()
			s.ClaimAt = &at
			if viewer == 2-i {
				v.ClaimAt = &at
			}
		}
	}
	if !l.deadline.IsZero() && v.Status == "playing" {
		d := l.deadline.UTC()
		v.TurnDeadline = &d
	}
	v.Series.ID, v.Series.Index, v.Series.Totals = l.seriesID, l.seriesIndex, l.prevTotals
	if res := e.r.Result(); res.Reason != race.NotOver {
		v.Series.Totals[0] += res.Counts[0]
		v.Series.Totals[1] += res.Counts[1]
		if v.Series.Index >= v.Series.Games {
			v.Series.Done = true
			if t := v.Series.Totals; t[0] != t[1] {
				w := 1
				if t[1] > t[0] {
					w = 2
				}
				v.Series.Winner = &w
			}
		}
	}
	if e.opts.RematchOf != "" && v.Status == "waiting" {
		exp := g.CreatedAt.Add(l.env.rematchTimeout).UTC()
		v.OfferExpires = &exp
	}
	if l.rematch != nil {
		r := *l.rematch
		v.Rematch = &r
	}
	if v.Status == "over" {
		v.Ratings = slices.Clone(l.ratings)
	}
}
