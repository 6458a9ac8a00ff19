package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"dsol/internal/protocol"
	"dsol/internal/store"
)

// TestViewFor: a view made for one viewer and turned to another with For is
// the view the engine builds for that viewer, at every seq of random solo
// games and races, with a seat away (so that claim times show) or both
// connected.
func TestViewFor(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	check := func(t *testing.T, eng Engine, seq int64) {
		t.Helper()
		for from := range 3 {
			base := eng.View(from, "g", seq)
			for to := range 3 {
				if got, want := base.For(to), eng.View(to, "g", seq); !reflect.DeepEqual(got, want) {
					t.Fatalf("seq %d: the view of %d for %d is\n%+v\nwant\n%+v", seq, from, to, got, want)
				}
			}
		}
	}
	play := func(t *testing.T, eng Engine, race bool) {
		check(t, eng, 0)
		for seq := int64(1); seq <= 150; {
			if eng.Check(1) != nil {
				return
			}
			if _, err := eng.Apply(1+r.IntN(2), randomAction(r, race)); err == nil {
				check(t, eng, seq)
				seq++
			}
		}
	}
	t.Run("solo", func(t *testing.T) {
		for range 5 {
			play(t, soloEngine1(t, r), false)
		}
	})
	t.Run("race", func(t *testing.T) {
		for i := range 6 {
			eng := raceEngine1(t, r)
			eng.(*Race).Attach(&awayLive{online: [2]bool{i%3 != 1, i%3 != 2}, at: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)})
			play(t, eng, true)
		}
	})
}

// awayLive is a race's live side in which the seats not online may be
// claimed against from at, as the live game shows it: on the seat, and
// for the opponent as the view's own claimAt.
type awayLive struct {
	header store.Game
	online [2]bool
	at     time.Time
}

func (l *awayLive) Header() *store.Game { l.header.Status = "playing"; return &l.header }
func (l *awayLive) MayClaim(int) error  { return nil }
func (l *awayLive) Acted(int)           {}

func (l *awayLive) Fill(v *protocol.RaceView, viewer int) {
	for i := range v.Seats {
		s := &v.Seats[i]
		s.Online = l.online[i]
		if !l.online[i] && v.Status == "playing" {
			at := l.at
			s.ClaimAt = &at
			if viewer == 2-i {
				v.ClaimAt = &at
			}
		}
	}
}
