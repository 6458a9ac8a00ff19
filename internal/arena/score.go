// Package arena runs arenas: timed tournaments of races in which whoever is
// free is paired at once with another free player near their score, every
// race scores points and everyone watches the standings move
// (docs/arenas.md).
//
// The standings are never stored: they follow from the arena's races in the
// store (Score), so that the node that takes an arena over rebuilds them
// exactly. A live arena (Arena) runs on the node that holds its lease: it
// pairs its free players every PairEvery, scores each race as it ends,
// pauses a player whose seat stayed idle, and pushes the standings to its
// sockets, coalesced.
package arena

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"dsol/internal/store"
)

// Points of a race (docs/arenas.md): a win, a draw, a loss, and a win once
// the player won the StreakAfter races before it.
const (
	WinPoints       = 2
	DrawPoints      = 1
	LossPoints      = 0
	StreakWinPoints = 4
	StreakAfter     = 2
)

// IdleWithin is how soon a seat must act in its race: a seat that made no
// action within IdleWithin of the race's start scores 0 for it, and its
// player is paused.
const IdleWithin = 30 * time.Second

// Race is an arena's race as the standings read it.
type Race struct {
	ID      string
	Seats   [2]string
	Created time.Time
	// Over: the race ended. Counted: it ended with a result (a race with
	// none counts for no one). Winner is 1 or 2, 0 for a draw.
	Over    bool
	Counted bool
	Winner  int
	// Idle marks a seat that made no action within IdleWithin of Created
	// (in a race that lasted that long).
	Idle [2]bool
}

// RaceOf reads a stored race of an arena.
func RaceOf(r store.ArenaRace) Race {
	x := Race{ID: r.GameID, Seats: r.Seats, Created: r.CreatedAt, Over: r.Status == "over"}
	// A race that ended before IdleWithin left a seat that had not acted
	// yet no time to: it is not idle.
	short := x.Over && r.EndedAt.Sub(r.CreatedAt) < IdleWithin
	for i, first := range r.First {
		acted := !first.IsZero() && first.Sub(r.CreatedAt) <= IdleWithin
		x.Idle[i] = !acted && !(short && first.IsZero())
	}
	if x.Over && len(r.Result) > 0 {
		var res struct {
			Winner *int `json:"winner"`
		}
		if json.Unmarshal(r.Result, &res) == nil {
			x.Counted = true
			if res.Winner != nil {
				x.Winner = *res.Winner
			}
		}
	}
	return x
}

// Tally is a player's standing: points, races counted, races won (that
// scored), and the wins in a row now.
type Tally struct {
	Score  int
	Races  int
	Wins   int
	Streak int
}

// Points is what a race is worth to a player whose tally is t before it:
// won (a draw when neither won nor lost), idle as the race says of their
// seat.
func (t Tally) Points(won, lost, idle bool) int {
	switch {
	case idle || lost:
		return LossPoints
	case won && t.Streak >= StreakAfter:
		return StreakWinPoints
	case won:
		return WinPoints
	}
	return DrawPoints
}

// Add scores a race for the player of seat (1 or 2) and returns its points.
// An idle seat's race is a loss for its streak, whatever its result.
func (t *Tally) Add(r Race, seat int) int {
	won := r.Winner == seat
	lost := r.Winner == 3-seat
	idle := r.Idle[seat-1]
	p := t.Points(won, lost, idle)
	t.Score += p
	t.Races++
	if won && !idle {
		t.Wins++
		t.Streak++
	} else {
		t.Streak = 0
	}
	return p
}

// OnFire reports whether the player's next win is worth StreakWinPoints.
func (t Tally) OnFire() bool { return t.Streak >= StreakAfter }

// Score adds up the counted races, in the order given (oldest first: a
// player plays one race at a time, so this is the order each player's races
// ended in), into the players' tallies.
func Score(races []Race) map[string]*Tally {
	tallies := map[string]*Tally{}
	for _, r := range races {
		score(tallies, r)
	}
	return tallies
}

// score adds one race to tallies, if it counts.
func score(tallies map[string]*Tally, r Race) {
	if !r.Counted {
		return
	}
	for i, p := range r.Seats {
		if p == "" {
			continue
		}
		t := tallies[p]
		if t == nil {
			t = &Tally{}
			tallies[p] = t
		}
		t.Add(r, i+1)
	}
}

// Entry is a player in the standings: their tally, and what orders equal
// scores (the earlier join first).
type Entry struct {
	Player string
	Tally
	Joined int // the order they joined in
}

// Rank orders standings best first: score, then wins, then fewer races,
// then who joined first.
func Rank(es []Entry) {
	slices.SortStableFunc(es, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Wins, a.Wins),
			cmp.Compare(a.Races, b.Races), cmp.Compare(a.Joined, b.Joined), cmp.Compare(a.Player, b.Player))
	})
}

// Diff compares standings with their recomputation from an arena's races
// (oldest first) and describes each row that differs: none when the
// standings are exactly what the races say.
func Diff(rows []Row, races []Race) []string {
	tallies := Score(races)
	var out []string
	for _, row := range rows {
		want := Tally{}
		if t := tallies[row.Player.ID]; t != nil {
			want = *t
		}
		if got := (Tally{Score: row.Score, Races: row.Races, Wins: row.Wins, Streak: row.Streak}); got != want {
			out = append(out, fmt.Sprintf("%s: standings %+v, from the races %+v", row.Player.ID, got, want))
		}
	}
	return out
}
