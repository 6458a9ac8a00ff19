package stmt

// Block records that player $1 blocked player $2 at $3, unless they had.
const Block = `INSERT INTO blocks (player_id, blocked_id, created_at) VALUES ($1, $2, $3)
	ON CONFLICT (player_id, blocked_id) DO NOTHING`

// Unblock removes player $1's block of player $2.
const Unblock = `DELETE FROM blocks WHERE player_id = $1 AND blocked_id = $2`

// Blocks lists the blocks of player $1, oldest first: player_id,
// blocked_id, the blocked player's name, created_at.
const Blocks = `SELECT b.player_id, b.blocked_id, p.name, b.created_at
	FROM blocks b JOIN players p ON p.id = b.blocked_id
	WHERE b.player_id = $1 ORDER BY b.created_at, b.blocked_id`
