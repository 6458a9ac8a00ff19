package game

import "math"

// PlayerRef names the player of a seat; Bot marks the server's bot.
type PlayerRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Bot  bool   `json:"bot"`
	// Deleted marks the seat of a player who deleted their data (the
	// store's deleted player row); the client words it in its language.
	Deleted bool `json:"deleted,omitempty"`
}

// BotName is the name of the server's bot, which holds seat 2 of the races
// played against the computer.
const BotName = "Computer"

// DeletedName is the name a race view shows for the seat of a player who
// deleted their data.
const DeletedName = "Deleted player"

// RoundRating is a rating as players see it: a whole number.
func RoundRating(r float64) int { return int(math.Round(r)) }

// SeatOf returns a player's seat (1 or 2) among a game's seats (player
// ids, "" for an empty seat), or 0 when not seated.
func SeatOf(seats [2]string, player string) int {
	for i, id := range seats {
		if id != "" && id == player {
			return i + 1
		}
	}
	return 0
}
