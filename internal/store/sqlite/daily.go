package sqlite

import (
	"context"
	"time"

	"dsol/internal/store"
)

// PutDailyChallenge implements store.Store: insert or keep, then read back.
func (s *Store) PutDailyChallenge(ctx context.Context, c store.DailyChallenge) (store.DailyChallenge, error) {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO daily_challenges (day, mode, code, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (day, mode) DO NOTHING`, c.Day, c.Mode, c.Code, micros(c.CreatedAt)); err != nil {
		return store.DailyChallenge{}, wrap("put daily challenge", err)
	}
	var created int64
	err := s.w.QueryRowContext(ctx, `SELECT code, created_at FROM daily_challenges WHERE day = ? AND mode = ?`, c.Day, c.Mode).
		Scan(&c.Code, &created)
	c.CreatedAt = fromMicros(created)
	return c, wrap("put daily challenge", err)
}

// DailyChallenges implements store.Store.
func (s *Store) DailyChallenges(ctx context.Context, day string) ([]store.DailyChallenge, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT day, mode, code, created_at FROM daily_challenges WHERE day = ? ORDER BY mode`, day)
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
	res, err := tx.ExecContext(ctx, `INSERT INTO daily_entries (day, mode, player_id, game_id, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (day, mode, player_id) DO NOTHING`, e.Day, e.Mode, e.PlayerID, e.GameID, micros(e.CreatedAt))
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
	err = s.w.QueryRowContext(ctx, `SELECT game_id, created_at FROM daily_entries WHERE day = ? AND mode = ? AND player_id = ?`,
		e.Day, e.Mode, e.PlayerID).Scan(&e.GameID, &created)
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
	if _, err := tx.ExecContext(ctx, `UPDATE daily_entries SET gap_ms = ? WHERE game_id = ?`, gap.Milliseconds(), g.ID); err != nil {
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
