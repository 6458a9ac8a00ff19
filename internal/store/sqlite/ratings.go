package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// Rating implements store.Store.
func (s *Store) Rating(ctx context.Context, playerID string) (store.Rating, error) {
	return raceTx{s.r}.Rating(ctx, playerID)
}

// RaceRating implements store.Store.
func (s *Store) RaceRating(ctx context.Context, gameID string) (store.RaceRating, error) {
	rr := store.RaceRating{GameID: gameID}
	var gap1, gap2, at int64
	err := s.r.QueryRowContext(ctx, stmt.RaceRating, gameID).Scan(append(store.RaceRatingFields(&rr, &gap1, &gap2), &at)...)
	if err != nil {
		return store.RaceRating{}, wrap("race rating", err)
	}
	rr.MedianGap = [2]time.Duration{time.Duration(gap1) * time.Millisecond, time.Duration(gap2) * time.Millisecond}
	rr.At = fromMicros(at)
	return rr, nil
}

// FinishRace implements store.Store: one IMMEDIATE transaction of the
// single writer, so nothing changes the ratings between their read and
// their write.
func (s *Store) FinishRace(ctx context.Context, g store.Game, decide func([2]store.Rating, int) *store.RaceRating) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("finish race", err)
	}
	defer tx.Rollback()
	if err := store.FinishRaceIn(ctx, raceTx{tx}, g, decide); err != nil {
		return err
	}
	return wrap("finish race", tx.Commit())
}

// raceTx is store.RaceTx over a transaction (or, for Rating alone, the
// reader pool).
type raceTx struct{ q querier }

func (t raceTx) UpdateGame(ctx context.Context, g store.Game) error {
	return updateGame(ctx, t.q, "finish race", g)
}

func (t raceTx) Decided(ctx context.Context, gameID string) (bool, error) {
	var one int
	err := t.q.QueryRowContext(ctx, stmt.Decided, gameID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, wrap("finish race", err)
}

func (t raceTx) Rating(ctx context.Context, playerID string) (store.Rating, error) {
	r := store.StartRating()
	err := t.q.QueryRowContext(ctx, stmt.Rating, playerID).Scan(&r.Rating, &r.Deviation, &r.Volatility, &r.Races)
	if errors.Is(err, sql.ErrNoRows) {
		return store.StartRating(), nil
	}
	return r, wrap("rating", err)
}

func (t raceTx) PairRated(ctx context.Context, a, b string, since time.Time) (int, error) {
	var n int
	err := t.q.QueryRowContext(ctx, store.PairRatedSQL, a, b, micros(since)).Scan(&n)
	return n, wrap("pair rated", err)
}

func (t raceTx) AddRaceRating(ctx context.Context, rr store.RaceRating) error {
	gap1, gap2 := rr.MedianGap[0].Milliseconds(), rr.MedianGap[1].Milliseconds()
	args := append([]any{rr.GameID}, store.RaceRatingFields(&rr, &gap1, &gap2)...)
	_, err := t.q.ExecContext(ctx, stmt.AddRaceRating, append(args, micros(rr.At))...)
	return wrap("add race rating", err)
}

func (t raceTx) SetRating(ctx context.Context, playerID string, r store.Rating, at time.Time) error {
	_, err := t.q.ExecContext(ctx, stmt.SetRating, playerID, r.Rating, r.Deviation, r.Volatility, r.Races, micros(at))
	return wrap("set rating", err)
}
