package racelive

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

// rig is a race engine with its live side on their own, without a table:
// a manual clock, timers that only record, and a host that runs what comes
// back at once and records the server's actions.
type rig struct {
	now    time.Time
	g      store.Game
	e      *engine.Race
	l      *Live
	seq    int64
	timers []rigTimer
	acts   []rigAct
	subs   [2]bool
}

type rigTimer struct {
	d       time.Duration
	f       func()
	stopped bool
}

type rigAct struct {
	seat int
	a    klondike.Action
}

func newRig(tb testing.TB, o game.RaceOptions, seats [2]string) *rig {
	tb.Helper()
	opts, err := json.Marshal(o)
	if err != nil {
		tb.Fatal(err)
	}
	r := &rig{now: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
	r.g = store.Game{ID: "live", Kind: "race", Code: "DR1-D1UI-HELLOXY", Options: opts, Status: "playing",
		Seats: seats, Salt: make([]byte, 16), CreatedAt: r.now}
	eng, err := engine.NewRace(r.g)
	if err != nil {
		tb.Fatal(err)
	}
	r.e = eng.(*engine.Race)
	r.l = New(rigHost{r}, Config{Clock: func() time.Time { return r.now }, Grace: 40 * time.Second,
		RematchTimeout: time.Minute, StoreTimeout: time.Second,
		AfterFunc: func(d time.Duration, f func()) func() bool {
			r.timers = append(r.timers, rigTimer{d: d, f: f})
			i := len(r.timers) - 1
			return func() bool { r.timers[i].stopped = true; return true }
		}})
	r.e.Attach(r.l)
	return r
}

// rigHost is the rig as the live side's table.
type rigHost struct{ r *rig }

func (h rigHost) ID() string                { return h.r.g.ID }
func (h rigHost) Seq() int64                { return h.r.seq }
func (h rigHost) Header() *store.Game       { return &h.r.g }
func (h rigHost) SetHeader(g store.Game)    { h.r.g = g }
func (h rigHost) Engine() *engine.Race      { return h.r.e }
func (h rigHost) Subscribed() [2]bool       { return h.r.subs }
func (h rigHost) Notify(n *protocol.Notice) {}
func (h rigHost) Call(f func())             { f() }
func (h rigHost) Act(seat int, a klondike.Action) error {
	h.r.acts = append(h.r.acts, rigAct{seat, a})
	if _, err := h.r.e.Apply(seat, a); err != nil {
		return err
	}
	h.r.seq++
	h.r.l.After() // as the table does after every batch
	return nil
}

// TestViewForLive: a race view made for one viewer and turned to another
// with For is the view the engine builds for that viewer with the live
// side filled in, at every seq of random races, with a seat away (so that
// claim times show) or both connected.
func TestViewForLive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(21, 22))
	for i := range 6 {
		r := newRig(t, game.RaceOptions{Turns: "simultaneous", Series: 1}, [2]string{"a", "b"})
		r.l.online = [2]bool{i%3 != 1, i%3 != 2}
		eng := engine.Engine(r.e)
		for seq := int64(0); seq <= 150 && eng.Check(1) == nil; {
			for from := range 3 {
				base := eng.View(from, "g", seq)
				for to := range 3 {
					if got, want := base.For(to), eng.View(to, "g", seq); !reflect.DeepEqual(got, want) {
						t.Fatalf("seq %d: the view of %d for %d is\n%+v\nwant\n%+v", seq, from, to, got, want)
					}
				}
			}
			if _, err := eng.Apply(1+rnd.IntN(2), randomRaceAction(rnd)); err == nil {
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

// TestRaceLiveTurnClock: the turn clock is set when a turn starts; when it
// comes due early it sets itself again for the time left, and once the
// time is up it makes the seat on turn pass, after which the next turn's
// clock is set. A clock of a turn that ended in time does nothing, and
// Stop cancels the clock and makes a late one do nothing.
func TestRaceLiveTurnClock(t *testing.T) {
	r := newRig(t, game.RaceOptions{Turns: "alternating", First: "creator", FirstSeat: 1, Series: 1, TurnSeconds: 30},
		[2]string{"a", "b"})
	l := r.l
	l.schedule()
	if len(r.timers) != 1 || r.timers[0].d != 30*time.Second || !l.deadline.Equal(r.now.Add(30*time.Second)) {
		t.Fatalf("timers %+v, deadline %v: want one 30s clock", r.timers, l.deadline)
	}
	l.schedule()
	if len(r.timers) != 1 {
		t.Fatal("scheduling again within the same turn set another clock")
	}
	r.now = r.now.Add(29 * time.Second)
	r.timers[0].f()
	if len(r.acts) != 0 || len(r.timers) != 2 || r.timers[1].d != time.Second {
		t.Fatalf("an early clock: actions %+v, timers %+v; want none and the second left", r.acts, r.timers)
	}
	r.now = r.now.Add(time.Second)
	r.timers[1].f()
	if len(r.acts) != 1 || r.acts[0] != (rigAct{1, klondike.Simple(klondike.Pass)}) {
		t.Fatalf("the clock ran out: actions %+v; want seat 1 to pass", r.acts)
	}
	if len(r.timers) != 3 || r.timers[2].d != 30*time.Second || !l.deadline.Equal(r.now.Add(30*time.Second)) {
		t.Fatalf("after the turn change: timers %+v, deadline %v", r.timers, l.deadline)
	}
	r.timers[0].f()
	if len(r.acts) != 1 {
		t.Fatalf("the clock of a turn that ended acted: %+v", r.acts)
	}
	l.Stop()
	if !r.timers[2].stopped {
		t.Fatal("Stop left the turn clock running")
	}
	r.now = r.now.Add(time.Minute)
	r.timers[2].f()
	if len(r.acts) != 1 {
		t.Fatalf("a clock after Stop acted: %+v", r.acts)
	}
}

// TestRaceLiveClaim: a seat away may be claimed against once the grace
// has passed since it was last seen, never while it is connected, when it
// is the bot's, or while the race waits.
func TestRaceLiveClaim(t *testing.T) {
	r := newRig(t, game.RaceOptions{Turns: "simultaneous", Series: 1}, [2]string{"a", "b"})
	l, e := r.l, r.e
	l.online = [2]bool{true, false}
	seen := r.now
	if at := l.claimAt(2); !at.Equal(seen.Add(40 * time.Second)) {
		t.Fatalf("claimAt %v, want 40s after %v", at, seen)
	}
	if err := l.MayClaim(1); protocol.AsError(err).Code != game.Conflict {
		t.Fatalf("a claim within the grace: %v", err)
	}
	if err := l.MayClaim(2); protocol.AsError(err).Code != game.Conflict {
		t.Fatalf("a claim over a connected seat: %v", err)
	}
	v := e.View(1, "live", 0).(protocol.RaceView)
	if v.ClaimAt == nil || !v.ClaimAt.Equal(seen.Add(40*time.Second)) || v.Seats[1].ClaimAt == nil || v.GraceSeconds != 40 {
		t.Fatalf("seat 1's view: claimAt %v, seat 2's %v, grace %d", v.ClaimAt, v.Seats[1].ClaimAt, v.GraceSeconds)
	}
	r.now = r.now.Add(40 * time.Second)
	if err := l.MayClaim(1); err != nil {
		t.Fatalf("a claim once the grace ran out: %v", err)
	}
	r.g.Status = "waiting"
	if err := l.MayClaim(1); err == nil {
		t.Fatal("a claim while the race waits")
	}
	r.g.Status, r.g.Seats[1] = "playing", store.BotPlayerID
	if err := l.MayClaim(1); err == nil {
		t.Fatal("a claim over the bot")
	}
}
