package race

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
)

// propertyRaces is how many bot-vs-bot races the property tests play:
// DSOL_PROPERTY_RACES, else 5000 (400 under the race detector, which slows
// the blocked search some thirty times).
func propertyRaces(tb testing.TB) int {
	if s := os.Getenv("DSOL_PROPERTY_RACES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			tb.Fatalf("DSOL_PROPERTY_RACES=%q: want a positive number", s)
		}
		return n
	}
	if raceDetector {
		return 400
	}
	return 5000
}

// checker verifies the invariants of a race after every accepted action.
type checker struct {
	tb       testing.TB
	r        *Race
	prev     k.Foundations
	prevDown [Seats]int
	lastPlay int
	plays    int
}

func newChecker(tb testing.TB, r *Race) *checker {
	c := &checker{tb: tb, r: r, prev: r.found}
	c.check(0, k.Action{}, Outcome{})
	return c
}

func (c *checker) fail(format string, args ...any) {
	c.tb.Helper()
	c.tb.Fatalf("%s: %s\n%s", c.r.code, fmt.Sprintf(format, args...), c.r.Diagram())
}

// check verifies conservation, growing foundations, counts and turns.
func (c *checker) check(seat int, a k.Action, out Outcome) {
	c.tb.Helper()
	r := c.r
	var seen [2 * CardsPerSeat]bool
	var onF [Seats]int
	mark := func(x cards.Card, owner int) {
		if x >= 2*CardsPerSeat || seen[x] || (owner >= 0 && x.Deck() != owner) {
			c.fail("card %d (%s) duplicated or on the wrong board", x, x)
		}
		seen[x] = true
	}
	for i := 0; i < 8; i++ {
		if r.found.N[i] < c.prev.N[i] || !slices.Equal(r.found.Piles[i][:c.prev.N[i]], c.prev.Piles[i][:c.prev.N[i]]) {
			c.fail("foundation f%d shrank or changed", i+1)
		}
		for j, x := range r.found.Piles[i][:r.found.N[i]] {
			mark(x, -1)
			if int(x.Suit()) != i/2 || x.Rank() != j+1 {
				c.fail("f%d holds %s at height %d", i+1, x, j+1)
			}
			onF[x.Deck()]++
		}
	}
	for s := 0; s < Seats; s++ {
		b := &r.boards[s]
		for i := 0; i < int(b.NCols); i++ {
			col := &b.Cols[i]
			if col.N > 0 && col.Down >= col.N {
				c.fail("seat %d c%d has no face-up top", s+1, i+1)
			}
			for _, x := range col.Cards[:col.N] {
				mark(x, s)
			}
			for j := int(col.Down) + 1; j < int(col.N); j++ {
				if !cards.Builds(col.Cards[j], col.Cards[j-1]) {
					c.fail("seat %d c%d: %s on %s", s+1, i+1, col.Cards[j], col.Cards[j-1])
				}
			}
		}
		for _, x := range b.Stock[:b.NStock] {
			mark(x, s)
		}
		for _, x := range b.Waste[:b.NWaste] {
			mark(x, s)
		}
		if b.CardsLeft()+onF[s] != CardsPerSeat {
			c.fail("seat %d: %d on the board + %d on the foundations != 52", s+1, b.CardsLeft(), onF[s])
		}
		if int(r.counts[s]) != onF[s] {
			c.fail("seat %d count %d, but %d of its cards are on the foundations", s+1, r.counts[s], onF[s])
		}
		if d := b.FaceDown(); seat != 0 && d > c.prevDown[s] {
			c.fail("seat %d: face-down cards grew", s+1)
		}
		c.prevDown[s] = b.FaceDown()
	}
	if out.Foundation {
		c.lastPlay = seat
		c.plays++
		if r.found.Total() != c.prev.Total()+1 || int(r.last) != seat {
			c.fail("foundation play by seat %d not recorded", seat)
		}
	} else if seat != 0 && r.found.Total() != c.prev.Total() {
		c.fail("%s changed the foundations", a)
	}
	if r.opts.Turns == Alternating && r.status == Playing && seat != 0 {
		ends := a.Type == k.Draw || a.Type == k.Pass
		if out.TurnEnded != ends || (ends && r.Turn() == seat) || (!ends && r.Turn() != seat) {
			c.fail("turn after seat %d's %s: %d", seat, a, r.Turn())
		}
	}
	c.prev = r.found
	if debugCache {
		for s := 0; s < Seats; s++ {
			if r.blocked[s] != unknown {
				fresh := k.Blocked(&r.boards[s], &r.found)
				if fresh != (r.blocked[s] == isBlocked) {
					c.fail("stale blocked cache for seat %d after seat %d's %s: cached %d, fresh %v", s+1, seat, a, r.blocked[s], fresh)
				}
			}
		}
	}
}

