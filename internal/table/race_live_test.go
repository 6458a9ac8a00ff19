package table

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"dsol/internal/engine"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// liveRig is a race engine with its live state on their own, without a
// table: a manual clock, timers that only record, and the wakes they send.
type liveRig struct {
	clock  *clock
	g      store.Game
	e      *engine.Race
	l      *raceLive
	timers []rigTimer
	wakes  []raceWake
}

type rigTimer struct {
	d       time.Duration
	f       func()
	stopped bool
}

func newLiveRig(tb testing.TB, o game.RaceOptions, seats [2]string) *liveRig {
	tb.Helper()
	opts, err := json.Marshal(o)
	if err != nil {
		tb.Fatal(err)
	}
	rig := &liveRig{clock: newClock()}
	rig.g = store.Game{ID: "live", Kind: "race", Code: "DR1-D1UI-HELLOXY", Options: opts, Status: "playing",
		Seats: seats, Salt: make([]byte, 16), CreatedAt: rig.clock.Now()}
	eng, err := engine.NewRace(rig.g)
	if err != nil {
		tb.Fatal(err)
	}
	rig.e = eng.(*engine.Race)
	rig.l = newRaceLive(raceEnv{now: rig.clock.Now, grace: 40 * time.Second, rematchTimeout: time.Minute,
		afterFunc: func(d time.Duration, f func()) func() bool {
			rig.timers = append(rig.timers, rigTimer{d: d, f: f})
			i := len(rig.timers) - 1
			return func() bool { rig.timers[i].stopped = true; return true }
		},
		wake: func(w raceWake) { rig.wakes = append(rig.wakes, w) }})
	rig.e.Attach(rigSide{rig})
	return rig
}

// rigSide is the rig's live side as its engine reads it, as raceSide is a
// table's.
type rigSide struct{ rig *liveRig }

func (s rigSide) Header() *store.Game     { return &s.rig.g }
func (s rigSide) MayClaim(seat int) error { return s.rig.l.mayClaim(seat, s.rig.e, &s.rig.g) }
func (s rigSide) Acted(seat int)          { s.rig.l.seen[seat-1] = s.rig.l.now() }
func (s rigSide) Fill(v *protocol.RaceView, viewer int) {
	s.rig.l.fill(v, viewer, s.rig.e, &s.rig.g)
}

// TestViewForLive: a race view made for one viewer and turned to another
// with For is the view the engine builds for that viewer with the live
// state filled in, at every seq of random races, with a seat away (so that
// claim times show) or both connected.
func TestViewForLive(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for i := range 6 {
		rig := newLiveRig(t, game.RaceOptions{Turns: "simultaneous", Series: 1}, [2]string{"a", "b"})
		rig.l.online = [2]bool{i%3 != 1, i%3 != 2}
		eng := engine.Engine(rig.e)
		for seq := int64(0); seq <= 150 && eng.Check(1) == nil; {
			for from := range 3 {
				base := eng.View(from, "g", seq)
				for to := range 3 {
					if got, want := base.For(to), eng.View(to, "g", seq); !reflect.DeepEqual(got, want) {
						t.Fatalf("seq %d: the view of %d for %d is\n%+v\nwant\n%+v", seq, from, to, got, want)
					}
				}
			}
			if _, err := eng.Apply(1+r.IntN(2), randomRaceAction(r)); err == nil {
				seq++
			}
		}
	}
}

// randomRaceAction picks an action for a seat of a race; many are refused,
// which the caller skips.
func randomRaceAction(r *rand.Rand) klondike.Action {
	switch n := r.IntN(10); {
	case n < 3:
		return klondike.Simple(klondike.Draw)
	case n < 4:
		return klondike.Simple(klondike.Recycle)
	case n < 7:
		return klondike.FromPile(klondike.Tap, klondike.ColPile(r.IntN(7)), 1)
	default:
		return klondike.FromPile(klondike.DTap, klondike.ColPile(r.IntN(7)), 1+r.IntN(3))
	}
}

