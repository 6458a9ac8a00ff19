package stmt

import "dsol/internal/store"

// InsertToken stores token $1 of player $2, created at $3.
const InsertToken = `INSERT INTO tokens (hash, player_id, created_at) VALUES ($1, $2, $3)`

// PlayerByTokenHash finds the player (id, name, created_at) of token $1.
const PlayerByTokenHash = `SELECT p.id, p.name, p.created_at FROM tokens AS t JOIN players AS p ON p.id = t.player_id WHERE t.hash = $1`

// Player finds player $1: id, name, created_at.
const Player = `SELECT id, name, created_at FROM players WHERE id = $1`

// RenamePlayer names player $2 $1, and drops the notice of a renaming by the
// server.
const RenamePlayer = `UPDATE players SET name = $1, renamed_from = NULL, renamed_at = NULL WHERE id = $2`

// DeleteOwn are the statements of DeletePlayer that delete what is player
// $1's alone: tokens, transfer code, blocks by and of them, rating, daily
// entries, and their own games (store.OwnGames) with their actions.
var DeleteOwn = []string{
	`DELETE FROM tokens WHERE player_id = $1`,
	`DELETE FROM link_codes WHERE player_id = $1`,
	`DELETE FROM blocks WHERE player_id = $1 OR blocked_id = $1`,
	`DELETE FROM ratings WHERE player_id = $1`,
	`DELETE FROM daily_entries WHERE player_id = $1`,
	`DELETE FROM actions WHERE game_id IN (SELECT id FROM games WHERE ` + store.OwnGames + `)`,
	`DELETE FROM games WHERE ` + store.OwnGames,
}

// SeatedGames lists the ids of the games where player $1 holds a seat, by
// id: after DeleteOwn, the races DeletePlayer keeps.
const SeatedGames = `SELECT id FROM games WHERE seat1 = $1 OR seat2 = $1 ORDER BY id`

// PassSeats are the statements of DeletePlayer that pass player $1's seats,
// in the games and the race ratings kept, to player $2
// (store.DeletedPlayerID).
var PassSeats = []string{
	`UPDATE games SET seat1 = $2 WHERE seat1 = $1`,
	`UPDATE games SET seat2 = $2 WHERE seat2 = $1`,
	`UPDATE race_ratings SET seat1 = $2 WHERE seat1 = $1`,
	`UPDATE race_ratings SET seat2 = $2 WHERE seat2 = $1`,
}

// DeletePlayer deletes the row of player $1.
const DeletePlayer = `DELETE FROM players WHERE id = $1`
