package store

import (
	"context"
	"time"

	"dsol/internal/rating"
)

// RaceTx is one transaction of an adapter's FinishRace, in the steps that
// FinishRaceIn takes.
type RaceTx interface {
	// UpdateGame is Store.UpdateGame in the transaction.
	UpdateGame(ctx context.Context, g Game) error
	// Decided reports whether the race has a rating decision already.
	Decided(ctx context.Context, gameID string) (bool, error)
	// Rating reads a player's rating (StartRating() without a row), and
	// keeps other transactions from changing it until this one ends.
	Rating(ctx context.Context, playerID string) (Rating, error)
	// PairRated counts the rated races between players a and b (in either
	// seat) decided after since.
	PairRated(ctx context.Context, a, b string, since time.Time) (int, error)
	// AddRaceRating inserts a race's decision.
	AddRaceRating(ctx context.Context, rr RaceRating) error
	// SetRating writes a player's rating.
	SetRating(ctx context.Context, playerID string, r Rating, at time.Time) error
}

// FinishRaceIn is Store.FinishRace on an adapter's transaction: the
// adapter begins it, runs this and commits when it returns nil. A nil
// decide only updates the game.
func FinishRaceIn(ctx context.Context, tx RaceTx, g Game, decide func([2]Rating, int) *RaceRating) error {
	if err := tx.UpdateGame(ctx, g); err != nil || decide == nil {
		return err
	}
	if done, err := tx.Decided(ctx, g.ID); err != nil || done {
		return err
	}
	var current [2]Rating
	for i, id := range g.Seats {
		var err error
		if current[i], err = tx.Rating(ctx, id); err != nil {
			return err
		}
	}
	pair, err := tx.PairRated(ctx, g.Seats[0], g.Seats[1], g.UpdatedAt.Add(-rating.PairWindow))
	if err != nil {
		return err
	}
	rr := decide(current, pair)
	if rr == nil {
		return nil
	}
	d := *rr
	d.GameID = g.ID
	if d.Rated {
		for i := range d.After {
			d.After[i].Races = d.Before[i].Races + 1
		}
	}
	if err := tx.AddRaceRating(ctx, d); err != nil {
		return err
	}
	if !d.Rated {
		return nil
	}
	for i, id := range d.Players {
		if err := tx.SetRating(ctx, id, d.After[i], d.At); err != nil {
			return err
		}
	}
	return nil
}

// PairRatedSQL counts the rated races between players $1 and $2, in
// either seat, decided after $3 (the dialect's time), by the index
// race_ratings_pair: the same text in both dialects.
const PairRatedSQL = `SELECT count(*) FROM race_ratings
	WHERE rated = TRUE AND at > $3 AND ((seat1 = $1 AND seat2 = $2) OR (seat1 = $2 AND seat2 = $1))`

// RaceRatingFields are the columns of a race's decision after its players,
// rated and flag, as Scan destinations or as arguments: each seat's median
// gap in milliseconds through the two *int64 given, then Before and After of
// both seats (rating, deviation, volatility, races each).
func RaceRatingFields(rr *RaceRating, gap1, gap2 *int64) []any {
	out := []any{&rr.Players[0], &rr.Players[1], &rr.Rated, &rr.Flag, gap1, gap2}
	for _, r := range []*Rating{&rr.Before[0], &rr.Before[1], &rr.After[0], &rr.After[1]} {
		out = append(out, &r.Rating, &r.Deviation, &r.Volatility, &r.Races)
	}
	return out
}

// RaceRatingColumns names the columns of RaceRatingFields, then at.
const RaceRatingColumns = `seat1, seat2, rated, flag, gap1_ms, gap2_ms,
	before1_rating, before1_deviation, before1_volatility, before1_races,
	before2_rating, before2_deviation, before2_volatility, before2_races,
	after1_rating, after1_deviation, after1_volatility, after1_races,
	after2_rating, after2_deviation, after2_volatility, after2_races, at`
