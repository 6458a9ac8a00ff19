package stmt

// PutDailyChallenge stores the challenge of day $1 and mode $2, code $3,
// created at $4, unless that day and mode have one.
const PutDailyChallenge = `INSERT INTO daily_challenges (day, mode, code, created_at) VALUES ($1, $2, $3, $4)
	ON CONFLICT (day, mode) DO NOTHING`

// DailyChallenge reads the code and created_at of the challenge of day $1
// and mode $2.
const DailyChallenge = `SELECT code, created_at FROM daily_challenges WHERE day = $1 AND mode = $2`

// DailyChallenges lists the challenges of day $1 by mode: day, mode, code,
// created_at.
const DailyChallenges = `SELECT day, mode, code, created_at FROM daily_challenges WHERE day = $1 ORDER BY mode`

// AddDailyEntry stores the entry of day $1, mode $2, player $3: game $4,
// created at $5, unless the player has one.
const AddDailyEntry = `INSERT INTO daily_entries (day, mode, player_id, game_id, created_at) VALUES ($1, $2, $3, $4, $5)
	ON CONFLICT (day, mode, player_id) DO NOTHING`

// DailyEntry reads the game_id and created_at of the entry of day $1, mode
// $2, player $3.
const DailyEntry = `SELECT game_id, created_at FROM daily_entries WHERE day = $1 AND mode = $2 AND player_id = $3`

// SetDailyGap stores the median gap $1 (ms) of the entry of game $2.
const SetDailyGap = `UPDATE daily_entries SET gap_ms = $1 WHERE game_id = $2`
