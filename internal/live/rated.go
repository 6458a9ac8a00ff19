package live

import (
	"context"
	"slices"
	"time"

	"dsol/internal/engine"
	"dsol/internal/rating"
	"dsol/internal/store"
)

// A finished race between two people is rated by the rules of package
// rating (rating.DecideRace: both seats took part, at a person's pace, a
// few times a day for the same two players, on a deal the server dealt;
// an established rating weighs a provisional opponent's result by its
// certainty). The decision is stored with the race (store.RaceRating) in
// the transaction that stores its end, so it can be audited and a race is
// never rated twice. Races against the server's bot are never rated and
// leave no decision.

// raceDecision returns how to decide the rating of the race that just
// ended with a result, for store.Store.FinishRace; nil when it is never
// rated (a seat of the bot). It reads the race's pace from the store.
func (t *Table) raceDecision(ctx context.Context) (func([2]store.Rating, int) *store.RaceRating, error) {
	g := t.Game()
	e, ok := t.eng.(*engine.Race)
	if !ok || g.Seats[0] == "" || g.Seats[1] == "" || g.Seats[0] == store.BotPlayerID || g.Seats[1] == store.BotPlayerID {
		return nil, nil
	}
	p, err := t.pace(ctx)
	if err != nil {
		return nil, err
	}
	res := e.Race().Result()
	f := rating.RaceFacts{ChosenDeal: e.ChosenDeal(), Score: 0.5}
	switch res.Winner {
	case 1:
		f.Score = 1
	case 2:
		f.Score = 0
	}
	f.Actions, f.Played, f.MedianGap = p.actions, p.played, p.medianGap
	at := t.cfg.Clock()
	return func(current [2]store.Rating, pairRated int) *store.RaceRating {
		f.PairRated = pairRated
		d := rating.DecideRace(f, [2]rating.Rating{glicko(current[0]), glicko(current[1])})
		rr := &store.RaceRating{Players: g.Seats, MedianGap: f.MedianGap, Before: current, After: current,
			At: at, Rated: d.Rated, Flag: d.Flag}
		if d.Rated {
			rr.After[0] = stored(d.After[0])
			rr.After[1] = stored(d.After[1])
		}
		return rr
	}, nil
}

func glicko(r store.Rating) rating.Rating {
	return rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

func stored(r rating.Rating) store.Rating {
	return store.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

// pace is how a game's seats played, from its log: each seat's number of
// actions and median time between two of them (at millisecond precision;
// -1ms: fewer than two actions), and the time from the first action to
// the last.
type pace struct {
	actions   [2]int
	medianGap [2]time.Duration
	played    time.Duration
}

// pace reads the game's log from the store and returns its pace: the
// table keeps only the last events.
func (t *Table) pace(ctx context.Context) (pace, error) {
	acts, err := t.cfg.Store.Actions(ctx, t.id, 0)
	if err != nil {
		return pace{}, err
	}
	return paceOf(acts), nil
}

// paceOf returns the pace of a log.
func paceOf(acts []store.Action) pace {
	var p pace
	if n := len(acts); n > 0 {
		p.played = acts[n-1].At.Sub(acts[0].At)
	}
	for seat := 1; seat <= 2; seat++ {
		var gaps []time.Duration
		var last time.Time
		for _, ev := range acts {
			if ev.Seat != seat {
				continue
			}
			p.actions[seat-1]++
			if !last.IsZero() {
				gaps = append(gaps, ev.At.Sub(last))
			}
			last = ev.At
		}
		if len(gaps) == 0 {
			p.medianGap[seat-1] = -time.Millisecond
			continue
		}
		slices.Sort(gaps)
		m := gaps[len(gaps)/2]
		if len(gaps)%2 == 0 {
			m = (gaps[len(gaps)/2-1] + m) / 2
		}
		p.medianGap[seat-1] = m.Truncate(time.Millisecond)
	}
	return p
}
