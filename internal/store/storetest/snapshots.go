package storetest

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"dsol/internal/store"
)

// testSnapshots: a game has no snapshot until one is put; a later seq
// replaces it and an earlier one does not; a snapshot of a game that does
// not exist is passed over, the others of its batch stored; and it goes
// with its game when the game is deleted (here by the retention sweep, and
// with its player).
func testSnapshots(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	mustCreateGame(t, s, NewSolo("g1", "alice", base))
	if _, err := s.Snapshot(ctx, "g1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a game with no snapshot: %v", err)
	}
	put := func(seq int64, state string) {
		t.Helper()
		err := s.PutSnapshots(ctx, []store.Snapshot{{GameID: "g1", Seq: seq, State: []byte(state), At: base.Add(time.Duration(seq) * time.Second)}})
		if err != nil {
			t.Fatal(err)
		}
	}
	want := func(seq int64, state string) {
		t.Helper()
		got, err := s.Snapshot(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if got.GameID != "g1" || got.Seq != seq || !bytes.Equal(got.State, []byte(state)) || !got.At.Equal(base.Add(time.Duration(seq)*time.Second)) {
			t.Fatalf("snapshot %+v, want seq %d %q", got, seq, state)
		}
	}
	put(128, "a\x00b")
	want(128, "a\x00b")
	put(256, "later")
	want(256, "later")
	put(128, "earlier")
	want(256, "later")
	mustCreateGame(t, s, NewSolo("g0", "alice", base))
	err := s.PutSnapshots(ctx, []store.Snapshot{{GameID: "nope", Seq: 1, State: []byte("x"), At: base},
		{GameID: "g0", Seq: 384, State: []byte("g0"), At: base}})
	if err != nil {
		t.Fatalf("a batch with a snapshot of no game: %v", err)
	}
	if _, err := s.Snapshot(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the snapshot of no game: %v", err)
	}
	if got, err := s.Snapshot(ctx, "g0"); err != nil || got.Seq != 384 || string(got.State) != "g0" {
		t.Fatalf("the other snapshot of the batch: %+v, %v", got, err)
	}
	if err := s.PutSnapshots(ctx, nil); err != nil {
		t.Fatal(err)
	}

	// Deleted with its game: by the sweep of abandoned games, and with the
	// player's own games.
	if _, err := s.DeleteAbandoned(ctx, base.Add(time.Hour), 100); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Snapshot(ctx, "g1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the snapshot of a deleted game: %v", err)
	}
	mustCreateGame(t, s, NewSolo("g2", "alice", base.Add(2*time.Hour)))
	if err := s.PutSnapshots(ctx, []store.Snapshot{{GameID: "g2", Seq: 128, State: []byte("x"), At: base}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeletePlayer(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Snapshot(ctx, "g2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the snapshot of a deleted player's game: %v", err)
	}
}