// TestRaceLiveTurnClock: the turn clock is set when a turn starts, wakes
// the table with the turns it was set at, comes back when it woke early,
// and asks for the pass of the seat on turn once the time is up; the turn
// change sets a new clock, which stop cancels.
func TestRaceLiveTurnClock(t *testing.T) {
	rig := newLiveRig(t, game.RaceOptions{Turns: "alternating", First: "creator", FirstSeat: 1, Series: 1, TurnSeconds: 30},
		[2]string{"a", "b"})
	l, e := rig.l, rig.e
	start := rig.clock.Now()
	l.schedule(e, rig.g, 0)
	if len(rig.timers) != 1 || rig.timers[0].d != 30*time.Second || !l.deadline.Equal(start.Add(30*time.Second)) {
		t.Fatalf("timers %+v, deadline %v: want one 30s clock", rig.timers, l.deadline)
	}
	l.schedule(e, rig.g, 0)
	if len(rig.timers) != 1 {
		t.Fatal("scheduling again within the same turn set another clock")
	}
	rig.timers[0].f()
	if len(rig.wakes) != 1 || rig.wakes[0] != (raceWake{kind: wakeClock, turns: 0}) {
		t.Fatalf("wakes %+v", rig.wakes)
	}
	rig.clock.Add(29 * time.Second)
	if _, pass := l.turnClock(e, 0); pass || len(rig.timers) != 2 || rig.timers[1].d != time.Second {
		t.Fatalf("an early wake passed or did not come back in the second left (timers %+v)", rig.timers)
	}
	rig.clock.Add(time.Second)
	if seat, pass := l.turnClock(e, 0); !pass || seat != 1 {
		t.Fatalf("the clock ran out: got seat %d, pass %v; want seat 1 to pass", seat, pass)
	}
	if _, pass := l.turnClock(e, 1); pass {
		t.Fatal("a clock of another turn passed")
	}
	if _, err := e.Apply(1, klondike.Simple(klondike.Pass)); err != nil {
		t.Fatal(err)
	}
	l.schedule(e, rig.g, 1)
	if len(rig.timers) != 3 || rig.timers[2].d != 30*time.Second || !l.deadline.Equal(rig.clock.Now().Add(30*time.Second)) {
		t.Fatalf("after the turn change: timers %+v, deadline %v", rig.timers, l.deadline)
	}
	l.stop()
	if !rig.timers[2].stopped {
		t.Fatal("stop left the turn clock running")
	}
}

// TestRaceLiveClaim: a seat away may be claimed against once the grace
// has passed since it was last seen, never while it is connected, when it
// is the bot's, or while the race waits.
func TestRaceLiveClaim(t *testing.T) {
	rig := newLiveRig(t, game.RaceOptions{Turns: "simultaneous", Series: 1}, [2]string{"a", "b"})
	l, e := rig.l, rig.e
	l.online = [2]bool{true, false}
	seen := rig.clock.Now()
	if at := l.claimAt(2, e, &rig.g); !at.Equal(seen.Add(40 * time.Second)) {
		t.Fatalf("claimAt %v, want 40s after %v", at, seen)
	}
	if err := l.mayClaim(1, e, &rig.g); protocol.AsError(err).Code != game.Conflict {
		t.Fatalf("a claim within the grace: %v", err)
	}
	if err := l.mayClaim(2, e, &rig.g); protocol.AsError(err).Code != game.Conflict {
		t.Fatalf("a claim over a connected seat: %v", err)
	}
	v := e.View(1, "live", 0).(protocol.RaceView)
	if v.ClaimAt == nil || !v.ClaimAt.Equal(seen.Add(40*time.Second)) || v.Seats[1].ClaimAt == nil || v.GraceSeconds != 40 {
		t.Fatalf("seat 1's view: claimAt %v, seat 2's %v, grace %d", v.ClaimAt, v.Seats[1].ClaimAt, v.GraceSeconds)
	}
	rig.clock.Add(40 * time.Second)
	if err := l.mayClaim(1, e, &rig.g); err != nil {
		t.Fatalf("a claim once the grace ran out: %v", err)
	}
	rig.g.Status = "waiting"
	if err := l.mayClaim(1, e, &rig.g); err == nil {
		t.Fatal("a claim while the race waits")
	}
	rig.g.Status, rig.g.Seats[1] = "playing", BotPlayerID
	if err := l.mayClaim(1, e, &rig.g); err == nil {
		t.Fatal("a claim over the bot")
	}
}
