package stmt

import (
	"strconv"
	"time"

	"dsol/internal/store"
)

// CreateGame inserts a game header: id, kind, code, options, status, seat1,
// seat2, public, invite_hash, series_id, series_game, result, created_at,
// updated_at, salt ($1 to $15).
const CreateGame = `INSERT INTO games
	(id, kind, code, options, status, seat1, seat2, public, invite_hash, series_id, series_game, result, created_at, updated_at, salt)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`

// GameColumns are the columns of a game header as the adapters scan it:
// seat2 and series_id "" for NULL.
const GameColumns = `id, kind, code, options, status, seat1, COALESCE(seat2, ''), public,
	invite_hash, COALESCE(series_id, ''), series_game, result, created_at, updated_at, salt, hints, checked`

// Game reads game $1's header (GameColumns).
const Game = `SELECT ` + GameColumns + ` FROM games WHERE id = $1`

// UpdateGame stores status $1, seats $2 and $3, public $4, result $5 and
// updated_at $6 of game $7.
const UpdateGame = `UPDATE games
	SET status = $1, seat1 = $2, seat2 = $3, public = $4, result = $5, updated_at = $6
	WHERE id = $7`

// AddHint counts one more hint of game $1 and returns the count.
const AddHint = `UPDATE games SET hints = hints + 1 WHERE id = $1 RETURNING hints`

// SetChecked turns the live check of game $1 on.
const SetChecked = `UPDATE games SET checked = true WHERE id = $1`

// JoinGame seats player $1 in seat 2 of race $3 at $2, only while it waits
// with seat 2 empty.
const JoinGame = `UPDATE games SET seat2 = $1, status = 'playing', updated_at = $2
	WHERE id = $3 AND kind = 'race' AND status = 'waiting' AND seat2 IS NULL`

// GameExists returns a row (1) when game $1 exists.
const GameExists = `SELECT 1 FROM games WHERE id = $1`

// CancelRace ends race $2 at $1, only while it waits, with seat 1 player $3
// and seat 2 empty.
const CancelRace = `UPDATE games SET status = 'over', public = FALSE, result = NULL, updated_at = $1
	WHERE id = $2 AND kind = 'race' AND status = 'waiting' AND seat1 = $3 AND seat2 IS NULL`

// ListGames returns the query of store.ListGames for q, and its arguments,
// the time of q.After as at gives it in the adapter's form: the games
// where q.Player holds a seat, newest first (GameColumns).
func ListGames(q store.GameQuery, at func(time.Time) any) (string, []any) {
	args := []any{q.Player}
	sql := `SELECT ` + GameColumns + ` FROM games WHERE (seat1 = $1 OR seat2 = $1)`
	if q.Status != "" {
		args = append(args, q.Status)
		sql += ` AND status = $` + strconv.Itoa(len(args))
	}
	if q.Kind != "" {
		args = append(args, q.Kind)
		sql += ` AND kind = $` + strconv.Itoa(len(args))
	}
	if q.After.ID != "" {
		args = append(args, at(q.After.CreatedAt), q.After.ID)
		n := len(args)
		sql += ` AND (created_at < $` + strconv.Itoa(n-1) + ` OR (created_at = $` + strconv.Itoa(n-1) + ` AND id < $` + strconv.Itoa(n) + `))`
	}
	sql += ` ORDER BY created_at DESC, id DESC`
	if q.Limit > 0 {
		args = append(args, q.Limit)
		sql += ` LIMIT $` + strconv.Itoa(len(args))
	}
	return sql, args
}
