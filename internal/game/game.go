// Package game is the vocabulary every layer of dsol shares: the error
// codes of the API and the domain error that carries them, the kinds and
// statuses of games, the creation options of races and solo games as they
// are stored and checked, and the reference to the player of a seat.
//
// It is a leaf: it imports nothing of dsol, and knows nothing of HTTP or
// WebSocket. Each transport keeps its own table from a Code to what it
// sends (an HTTP status, a close code).
package game

// The kinds of games (the Kind of a stored game header).
const (
	KindSolo = "solo"
	KindRace = "race"
)

// The statuses of a game as stored and shown: a solo game is Playing or
// Won; a race is Waiting (for its second player, or for the answer to a
// rematch offer), Playing or Over.
const (
	Playing = "playing"
	Won     = "won"
	Waiting = "waiting"
	Over    = "over"
)

// Finished reports whether a status is over for good: a won solo game or
// a race that is over, however it ended.
func Finished(status string) bool { return status == Won || status == Over }