// debugCache (DSOL_CHECK_BLOCKED_CACHE=1) also compares every cached blocked
// verdict with a fresh search after every action.
var debugCache = os.Getenv("DSOL_CHECK_BLOCKED_CACHE") != ""

// checkResult verifies the end of a finished race against the rules.
func (c *checker) checkResult() {
	c.tb.Helper()
	r := c.r
	res := r.Result()
	if r.Status() != Over {
		c.fail("the race did not end")
	}
	if res.Counts != [2]int{int(r.counts[0]), int(r.counts[1])} || res.LastPlay != c.lastPlay {
		c.fail("result %+v, counts %v, last play %d", res, r.counts, c.lastPlay)
	}
	var out int
	switch res.Reason {
	case Out:
		for s := 1; s <= Seats; s++ {
			if r.Board(s).CardsLeft() == 0 {
				out = s
			}
		}
		if out == 0 || res.Counts[out-1] != CardsPerSeat {
			c.fail("out, but no seat has all 52 cards up")
		}
	case BothBlocked:
		cp := *r
		cp.blocked = [Seats]int8{}
		if !cp.Blocked(1) || !cp.Blocked(2) {
			c.fail("ended as blocked, but blocked = %v %v", cp.Blocked(1), cp.Blocked(2))
		}
	case Resigned, Forfeited:
		if res.Loser == 0 || res.Winner != 3-res.Loser {
			c.fail("%s: winner %d, loser %d", res.Reason, res.Winner, res.Loser)
		}
		return
	default:
		c.fail("unknown end %d", res.Reason)
	}
	want := c.lastPlay
	switch {
	case out != 0 && r.opts.SoloOutBonus:
		want = out
	case res.Counts[0] > res.Counts[1]:
		want = 1
	case res.Counts[1] > res.Counts[0]:
		want = 2
	}
	if res.Winner != want || (c.plays == 0) != (res.Winner == 0) {
		c.fail("winner %d, want %d (counts %v, last play %d)", res.Winner, want, res.Counts, c.lastPlay)
	}
}

type propStats struct {
	races, actions, maxActions, out, blocked, resigned, draws, wins1, wins2 int
}

// TestPropertyBotRaces plays bot-vs-bot races over random codes in both turn
// modes and checks every invariant after every action.
func TestPropertyBotRaces(t *testing.T) {
	n := propertyRaces(t)
	for _, turns := range []Turns{Simultaneous, Alternating} {
		t.Run(turns.String(), func(t *testing.T) {
			t.Parallel()
			var st propStats
			rng := rand.New(rand.NewPCG(uint64(turns)+1, 2026))
			for i := 0; i < (n+1)/2; i++ {
				code := cards.Code{Kind: cards.Race, Draw: 1 + 2*rng.IntN(2), Single: rng.IntN(3) == 0,
					Mirrored: rng.IntN(2) == 0, Deal: rng.Uint64N(cards.DealCount)}
				opts := Options{Turns: turns, First: FirstRandom, SoloOutBonus: rng.IntN(2) == 0}
				opts.FirstSeat = opts.First.Seat(func() int { return rng.IntN(2) })
				r, err := New(code, opts)
				if err != nil {
					t.Fatal(err)
				}
				c := newChecker(t, r)
				log, stalled := botGame(t, r, rng, 20000, c.check)
				if stalled {
					t.Fatalf("%s %v: no end after %d actions\n%s", code, turns, len(log), r.Diagram())
				}
				c.checkResult()
				st.races++
				st.actions += len(log)
				st.maxActions = max(st.maxActions, len(log))
				switch r.Result().Reason {
				case Out:
					st.out++
				case BothBlocked:
					st.blocked++
				case Resigned:
					st.resigned++
				}
				switch r.Result().Winner {
				case 0:
					st.draws++
				case 1:
					st.wins1++
				case 2:
					st.wins2++
				}
			}
			t.Logf("%d %s races: %d actions (mean %d, max %d); ended out %d, blocked %d, bot resigned %d; seat 1 won %d, seat 2 %d, draws %d",
				st.races, turns, st.actions, st.actions/st.races, st.maxActions, st.out, st.blocked, st.resigned, st.wins1, st.wins2, st.draws)
		})
	}
}
