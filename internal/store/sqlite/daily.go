package sqlite

import (
	"context"
	"time"

	"dsol/internal/store"
	"dsol/internal/store/internal/stmt"
)

// PutDailyChallenge implements store.Store: insert or keep, then read back.
func (s *Store) PutDailyChallenge(ctx context.Context, c store.DailyChallenge) (store.DailyChallenge, error) {
	if _, err := s.w.ExecContext(ctx, stmt.PutDailyChallenge, c.Day, c.Mode, c.Code, micros(c.CreatedAt)); err != nil {
		return store.DailyChallenge{}, wrap("put daily challenge", err)
	}
	var created int64
	err := s.w.QueryRowContext(ctx, stmt.DailyChallenge, c.Day, c.Mode).Scan(&c.Code, &created)
	c.CreatedAt = fromMicros(created)
	return c, wrap("put daily challenge", err)
}

// DailyChallenges implements store.Store.
func (s *Store) DailyChallenges(ctx context.Context, day string) ([]store.DailyChallenge, error) {
	rows, err := s.r.QueryContext(ctx, stmt.DailyChallenges, day)
	if err != nil {
		return nil, wrap("daily challenges", err)
	}
	defer rows.Close()
	out := []store.DailyChallenge{}
	for rows.Next() {
		var c store.DailyChallenge
		var created int64
		if err := rows.Scan(&c.Day, &c.Mode, &c.Code, &created); err != nil {
			return nil, wrap("daily challenges", err)
		}
		c.CreatedAt = fromMicros(created)
		out = append(out, c)
	}
	return out, wrap("daily challenges", rows.Err())
}

// StartDaily implements store.Store: one IMMEDIATE transaction of the
// single writer, the game inserted first and undone when the entry is
// there already.
func (s *Store) StartDaily(ctx context.Context, g store.Game, e store.DailyEntry) (store.DailyEntry, bool, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return store.DailyEntry{}, false, wrap("start daily", err)
	}
	defer tx.Rollback()
	if err := createGame(ctx, tx, g); err != nil {
		return store.DailyEntry{}, false, err
	}
	res, err := tx.ExecContext(ctx, stmt.AddDailyEntry, e.Day, e.Mode, e.PlayerID, e.GameID, micros(e.CreatedAt))
	if err != nil {
		return store.DailyEntry{}, false, wrap("start daily", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return store.DailyEntry{}, false, wrap("start daily", err)
	}
	if n == 1 {
		return e, true, wrap("start daily", tx.Commit())
	}
	tx.Rollback()
	var created int64
	err = s.w.QueryRowContext(ctx, stmt.DailyEntry, e.Day, e.Mode, e.PlayerID).Scan(&e.GameID, &created)
	e.CreatedAt = fromMicros(created)
	return e, false, wrap("start daily", err)
}

// Leaderboard implements store.Store: store.LeaderboardSQL.
func (s *Store) Leaderboard(ctx context.Context, q store.LeaderboardQuery) (store.Leaderboard, error) {
	rows, err := s.r.QueryContext(ctx, store.LeaderboardSQL, q.Day, q.Mode, micros(q.Begin), q.Player, q.Limit,
		micros(q.End), q.MinGap.Milliseconds(), q.EarlierActions)
	if err != nil {
		return store.Leaderboard{}, wrap("leaderboard", err)
	}
	defer rows.Close()
	lb, err := store.ReadLeaderboard(rows, q.Player)
	return lb, wrap("leaderboard", err)
}

// FinishDaily implements store.Store: one IMMEDIATE transaction of the
// single writer.
func (s *Store) FinishDaily(ctx context.Context, g store.Game, gap time.Duration) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("finish daily", err)
	}
	defer tx.Rollback()
	if err := updateGame(ctx, tx, "finish daily", g); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, stmt.SetDailyGap, gap.Milliseconds(), g.ID); err != nil {
		return wrap("finish daily", err)
	}
	return wrap("finish daily", tx.Commit())
}

// DailyWins implements store.Store: store.DailyWinsSQL.
func (s *Store) DailyWins(ctx context.Context, playerID string) ([]store.DailyWin, error) {
	rows, err := s.r.QueryContext(ctx, store.DailyWinsSQL, playerID)
	if err != nil {
		return nil, wrap("daily wins", err)
	}
	defer rows.Close()
	wins := []store.DailyWin{}
	for rows.Next() {
		var w store.DailyWin
		var at int64
		if err := rows.Scan(&w.Day, &at); err != nil {
			return nil, wrap("daily wins", err)
		}
		w.At = fromMicros(at)
		wins = append(wins, w)
	}
	return wins, wrap("daily wins", rows.Err())
}
