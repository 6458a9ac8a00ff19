package stmt

// Actions lists the actions of game $1 after seq $2, in seq order: seq,
// seat, action, client_id ("" for NULL), at.
const Actions = `SELECT seq, seat, action, COALESCE(client_id, ''), at
	FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq`
