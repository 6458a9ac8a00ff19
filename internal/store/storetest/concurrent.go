package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"dsol/internal/store"
)

// testStatsConcurrent: a player's games written at the same time by several
// writers (as the tables of several games, or of several nodes, write them),
// first plays, undos and wins among them, while the player's statistics are
// reset and read: once all is written, Stats equals the recomputation from
// the games and actions read back, whatever the interleaving.
func testStatsConcurrent(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	const (
		rounds  = 3
		writers = 4
		games   = 24
	)
	for round := range rounds {
		p := fmt.Sprintf("con%d", round)
		mustCreatePlayer(t, s, NewPlayer(p))
		start := base.Add(time.Duration(round) * 100 * time.Hour)
		all := make([]store.Game, games)
		for i := range all {
			g := NewSolo(fmt.Sprintf("%s-g%02d", p, i), p, start.Add(time.Duration(i)*time.Minute))
			g.Code = SoloCode(store.SoloModes[2*(i%2)]) // draw 1 and draw 3 Normal, interleaved
			mustCreateGame(t, s, g)
			all[i] = g
		}
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			tallies = map[string]map[int64]*store.Tally{}
			errs    = make(chan error, writers+2)
			since   time.Time
			done    = make(chan struct{})
		)
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- writeGames(s, rand.New(rand.NewPCG(uint64(round), uint64(w))), all, w, writers, &mu, tallies)
			}()
		}
		ctx := ctxOf(t)
		go func() { // resets back and forth among the games' starts
			r := rand.New(rand.NewPCG(uint64(round), 99))
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				at := start.Add(time.Duration(r.IntN(games+4)-2) * time.Minute).Add(time.Duration(r.IntN(3)-1) * time.Microsecond)
				if err := s.ResetStats(ctx, p, at); err != nil {
					errs <- fmt.Errorf("reset: %w", err)
					return
				}
				since = at // read only after done: the last reset is the one that holds
				if _, err := s.Stats(ctx, p); err != nil {
					errs <- fmt.Errorf("reading the statistics while writing: %w", err)
					return
				}
				time.Sleep(time.Duration(r.IntN(2000)) * time.Microsecond)
			}
		}()
		wg.Wait()
		close(done)
		var failed []error
		for range writers + 1 {
			if err := <-errs; err != nil {
				failed = append(failed, err)
			}
		}
		if err := errors.Join(failed...); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		got := mustStats(t, s, p)
		want := RecomputeStats(t, s, p, since, tallies)
		if d := diffStats(got, want); d != "" {
			t.Fatalf("round %d: Stats after concurrent writes and resets differs from the recomputation:\n%s", round, d)
		}
	}
}

// writeGames plays the games i of all with i%n == w: batches of one to three
// actions of one or two of them at a time, a win now and then (taken back
// sometimes), until every one has its actions.
func writeGames(s store.Store, r *rand.Rand, all []store.Game, w, n int, mu *sync.Mutex, tallies map[string]map[int64]*store.Tally) error {
	type state struct {
		g     store.Game
		seq   int64
		last  time.Time
		play  time.Duration
		score int
		left  int
	}
	var mine []*state
	for i := w; i < len(all); i += n {
		mine = append(mine, &state{g: all[i], last: all[i].CreatedAt, left: 3 + r.IntN(10)})
	}
	ctx := context.Background()
	for {
		var open []*state
		for _, g := range mine {
			if g.left > 0 {
				open = append(open, g)
			}
		}
		if len(open) == 0 {
			return nil
		}
		r.Shuffle(len(open), func(i, j int) { open[i], open[j] = open[j], open[i] })
		var batch []store.Action
		for _, g := range open[:min(len(open), 1+r.IntN(2))] {
			for range min(g.left, 1+r.IntN(3)) {
				at := g.last.Add(time.Duration(r.IntN(90_000)) * time.Millisecond) // now and then over the cap
				if g.seq > 0 {
					g.play = store.AddGap(g.play, g.last, at)
				}
				g.seq++
				g.last, g.left = at, g.left-1
				g.score += r.IntN(41) - 10
				a := NewAction(g.g.ID, g.seq, 1, "")
				a.At = at
				if r.IntN(10) == 0 {
					a.Action = []byte(`{"type":"undo"}`)
				}
				a.Tally = &store.Tally{Score: g.score, Moves: int(g.seq), Play: g.play}
				mu.Lock()
				if tallies[g.g.ID] == nil {
					tallies[g.g.ID] = map[int64]*store.Tally{}
				}
				tallies[g.g.ID][g.seq] = a.Tally
				mu.Unlock()
				batch = append(batch, a)
			}
		}
		if err := s.AppendActions(ctx, batch); err != nil {
			return fmt.Errorf("AppendActions: %w", err)
		}
		for _, g := range open {
			switch {
			case g.left == 0 && r.IntN(2) == 0:
				g.g.Status = "won"
			case g.g.Status == "won" && r.IntN(4) == 0:
				g.g.Status = "playing"
			default:
				continue
			}
			g.g.UpdatedAt = g.last
			if err := s.UpdateGame(ctx, g.g); err != nil {
				return fmt.Errorf("UpdateGame(%s): %w", g.g.ID, err)
			}
		}
	}
}
