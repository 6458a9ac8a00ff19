package table

import (
	"context"
	"errors"
	"slices"
	"time"

	"dsol/internal/game"
	"dsol/internal/rating"
	"dsol/internal/store"
)

// A finished race between two people is rated (Glicko-2, package rating:
// one rating period of one game for each player) when it ended with a
// result, on a deal the server dealt (DR2, not a chosen code), between
// players who had each finished at least RatedAfter races before it, and at
// a pace a person plays: a seat whose median time between two of its
// actions is under MinMedianGap is flagged "too_fast" and the race is not
// rated. The decision is stored with the race (store.RaceRating) in the
// transaction that stores its end, so it can be audited and a race is never
// rated twice. Races against the server's bot are never rated and leave no
// decision.
const (
	RatedAfter   = 5
	MinMedianGap = 150 * time.Millisecond
)

// The flags of a race that is not rated.
const (
	FlagChosenDeal = "chosen_deal"
	FlagNewPlayer  = "new_player"
	FlagTooFast    = "too_fast"
)

// SeatRating is a seat's rating before and after a rated race, rounded.
type SeatRating struct {
	Before int `json:"before"`
	After  int `json:"after"`
}

// raceDecision returns how to decide the rating of the race that just
// ended with a result, for store.Store.FinishRace; nil when it is never
// rated (a seat of the bot).
func (t *Table) raceDecision() func([2]store.Rating, [2]int) *store.RaceRating {
	g := t.Game()
	e, ok := t.eng.(*raceEngine)
	if !ok || g.Seats[0] == "" || g.Seats[1] == "" || g.Seats[0] == BotPlayerID || g.Seats[1] == BotPlayerID {
		return nil
	}
	res := e.r.Result()
	score := 0.5
	switch res.Winner {
	case 1:
		score = 1
	case 2:
		score = 0
	}
	chosen := e.opts.Chosen || !e.secret
	gaps := medianGaps(t.events)
	at := t.cfg.Clock()
	return func(current [2]store.Rating, finished [2]int) *store.RaceRating {
		rr := &store.RaceRating{Players: g.Seats, MedianGap: gaps, Before: current, After: current, At: at}
		switch {
		case chosen:
			rr.Flag = FlagChosenDeal
		case finished[0] < RatedAfter || finished[1] < RatedAfter:
			rr.Flag = FlagNewPlayer
		case tooFast(gaps[0]) || tooFast(gaps[1]):
			rr.Flag = FlagTooFast
		default:
			a, b := rating.Race(glicko(current[0]), glicko(current[1]), score)
			rr.Rated = true
			rr.After[0] = store.Rating{Rating: a.Rating, Deviation: a.Deviation, Volatility: a.Volatility}
			rr.After[1] = store.Rating{Rating: b.Rating, Deviation: b.Deviation, Volatility: b.Volatility}
		}
		return rr
	}
}

func glicko(r store.Rating) rating.Rating {
	return rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

// tooFast reports a median gap under a person's pace (a seat with fewer
// than two actions has none: -1).
func tooFast(gap time.Duration) bool { return gap >= 0 && gap < MinMedianGap }

// medianGaps returns each seat's median time between two of its actions
// in the log, at millisecond precision (-1ms: fewer than two actions).
func medianGaps(events []Event) [2]time.Duration {
	var out [2]time.Duration
	for seat := 1; seat <= 2; seat++ {
		var gaps []time.Duration
		var last time.Time
		for _, ev := range events {
			if ev.Seat != seat {
				continue
			}
			if !last.IsZero() {
				gaps = append(gaps, ev.At.Sub(last))
			}
			last = ev.At
		}
		if len(gaps) == 0 {
			out[seat-1] = -time.Millisecond
			continue
		}
		slices.Sort(gaps)
		m := gaps[len(gaps)/2]
		if len(gaps)%2 == 0 {
			m = (gaps[len(gaps)/2-1] + m) / 2
		}
		out[seat-1] = m.Truncate(time.Millisecond)
	}
	return out
}

// loadRatings reads the rating change of a finished race for its view into
// the live state l.
func (t *Table) loadRatings(ctx context.Context, l *raceLive) error {
	ctx, cancel := context.WithTimeout(ctx, t.cfg.StoreTimeout)
	defer cancel()
	rr, err := t.cfg.Store.RaceRating(ctx, t.id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		l.ratings = nil
		return nil
	case err != nil:
		return err
	}
	l.ratings = nil
	if rr.Rated {
		l.ratings = []SeatRating{
			{Before: game.RoundRating(rr.Before[0].Rating), After: game.RoundRating(rr.After[0].Rating)},
			{Before: game.RoundRating(rr.Before[1].Rating), After: game.RoundRating(rr.After[1].Rating)},
		}
	}
	return nil
}
