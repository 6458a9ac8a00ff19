package rating

import "time"

// The rules of a rated race (docs/fair-play.md says why each is there):
//
//   - both seats took part: each made at least MinActions actions and the
//     race lasted at least MinPlay from its first action to its last (a
//     resignation, a forfeit or a block before that rates neither seat);
//   - at a person's pace: neither seat's median time between two of its
//     own actions is under MinMedianGap;
//   - at most PairPerDay rated races between the same two players in any
//     PairWindow (the races after that are kept, not rated);
//   - on a deal the server dealt, not a chosen code.
//
// A rated race moves both ratings by Glicko-2, with one exception: an
// established rating (deviation at most Provisional) moves against a
// provisional opponent only by the share of the opponent's certainty
// (Weight), so that a new account, whose result says little, cannot move
// an established rating much, and a fresh one not at all.
const (
	MinActions   = 10
	MinPlay      = 30 * time.Second
	MinMedianGap = 250 * time.Millisecond
	PairPerDay   = 3
	PairWindow   = 24 * time.Hour
	// Provisional is the deviation above which a rating is provisional:
	// shown with a question mark, and weighed by Weight against an
	// established one.
	Provisional = 110.0
)

// The flags of a race that is not rated.
const (
	FlagChosenDeal = "chosen_deal"
	FlagTooShort   = "too_short"
	FlagTooFast    = "too_fast"
	FlagPairLimit  = "pair_limit"
	// FlagNewPlayer was the flag of a race in which a seat had finished
	// fewer than five races, a rule that provisional ratings replaced; it
	// stays readable in races decided before.
	FlagNewPlayer = "new_player"
)

// IsProvisional reports whether r is provisional: its deviation is over
// Provisional.
func IsProvisional(r Rating) bool { return r.Deviation > Provisional }

// Weight is how much a result against opp counts for an established
// rating: 1 against an established one, and from 1 at a deviation of
// Provisional down to 0 at the start deviation (a player never rated).
// A provisional rating weighs every result fully.
func Weight(player, opp Rating) float64 {
	if IsProvisional(player) || !IsProvisional(opp) {
		return 1
	}
	w := (StartDeviation - opp.Deviation) / (StartDeviation - Provisional)
	return min(max(w, 0), 1)
}

// RaceFacts are what decides the rating of a finished race between two
// people.
type RaceFacts struct {
	// ChosenDeal: the race was dealt from a code its creator chose.
	ChosenDeal bool
	// Actions is each seat's number of actions.
	Actions [2]int
	// Played is the time from the race's first action to its last.
	Played time.Duration
	// MedianGap is each seat's median time between two of its actions
	// (negative: fewer than two actions).
	MedianGap [2]time.Duration
	// PairRated is how many races between the same two players were rated
	// in the PairWindow before this one ended.
	PairRated int
	// Score is seat 1's result: 1 a win, 0.5 a draw, 0 a loss.
	Score float64
}

// Decision is the rating of a finished race: rated with both seats'
// ratings after it, or not rated and why (After equals the current
// ratings then).
type Decision struct {
	Rated bool
	Flag  string
	After [2]Rating
}

// DecideRace applies the rules above to a finished race whose seats had
// the ratings current.
func DecideRace(f RaceFacts, current [2]Rating) Decision {
	d := Decision{After: current}
	switch {
	case f.ChosenDeal:
		d.Flag = FlagChosenDeal
	case f.Actions[0] < MinActions || f.Actions[1] < MinActions || f.Played < MinPlay:
		d.Flag = FlagTooShort
	case TooFast(f.MedianGap[0]) || TooFast(f.MedianGap[1]):
		d.Flag = FlagTooFast
	case f.PairRated >= PairPerDay:
		d.Flag = FlagPairLimit
	default:
		a, b := Race(current[0], current[1], f.Score)
		d.Rated = true
		d.After[0] = toward(current[0], a, Weight(current[0], current[1]))
		d.After[1] = toward(current[1], b, Weight(current[1], current[0]))
	}
	return d
}

// TooFast reports a median gap between a player's actions under a
// person's pace (fewer than two actions have none: negative). It is the
// pace rule of rated races and of ranked daily challenges alike.
func TooFast(gap time.Duration) bool { return gap >= 0 && gap < MinMedianGap }

// toward moves from before by the share w of the way to after.
func toward(before, after Rating, w float64) Rating {
	if w >= 1 {
		return after
	}
	return Rating{
		Rating:     before.Rating + w*(after.Rating-before.Rating),
		Deviation:  before.Deviation + w*(after.Deviation-before.Deviation),
		Volatility: before.Volatility + w*(after.Volatility-before.Volatility),
	}
}
