package live

import (
	"context"
	"testing"
	"time"

	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// tallies records the tallies of the actions a Store is given.
type tallies struct {
	*flaky
	got []*store.Tally
}

func (s *tallies) AppendActions(ctx context.Context, as []store.Action) error {
	for _, a := range as {
		s.got = append(s.got, a.Tally)
	}
	return s.flaky.AppendActions(ctx, as)
}

// TestTally checks what a solo game's actions store besides themselves: the
// engine's score and moves after each, and the seconds of play, each gap
// between two actions capped at store.MaxGap, carried on across a restart
// (the table rebuilds the running total from the log).
func TestTally(t *testing.T) {
	e := mustEnv(t)
	rec := &tallies{flaky: e.st}
	com := store.NewCommitter(rec, time.Millisecond, 0, nil)
	defer com.Close()
	e.cfg.Committer = com
	e.restart(t)
	id := mustGame(t, e, "g1", code)
	draw := protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Draw)}
	gaps := []time.Duration{0, 10 * time.Second, 10 * time.Minute, 5 * time.Second}
	var views []protocol.SoloView
	for i, gap := range gaps {
		if i == 2 {
			e.restart(t)
		}
		e.clock.Advance(gap)
		views = append(views, mustDo(t, e.reg, id, draw).View.(protocol.SoloView))
	}
	undo := protocol.Command{Seat: 1, Action: klondike.Simple(klondike.Undo)}
	e.clock.Advance(2 * time.Second)
	views = append(views, mustDo(t, e.reg, id, undo).View.(protocol.SoloView))

	plays := []time.Duration{0, 10 * time.Second, 70 * time.Second, 75 * time.Second, 77 * time.Second}
	if len(rec.got) != len(plays) {
		t.Fatalf("%d actions stored, want %d", len(rec.got), len(plays))
	}
	for i, tl := range rec.got {
		v := views[i]
		if tl == nil || tl.Play != plays[i] || tl.Score != v.Score || tl.Moves != v.Moves {
			t.Fatalf("action %d: tally %+v, want play %v, score %d, moves %d", i+1, tl, plays[i], v.Score, v.Moves)
		}
	}
}
