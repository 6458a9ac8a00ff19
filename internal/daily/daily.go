// Package daily holds the daily challenges: one secret deal per UTC day and
// mode, the same for every player, proven winnable by the solver, its code
// kept from everyone until the day has closed (a known deal can be solved
// offline). Days are decided by the server's clock, passed in.
package daily

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"time"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/rating"
	"dsol/internal/solver"
)

// Mode is a mode of the daily challenge.
type Mode struct {
	Name  string // D1N, D3N
	Draw  int
	Vegas bool
}

// Modes are the challenges of every day: draw 1 and draw 3, Normal scoring
// (the modes whose deals the solver wins often enough to draw one at once).
var Modes = []Mode{{"D1N", 1, false}, {"D3N", 3, false}}

// ModeOf finds a mode by name.
func ModeOf(name string) (Mode, bool) {
	for _, m := range Modes {
		if m.Name == name {
			return m, true
		}
	}
	return Mode{}, false
}

// Scoring is the mode's scoring as the API spells it.
func (m Mode) Scoring() string {
	if m.Vegas {
		return "vegas"
	}
	return "normal"
}

// DayLayout is how a day is written: its UTC date.
const DayLayout = "2006-01-02"

// Day is the UTC day of t.
func Day(t time.Time) string { return t.UTC().Format(DayLayout) }

// Bounds returns when a day begins and when it closes (the next day's
// beginning), or an error for a day that is not a date.
func Bounds(day string) (begin, end time.Time, err error) {
	begin, err = time.Parse(DayLayout, day)
	if err != nil || begin.Format(DayLayout) != day {
		return time.Time{}, time.Time{}, fmt.Errorf("daily: %q is not a day (YYYY-MM-DD)", day)
	}
	return begin, begin.AddDate(0, 0, 1), nil
}

// Closed reports whether day has closed at now: its code may then be
// shown, and its games take no more actions.
func Closed(day string, now time.Time) bool {
	_, end, err := Bounds(day)
	return err == nil && !now.Before(end)
}

// InTime reports whether an action stored at at came before day closed: a
// win counts (for the leaderboard and the streak) only then.
func InTime(day string, at time.Time) bool {
	_, end, err := Bounds(day)
	return err == nil && at.Before(end)
}

// The rules of a ranked entry (docs/fair-play.md): its player had played,
// before the day began, a solo game (any, an earlier day's challenge too)
// of at least EarlierActions actions, so that accounts made to look at the
// deal first do not rank; and a win ranks only at a person's pace, the
// same rule as for rated races (rating.TooFast): a faster win is kept,
// unranked.
const EarlierActions = 20

// MinGap is the least median time between two actions of a ranked win.
const MinGap = rating.MinMedianGap

// Hidden reports whether a game, by its stored kind and options, is a daily
// challenge's game whose day has not closed at now: its code, and its log,
// which tells the deal as well, are kept from everyone until then.
func Hidden(kind string, options []byte, now time.Time) bool {
	day := game.DailyOf(kind, options)
	return day != "" && !Closed(day, now)
}

// Budget bounds the solver's search of one drawn deal, in positions (a
// bound in positions, not time, so a busy machine draws the same deals).
const Budget = 50_000

// MaxDraws bounds how many deals Pick draws before it gives up.
const MaxDraws = 64

// ErrNoDeal: no drawn deal was won within the budget.
var ErrNoDeal = errors.New("daily: no winnable deal found")

// Pick draws secret deals of mode m from random until the solver wins one
// within Budget positions, and returns its code. random nil means
// crypto/rand.
func Pick(s *solver.Solver, m Mode, random io.Reader) (cards.Code, error) {
	if random == nil {
		random = rand.Reader
	}
	for range MaxDraws {
		c := cards.Code{Kind: cards.Solo, Secret: true, Draw: m.Draw, Vegas: m.Vegas}
		if _, err := io.ReadFull(random, c.Key[:]); err != nil {
			return cards.Code{}, fmt.Errorf("daily: draw a deal: %w", err)
		}
		if s.SolveCode(c, solver.Options{MaxPositions: Budget}).Verdict == solver.Won {
			return c, nil
		}
	}
	return cards.Code{}, ErrNoDeal
}

// Win is a win of a day's challenge: when its winning action was stored.
type Win struct {
	Day string
	At  time.Time
}

// Streak returns the current and the best daily streak from a player's
// wins of challenges (any mode), in any order, at now: the longest runs of
// consecutive days won in time (InTime), the current one ending today, or
// yesterday while today is still open to win.
func Streak(won []Win, now time.Time) (current, best int) {
	days := make(map[string]bool, len(won))
	for _, w := range won {
		if InTime(w.Day, w.At) {
			days[w.Day] = true
		}
	}
	for d := range days {
		begin, _, err := Bounds(d)
		if err != nil || days[Day(begin.AddDate(0, 0, -1))] {
			continue // not the first day of a run
		}
		n := 1
		for days[Day(begin.AddDate(0, 0, n))] {
			n++
		}
		best = max(best, n)
		last := Day(begin.AddDate(0, 0, n-1))
		if today := Day(now); last == today || last == Day(now.UTC().AddDate(0, 0, -1)) {
			current = n
		}
	}
	return current, best
}
