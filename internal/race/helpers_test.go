package race

import (
	"math/rand/v2"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

func mustCode(tb testing.TB, s string) cards.Code {
	tb.Helper()
	c, err := cards.ParseCode(s)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func mustRace(tb testing.TB, code string, opts Options) *Race {
	tb.Helper()
	r, err := New(mustCode(tb, code), opts)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func mustPosition(tb testing.TB, code string, opts Options, diagram string) *Race {
	tb.Helper()
	r, err := ParsePosition(mustCode(tb, code), opts, diagram)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func mustApply(tb testing.TB, r *Race, seat int, a k.Action) Outcome {
	tb.Helper()
	out, err := r.Apply(seat, a)
	if err != nil {
		tb.Fatalf("seat %d %s: %v\n%s", seat, a, err, r.Diagram())
	}
	return out
}

func mustRefuse(tb testing.TB, r *Race, seat int, a k.Action, code k.ErrCode) {
	tb.Helper()
	before := *r
	_, err := r.Apply(seat, a)
	if err == nil {
		tb.Fatalf("seat %d %s: accepted, want %s\n%s", seat, a, code, r.Diagram())
	}
	e, ok := err.(*k.Error)
	if !ok || e.Code != code {
		tb.Fatalf("seat %d %s: error %v, want code %s", seat, a, err, code)
	}
	if before.Diagram() != r.Diagram() || before.counts != r.counts || before.turn != r.turn || before.status != r.status {
		tb.Fatalf("seat %d %s: refused but the race changed", seat, a)
	}
}

func move(from, to string, count int) k.Action {
	f, _ := k.ParsePile(from)
	t, _ := k.ParsePile(to)
	return k.NewMove(f, t, count)
}

func pile(s string) k.Pile {
	p, _ := k.ParsePile(s)
	return p
}

// botGame plays a bot-vs-bot race to its end and calls check after every
// accepted action. In simultaneous races the seat to act next is picked by
// rng; a seat whose bot waits lets the other act. It returns the actions
// played and whether the race stalled (no bot had an action before the end).
func botGame(tb testing.TB, r *Race, rng *rand.Rand, maxActions int, check func(seat int, a k.Action, out Outcome)) (log []Step, stalled bool) {
	tb.Helper()
	var bot Bot
	for r.Status() == Playing {
		if len(log) >= maxActions {
			return log, true
		}
		first := 1 + rng.IntN(2)
		acted := false
		for _, seat := range [2]int{first, 3 - first} {
			a, ok := bot.Next(r.Seen(seat))
			if !ok {
				continue
			}
			out, err := r.Apply(seat, a)
			if err != nil {
				tb.Fatalf("bot seat %d %s refused: %v\n%s", seat, a, err, r.Diagram())
			}
			log = append(log, Step{Seat: seat, Action: a})
			if check != nil {
				check(seat, a, out)
			}
			acted = true
			break
		}
		if !acted {
			return log, true
		}
	}
	return log, false
}

// Step is one recorded action of a seat.
type Step struct {
	Seat   int
	Action k.Action
}
