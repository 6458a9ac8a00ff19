package game

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// RaceOptions are a race's creation options as stored in its header
// (store.Game.Options, JSON). The first seat of an alternating race is
// drawn once, at creation, and stored, so that a replay starts the same
// way.
type RaceOptions struct {
	Turns        string `json:"turns"`               // "simultaneous" or "alternating"
	First        string `json:"first,omitempty"`     // "creator", "opponent" or "random"
	FirstSeat    int    `json:"firstSeat,omitempty"` // the seat that starts (alternating)
	SoloOutBonus bool   `json:"soloOutBonus"`
	Series       int    `json:"series"`                // games in the series (1: a single game)
	TurnSeconds  int    `json:"turnSeconds,omitempty"` // alternating turn clock; 0: none
	Bot          string `json:"bot,omitempty"`         // speed of the server's bot in seat 2
	Prev         string `json:"prev,omitempty"`        // the previous game of the series
	// Chosen marks a race created from a code its creator chose (not dealt
	// by the server): the creator may know the deal, and the view says so.
	Chosen bool `json:"chosen,omitempty"`
	// RematchOf is the race this one was offered after, by the seat
	// OfferedBy: both seats are the players', but it waits until the other
	// player accepts (it starts) or declines (it is over, as a cancelled
	// race).
	RematchOf string `json:"rematchOf,omitempty"`
	OfferedBy int    `json:"offeredBy,omitempty"` // the seat that offered the rematch
	// Arena names the arena that paired the race's players (package arena):
	// it has no rematch, and it ends by count (klondike.TimeUp) when it is
	// still in play well after its arena ended.
	Arena string `json:"arena,omitempty"`
}

// The turns of a race, and the first player of an alternating one (the
// words of RaceOptions.Turns and RaceOptions.First; "" reads as the
// first of each).
const (
	Simultaneous  = "simultaneous"
	Alternating   = "alternating"
	FirstRandom   = "random"
	FirstCreator  = "creator"
	FirstOpponent = "opponent"
)

// RaceTurns lists the words of RaceOptions.Turns and RaceFirsts those of
// RaceOptions.First, for the decoders, the documentation and its tests.
func RaceTurns() []string { return []string{Simultaneous, Alternating} }

// RaceFirsts: see RaceTurns.
func RaceFirsts() []string { return []string{FirstCreator, FirstOpponent, FirstRandom} }

// Race limits.
const (
	MaxSeries      = 9
	MaxTurnSeconds = 3600
	MinTurnSeconds = 5
)

// ParseRaceOptions reads stored race options (nil: the defaults).
func ParseRaceOptions(b []byte) (RaceOptions, error) {
	var o RaceOptions
	if len(b) > 0 {
		if err := json.Unmarshal(b, &o); err != nil {
			return o, fmt.Errorf("game: race options: %w", err)
		}
	}
	if o.Series < 1 {
		o.Series = 1
	}
	return o, nil
}

// Check refuses, with bad_request, the options of a new race that break a
// rule: the series' length, the words of Turns and First, and a turn
// clock, which needs alternating turns and has its bounds. The bot's speed
// is the engine's to check.
func (o RaceOptions) Check() error {
	switch {
	case o.Series < 1 || o.Series > MaxSeries:
		return Errorf(BadRequest, "a series has 1 to %d games", MaxSeries)
	case o.Turns != "" && !slices.Contains(RaceTurns(), o.Turns):
		return Errorf(BadRequest, "turns must be %s", quoteOr(RaceTurns()))
	case o.First != "" && !slices.Contains(RaceFirsts(), o.First):
		return Errorf(BadRequest, "first must be %s", quoteOr(RaceFirsts()))
	case o.TurnSeconds != 0 && (o.Turns != Alternating || o.TurnSeconds < MinTurnSeconds || o.TurnSeconds > MaxTurnSeconds):
		return Errorf(BadRequest, "turnSeconds (%d to %d) needs alternating turns", MinTurnSeconds, MaxTurnSeconds)
	}
	return nil
}

// quoteOr lists words as `"a", "b" or "c"`.
func quoteOr(words []string) string {
	var b strings.Builder
	for i, w := range words {
		switch {
		case i == 0:
		case i == len(words)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(w))
	}
	return b.String()
}

// SoloOptions are the creation options of a solo game, stored as JSON in
// its header (store.Game.Options; none for a game with none).
type SoloOptions struct {
	// Winnable: the deal is one the solver won, dealt because the player
	// asked for a winnable deal.
	Winnable bool `json:"winnable,omitempty"`
	// Daily is the day (YYYY-MM-DD) of the daily challenge the game is a
	// player's entry of: its code is kept from the player until the day
	// has closed.
	Daily string `json:"daily,omitempty"`
}

// DailyOf returns the day of the daily challenge a game is the game of,
// from its stored kind and options, or "" for any other game (or options
// that do not read).
func DailyOf(kind string, options []byte) string {
	var o SoloOptions
	if kind != KindSolo || len(options) == 0 || json.Unmarshal(options, &o) != nil {
		return ""
	}
	return o.Daily
}

// NextRaceID is the id of the race offered after race id (its rematch or the
// next game of its series): one per race, so that both players asking get
// the same one.
func NextRaceID(id string) string {
	h := sha256.Sum256([]byte("dsol rematch\x00" + id))
	return base64.RawURLEncoding.EncodeToString(h[:12])
}
