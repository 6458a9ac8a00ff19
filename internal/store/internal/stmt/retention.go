package stmt

// unfinished is the condition of a game that may be abandoned: a solo game
// in play or a race waiting for a second player, the predicate of the
// games_unfinished index word for word, so that both planners use it.
const unfinished = `((kind = 'solo' AND status = 'playing') OR (kind = 'race' AND status = 'waiting'))`

// abandonedSince is the rest of the condition of an abandoned game g: its
// last activity is before $1. The last activity of a game is its last
// action's time, else (no action yet) its header's; a header change after
// the last action (a status write) counts too.
const abandonedSince = `g.updated_at < $1
	AND COALESCE((SELECT a.at FROM actions AS a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1), g.updated_at) < $1`

// Abandoned selects the ids of the abandoned games: unfinished, and last
// active before $1.
const Abandoned = `SELECT id FROM games AS g WHERE ` + unfinished + ` AND ` + abandonedSince

// AbandonedOldest is Abandoned, the least recently active first.
const AbandonedOldest = Abandoned + ` ORDER BY g.updated_at, g.id`
