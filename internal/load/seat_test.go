package load

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"dsol/internal/load/loadtest"
)

// TestRaceSeatResync: the race mode's seat, which folds no deltas, reads
// its counts again from the server's view of its race.
func TestRaceSeatResync(t *testing.T) {
	s := loadtest.MustServe(t, 0)
	cfg, err := parse([]string{"--mode", "race", "--url", s.Base, "--races", "1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := newRacePair(&cfg, &http.Client{})
	if !p.setup(ctx) {
		t.Fatalf("setup: %v", p.errors)
	}
	defer p.dropRace()
	g := p.race
	g.ctx, g.cancel = context.WithCancel(ctx)
	defer g.cancel()
	seat := p.seats[0]
	for i, want := range [][2]int{{24, 0}, {23, 1}, {22, 2}} {
		if i > 0 {
			if a, err := seat.act(ctx, g, drawFrame); err != nil || a.Type != "ack" {
				t.Fatalf("draw: %+v %v", a, err)
			}
		}
		seat.stock, seat.waste = -1, -1
		if err := seat.resync(g); err != nil {
			t.Fatal(err)
		}
		if seat.stock != want[0] || seat.waste != want[1] {
			t.Errorf("after %d draws: stock %d, waste %d; want %d, %d", i, seat.stock, seat.waste, want[0], want[1])
		}
	}
	if len(seat.deltas) != 0 {
		t.Errorf("%d deltas kept, want none in the race mode", len(seat.deltas))
	}
}
