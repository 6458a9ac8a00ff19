package racelive

import (
	"slices"
	"time"

	"dsol/internal/game"
	"dsol/internal/protocol"
	"dsol/internal/race"
	"dsol/internal/store"
)

// rematchOf tells where the race offered after another stands; an offer
// still waiting lapses timeout after it was made.
func rematchOf(next store.Game, timeout time.Duration) *protocol.RematchView {
	o, _ := game.ParseRaceOptions(next.Options)
	v := &protocol.RematchView{ID: next.ID, By: o.OfferedBy, Status: "accepted"}
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

// Fill implements engine.RaceLive: it adds the live side to the race's
// view for viewer: the players, presence and claims, the turn clock, the
// series, the rematch offer and the ratings.
func (l *Live) Fill(v *protocol.RaceView, viewer int) {
	g := l.host.Header()
	v.GraceSeconds = int(l.cfg.Grace / time.Second)
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
		if at := l.claimAt(i + 1); !at.IsZero() {
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
	if res := l.eng().Race().Result(); res.Reason != race.NotOver {
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
	if l.eng().Options().RematchOf != "" && v.Status == "waiting" {
		exp := g.CreatedAt.Add(l.cfg.RematchTimeout).UTC()
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
