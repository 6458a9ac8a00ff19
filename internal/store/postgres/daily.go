package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// PutDailyChallenge implements store.Store: insert or keep, then read back
// (the row a racing node committed first is the one read).
func (s *Store) PutDailyChallenge(ctx context.Context, c store.DailyChallenge) (store.DailyChallenge, error) {
	if _, err := s.pool.Exec(ctx, stmt.PutDailyChallenge, c.Day, c.Mode, c.Code, c.CreatedAt); err != nil {
		return store.DailyChallenge{}, wrap("put daily challenge", err)
	}
	err := s.pool.QueryRow(ctx, stmt.DailyChallenge, c.Day, c.Mode).Scan(&c.Code, &c.CreatedAt)
	c.CreatedAt = c.CreatedAt.UTC()
	return c, wrap("put daily challenge", err)
}

// DailyChallenges implements store.Store.
func (s *Store) DailyChallenges(ctx context.Context, day string) ([]store.DailyChallenge, error) {
	rows, err := s.pool.Query(ctx, stmt.DailyChallenges, day)
	if err != nil {
		return nil, wrap("daily challenges", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.DailyChallenge, error) {
		var c store.DailyChallenge
		err := r.Scan(&c.Day, &c.Mode, &c.Code, &c.CreatedAt)
		c.CreatedAt = c.CreatedAt.UTC()
		return c, err
	})
	if err != nil {
		return nil, wrap("daily challenges", err)
	}
	if out == nil {
		out = []store.DailyChallenge{}
	}
	return out, nil
}

// StartDaily implements store.Store in one transaction: the game, then the
// entry unless the player's is there (a racing request's insert of the
// same key waits for the other to commit, then does nothing); then the
// transaction is rolled back, the game with it, and the stored entry read.
func (s *Store) StartDaily(ctx context.Context, g store.Game, e store.DailyEntry) (store.DailyEntry, bool, error) {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := createGame(ctx, tx, g); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, stmt.AddDailyEntry, e.Day, e.Mode, e.PlayerID, e.GameID, e.CreatedAt)
		if err == nil && tag.RowsAffected() == 0 {
			err = store.ErrEntryExists
		}
		return err
	})
	if err == nil {
		return e, true, nil
	}
	if !errors.Is(err, store.ErrEntryExists) {
		return store.DailyEntry{}, false, wrap("start daily", err)
	}
	err = s.pool.QueryRow(ctx, stmt.DailyEntry, e.Day, e.Mode, e.PlayerID).Scan(&e.GameID, &e.CreatedAt)
	e.CreatedAt = e.CreatedAt.UTC()
	return e, false, wrap("start daily", err)
}

// Leaderboard implements store.Store: store.LeaderboardSQL.
func (s *Store) Leaderboard(ctx context.Context, q store.LeaderboardQuery) (store.Leaderboard, error) {
	rows, err := s.pool.Query(ctx, store.LeaderboardSQL, q.Day, q.Mode, q.Begin, q.Player, q.Limit,
		q.End, q.MinGap.Milliseconds(), q.EarlierActions)
	if err != nil {
		return store.Leaderboard{}, wrap("leaderboard", err)
	}
	defer rows.Close()
	lb, err := store.ReadLeaderboard(rows, q.Player)
	return lb, wrap("leaderboard", err)
}

// FinishDaily implements store.Store in one transaction.
func (s *Store) FinishDaily(ctx context.Context, g store.Game, gap time.Duration) error {
	return wrap("finish daily", s.inTx(ctx, func(tx pgx.Tx) error {
		if err := updateGame(ctx, tx, "finish daily", g); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, stmt.SetDailyGap, gap.Milliseconds(), g.ID)
		return err
	}))
}

// DailyWins implements store.Store: store.DailyWinsSQL.
func (s *Store) DailyWins(ctx context.Context, playerID string) ([]store.DailyWin, error) {
	rows, err := s.pool.Query(ctx, store.DailyWinsSQL, playerID)
	if err != nil {
		return nil, wrap("daily wins", err)
	}
	wins, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.DailyWin, error) {
		var w store.DailyWin
		err := r.Scan(&w.Day, &w.At)
		w.At = w.At.UTC()
		return w, err
	})
	if err != nil {
		return nil, wrap("daily wins", err)
	}
	if wins == nil {
		wins = []store.DailyWin{}
	}
	return wins, nil
}
