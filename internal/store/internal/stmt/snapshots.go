package stmt

// PutSnapshot stores the snapshot of game $1 at seq $2 (state $3, taken at
// $4), unless the game has one of a later seq or no longer exists.
const PutSnapshot = `INSERT INTO snapshots (game_id, seq, state, created_at)
	SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM games WHERE id = $1)
	ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state, created_at = excluded.created_at
	WHERE excluded.seq > snapshots.seq`

// Snapshot reads the snapshot of game $1: seq, state, created_at.
const Snapshot = `SELECT seq, state, created_at FROM snapshots WHERE game_id = $1`
