package stmt

// ArenaColumns are the columns of an arena as the adapters scan it, its
// count of players last.
const ArenaColumns = `a.id, COALESCE(a.creator, ''), a.minutes, a.draw, a.single, a.starts_at, a.ends_at, a.created_at,
	(SELECT COUNT(*) FROM arena_players p WHERE p.arena_id = a.id)`

// CreateArena inserts arena $1: creator, minutes, draw, single, starts,
// ends, created.
const CreateArena = `INSERT INTO arenas (id, creator, minutes, draw, single, starts_at, ends_at, created_at)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`

// Arena reads arena $1 (ArenaColumns).
const Arena = `SELECT ` + ArenaColumns + ` FROM arenas a WHERE a.id = $1`

// ListArenas lists the arenas that end after $1, soonest start first, at
// most $2 (ArenaColumns).
const ListArenas = `SELECT ` + ArenaColumns + ` FROM arenas a WHERE a.ends_at > $1
	ORDER BY a.starts_at, a.id LIMIT $2`

// ArenasCreated counts the arenas player $1 created at or after $2.
const ArenasCreated = `SELECT COUNT(*) FROM arenas WHERE creator = $1 AND created_at >= $2`

// JoinArena adds player $2 to arena $1 at $3, or resumes them.
const JoinArena = `INSERT INTO arena_players (arena_id, player_id, joined_at, paused) VALUES ($1, $2, $3, $4)
	ON CONFLICT (arena_id, player_id) DO UPDATE SET paused = excluded.paused`

// PauseArena sets whether player $2 of arena $1 is paused ($3).
const PauseArena = `UPDATE arena_players SET paused = $3 WHERE arena_id = $1 AND player_id = $2`

// ArenaPlayers lists the players of arena $1 in the order they joined:
// id, name, rating (0: none), joined, paused.
const ArenaPlayers = `SELECT p.player_id, pl.name, COALESCE(r.rating, 0), p.joined_at, p.paused
	FROM arena_players p JOIN players pl ON pl.id = p.player_id
	LEFT JOIN ratings r ON r.player_id = p.player_id
	WHERE p.arena_id = $1 ORDER BY p.joined_at, p.player_id`

// AddArenaRace makes game $3 the race number $2 of arena $1.
const AddArenaRace = `INSERT INTO arena_races (arena_id, n, game_id) VALUES ($1, $2, $3)`

// arenaRaceColumns are an arena's race as ArenaRaces and ArenaRace read
// it: number, id, seats, status, result, created, last changed, and each
// seat's first action's time (NULL: none).
const arenaRaceColumns = `r.n, g.id, g.seat1, COALESCE(g.seat2, ''), g.status, COALESCE(g.result, ''), g.created_at, g.updated_at,
	(SELECT MIN(x.at) FROM actions x WHERE x.game_id = g.id AND x.seat = 1),
	(SELECT MIN(x.at) FROM actions x WHERE x.game_id = g.id AND x.seat = 2)
	FROM arena_races r JOIN games g ON g.id = r.game_id`

// ArenaRaces lists the races of arena $1 by number (arenaRaceColumns).
const ArenaRaces = `SELECT ` + arenaRaceColumns + ` WHERE r.arena_id = $1 ORDER BY r.n`

// ArenaRace reads race $2 of arena $1 (arenaRaceColumns), by the game's
// index.
const ArenaRace = `SELECT ` + arenaRaceColumns + ` WHERE r.game_id = $2 AND r.arena_id = $1`
