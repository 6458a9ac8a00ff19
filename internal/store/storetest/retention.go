package storetest

import (
	"fmt"
	"testing"
	"time"

	"dsol/internal/store"
)

func testDeleteAbandoned(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, p := range []string{"alice", "bob"} {
		mustCreatePlayer(t, s, NewPlayer(p))
	}
	cutoff := base.Add(30 * 24 * time.Hour)
	recent := cutoff.Add(time.Minute)
	at := func(a store.Action, t time.Time) store.Action { a.At = t; return a }

	// Abandoned: a solo game never played, one played long ago (its actions
	// go with it), and a race nobody joined.
	mustCreateGame(t, s, NewSolo("solo-idle", "alice", base))
	mustCreateGame(t, s, NewSolo("solo-played", "bob", base))
	mustAppend(t, s, NewAction("solo-played", 1, 1, "p1"), NewAction("solo-played", 2, 1, "p2"))
	mustCreateGame(t, s, NewRace("race-waiting", "alice", true, base))

	// Kept: the same kinds with a recent activity, and finished games and
	// races in play however old.
	kept := map[string]int{} // id: actions
	mustCreateGame(t, s, NewSolo("solo-new", "alice", recent))
	kept["solo-new"] = 0
	mustCreateGame(t, s, NewSolo("solo-at-cutoff", "alice", cutoff)) // not older than the cutoff
	kept["solo-at-cutoff"] = 0
	mustCreateGame(t, s, NewSolo("solo-active", "alice", base)) // old header, recent last action
	mustAppend(t, s, NewAction("solo-active", 1, 1, ""), at(NewAction("solo-active", 2, 1, ""), recent))
	kept["solo-active"] = 2
	touched := NewSolo("solo-touched", "alice", base) // old actions, header changed since
	mustCreateGame(t, s, touched)
	mustAppend(t, s, NewAction("solo-touched", 1, 1, ""))
	touched.UpdatedAt = recent
	if err := s.UpdateGame(ctx, touched); err != nil {
		t.Fatal(err)
	}
	kept["solo-touched"] = 1
	won := NewSolo("solo-won", "alice", base)
	mustCreateGame(t, s, won)
	mustAppend(t, s, NewAction("solo-won", 1, 1, ""))
	won.Status = "won"
	if err := s.UpdateGame(ctx, won); err != nil {
		t.Fatal(err)
	}
	kept["solo-won"] = 1
	mustCreateGame(t, s, NewRace("race-new", "alice", true, recent))
	kept["race-new"] = 0
	mustCreateGame(t, s, NewRace("race-playing", "alice", false, base))
	if err := s.JoinGame(ctx, "race-playing", "bob", base); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, NewAction("race-playing", 1, 2, ""))
	kept["race-playing"] = 1
	mustCreateGame(t, s, NewRace("race-unplayed", "alice", false, base)) // joined, never played
	if err := s.JoinGame(ctx, "race-unplayed", "bob", base); err != nil {
		t.Fatal(err)
	}
	kept["race-unplayed"] = 0
	over := NewRace("race-over", "alice", false, base)
	mustCreateGame(t, s, over)
	over.Status, over.Seats[1], over.Result = "over", "bob", []byte(`{"winner":1}`)
	if err := s.UpdateGame(ctx, over); err != nil {
		t.Fatal(err)
	}
	kept["race-over"] = 0
	mustCreateGame(t, s, NewRace("race-cancelled", "alice", true, base))
	if err := s.CancelRace(ctx, "race-cancelled", "alice", base); err != nil {
		t.Fatal(err)
	}
	kept["race-cancelled"] = 0
	headers := map[string]store.Game{}
	for id := range kept {
		headers[id] = mustGame(t, s, id)
	}

	// In batches of 2: 2, then the last 1, then nothing.
	for i, want := range []int{2, 1, 0} {
		n, err := s.DeleteAbandoned(ctx, cutoff, 2)
		if err != nil {
			t.Fatalf("DeleteAbandoned, batch %d: %v", i+1, err)
		}
		if n != want {
			t.Fatalf("DeleteAbandoned, batch %d: %d games, want %d", i+1, n, want)
		}
	}
	for _, id := range []string{"solo-idle", "solo-played", "race-waiting"} {
		_, err := s.Game(ctx, id)
		mustBeErr(t, "Game("+id+") after the sweep", err, store.ErrNotFound)
		if as := mustActions(t, s, id, 0); len(as) != 0 {
			t.Errorf("%s: %d actions left after the sweep", id, len(as))
		}
	}
	for id, n := range kept {
		if d := EqualGame(mustGame(t, s, id), headers[id]); d != "" {
			t.Errorf("%s changed by the sweep: %s", id, d)
		}
		if as := mustActions(t, s, id, 0); len(as) != n {
			t.Errorf("%s: %d actions after the sweep, want %d", id, len(as), n)
		}
	}
	if gs, err := s.OpenRaces(ctx, 0); err != nil || len(gs) != 1 || gs[0].ID != "race-new" {
		t.Errorf("open races after the sweep: %v, %v; want race-new only", gs, err)
	}
	// A deleted game takes no more actions, as a game that never existed.
	err := s.AppendActions(ctx, []store.Action{NewAction("solo-played", 3, 1, "")})
	mustBeErr(t, "append to a deleted game", err, store.ErrNotFound)

	t.Run("NoLimit", func(t *testing.T) {
		for i := range 3 {
			mustCreateGame(t, s, NewSolo(fmt.Sprintf("old%d", i), "bob", base))
		}
		n, err := s.DeleteAbandoned(ctx, cutoff, 0)
		if err != nil || n != 3 {
			t.Fatalf("DeleteAbandoned without a limit: %d, %v; want 3", n, err)
		}
	})
	t.Run("LaterCutoff", func(t *testing.T) {
		// A cutoff past every activity takes every unfinished game left, and
		// still no finished game and no race in play.
		n, err := s.DeleteAbandoned(ctx, recent.Add(time.Hour), 0)
		if err != nil || n != 5 { // solo-new, solo-at-cutoff, solo-active, solo-touched, race-new
			t.Fatalf("DeleteAbandoned after every activity: %d, %v; want 5", n, err)
		}
		for _, id := range []string{"solo-won", "race-playing", "race-unplayed", "race-over", "race-cancelled"} {
			mustGame(t, s, id)
		}
	})
}
