package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// Rating implements store.Store.
func (s *Store) Rating(ctx context.Context, playerID string) (store.Rating, error) {
	return raceTx{s.pool}.rating(ctx, playerID, "")
}

// RaceRating implements store.Store.
func (s *Store) RaceRating(ctx context.Context, gameID string) (store.RaceRating, error) {
	rr := store.RaceRating{GameID: gameID}
	var gap1, gap2 int64
	err := s.pool.QueryRow(ctx, stmt.RaceRating, gameID).Scan(append(store.RaceRatingFields(&rr, &gap1, &gap2), &rr.At)...)
	if err != nil {
		return store.RaceRating{}, wrap("race rating", err)
	}
	rr.MedianGap = [2]time.Duration{time.Duration(gap1) * time.Millisecond, time.Duration(gap2) * time.Millisecond}
	rr.At = rr.At.UTC()
	return rr, nil
}

// FinishRace implements store.Store. The game's row is updated first, so a
// second FinishRace of the same race waits for this one and then finds its
// decision; each player's rating row is locked (FOR UPDATE) from its read to
// its write, so two races of one player ending at once on two nodes are
// rated one after the other.
func (s *Store) FinishRace(ctx context.Context, g store.Game, decide func([2]store.Rating, int) *store.RaceRating) error {
	return wrap("finish race", s.inTx(ctx, func(tx pgx.Tx) error {
		return store.FinishRaceIn(ctx, raceTx{tx}, g, decide)
	}))
}

// raceTx is store.RaceTx over a transaction (or, for Rating alone, the pool).
type raceTx struct{ q querier }

func (t raceTx) UpdateGame(ctx context.Context, g store.Game) error {
	return updateGame(ctx, t.q, "finish race", g)
}

func (t raceTx) Decided(ctx context.Context, gameID string) (bool, error) {
	var one int
	err := t.q.QueryRow(ctx, stmt.Decided, gameID).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

func (t raceTx) Rating(ctx context.Context, playerID string) (store.Rating, error) {
	// A row to lock, even for a player never rated: the start rating with
	// no races, which reads as the start rating anyway.
	r := store.StartRating()
	if _, err := t.q.Exec(ctx, `INSERT INTO ratings (player_id, rating, deviation, volatility, races, updated_at)
		VALUES ($1, $2, $3, $4, 0, now()) ON CONFLICT (player_id) DO NOTHING`,
		playerID, r.Rating, r.Deviation, r.Volatility); err != nil {
		return store.Rating{}, err
	}
	return t.rating(ctx, playerID, " FOR UPDATE")
}

// rating reads a player's rating; lock is "" or " FOR UPDATE".
func (t raceTx) rating(ctx context.Context, playerID, lock string) (store.Rating, error) {
	r := store.StartRating()
	err := t.q.QueryRow(ctx, stmt.Rating+lock, playerID).Scan(&r.Rating, &r.Deviation, &r.Volatility, &r.Races)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.StartRating(), nil
	}
	return r, wrap("rating", err)
}

func (t raceTx) PairRated(ctx context.Context, a, b string, since time.Time) (int, error) {
	var n int
	err := t.q.QueryRow(ctx, store.PairRatedSQL, a, b, since).Scan(&n)
	return n, err
}

func (t raceTx) AddRaceRating(ctx context.Context, rr store.RaceRating) error {
	gap1, gap2 := rr.MedianGap[0].Milliseconds(), rr.MedianGap[1].Milliseconds()
	args := append([]any{rr.GameID}, store.RaceRatingFields(&rr, &gap1, &gap2)...)
	_, err := t.q.Exec(ctx, stmt.AddRaceRating, append(args, rr.At)...)
	return err
}

func (t raceTx) SetRating(ctx context.Context, playerID string, r store.Rating, at time.Time) error {
	_, err := t.q.Exec(ctx, stmt.SetRating, playerID, r.Rating, r.Deviation, r.Volatility, r.Races, at)
	return err
}
