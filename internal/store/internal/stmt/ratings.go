package stmt

import (
	"strings"

	"dsol/internal/store"
)

// RaceRating reads the decision of race $1 (store.RaceRatingColumns).
const RaceRating = `SELECT ` + store.RaceRatingColumns + ` FROM race_ratings WHERE game_id = $1`

// Decided returns a row (1) when race $1 has a decision.
const Decided = `SELECT 1 FROM race_ratings WHERE game_id = $1`

// Rating reads player $1's rating, deviation, volatility and races.
const Rating = `SELECT rating, deviation, volatility, races FROM ratings WHERE player_id = $1`

// AddRaceRating inserts the decision of race $1, then store.RaceRatingColumns
// from $2 on.
var AddRaceRating = `INSERT INTO race_ratings (game_id, ` + store.RaceRatingColumns + `)
	VALUES (` + placeholders(strings.Count(store.RaceRatingColumns, ",")+2) + `)`

// SetRating stores player $1's rating $2, deviation $3, volatility $4 and
// races $5, at $6.
const SetRating = `INSERT INTO ratings (player_id, rating, deviation, volatility, races, updated_at)
	VALUES ($1, $2, $3, $4, $5, $6)
	ON CONFLICT (player_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
		volatility = excluded.volatility, races = excluded.races, updated_at = excluded.updated_at`
