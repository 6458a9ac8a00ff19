package storetest

import (
	"crypto/sha256"
	"slices"
	"testing"
	"time"

	"dsol/internal/store"
)

func testPlayers(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	alice, bob := NewPlayer("alice"), NewPlayer("bob")
	mustCreatePlayer(t, s, alice)
	mustCreatePlayer(t, s, bob)

	t.Run("ByID", func(t *testing.T) {
		got, err := s.Player(ctx, "alice")
		if err != nil {
			t.Fatal(err)
		}
		want := alice
		want.TokenHash = nil // Player finds no token
		if d := EqualPlayer(got, want); d != "" {
			t.Fatal(d)
		}
		if got.CreatedAt.Location() != time.UTC {
			t.Errorf("CreatedAt in %v, want UTC", got.CreatedAt.Location())
		}
	})
	t.Run("ByTokenHash", func(t *testing.T) {
		got, err := s.PlayerByTokenHash(ctx, bob.TokenHash)
		if err != nil {
			t.Fatal(err)
		}
		if d := EqualPlayer(got, bob); d != "" {
			t.Fatal(d)
		}
	})
	t.Run("Rename", func(t *testing.T) {
		if err := s.RenamePlayer(ctx, "alice", "Alice ♠"); err != nil {
			t.Fatal(err)
		}
		got, err := s.Player(ctx, "alice")
		if err != nil {
			t.Fatal(err)
		}
		if got.Name != "Alice ♠" {
			t.Fatalf("name %q after rename", got.Name)
		}
	})
	t.Run("NotFound", func(t *testing.T) {
		_, err := s.Player(ctx, "carol")
		mustBeErr(t, "Player(carol)", err, store.ErrNotFound)
		h := sha256.Sum256([]byte("unknown"))
		_, err = s.PlayerByTokenHash(ctx, h[:])
		mustBeErr(t, "PlayerByTokenHash(unknown)", err, store.ErrNotFound)
		mustBeErr(t, "RenamePlayer(carol)", s.RenamePlayer(ctx, "carol", "x"), store.ErrNotFound)
	})
	t.Run("DuplicateID", func(t *testing.T) {
		p := NewPlayer("alice2")
		p.ID = "alice"
		mustBeErr(t, "CreatePlayer(same id)", s.CreatePlayer(ctx, p), store.ErrConflict)
	})
	t.Run("DuplicateTokenHash", func(t *testing.T) {
		p := NewPlayer("carol")
		p.TokenHash = alice.TokenHash
		mustBeErr(t, "CreatePlayer(same token hash)", s.CreatePlayer(ctx, p), store.ErrConflict)
	})
	t.Run("Ping", func(t *testing.T) {
		if err := s.Ping(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// testDeletePlayer: deleting a player removes them, their tokens, code,
// solo games and races nobody else played, and leaves the races played
// against someone whole, with the seat anonymised.
func testDeletePlayer(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	alice, bob := NewPlayer("alice"), NewPlayer("bob")
	mustCreatePlayer(t, s, alice)
	mustCreatePlayer(t, s, bob)
	mustPutLinkCode(t, s, store.LinkCode{PlayerID: "alice", Hash: hashOf("code"), Expires: base.Add(time.Minute), CreatedAt: base})
	mustCreateGame(t, s, NewSolo("solo", "alice", base))
	mustCreateGame(t, s, NewSolo("bob-solo", "bob", base))
	mustCreateGame(t, s, NewRace("alone", "alice", true, base))
	played := NewRace("played", "alice", false, base)
	played.Seats[1], played.Status = "bob", "over"
	mustCreateGame(t, s, played)
	hosted := NewRace("hosted", "bob", false, base)
	hosted.Seats[1], hosted.Status = "alice", "playing"
	mustCreateGame(t, s, hosted)
	offered := NewRace("offered", "alice", false, base)
	offered.Seats[1] = "bob" // a rematch not yet accepted
	mustCreateGame(t, s, offered)
	for _, g := range []string{"solo", "bob-solo", "alone", "played", "hosted", "offered"} {
		mustAppend(t, s, NewAction(g, 1, 1, ""), NewAction(g, 2, 1, ""))
	}

	kept, err := s.DeletePlayer(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(kept, []string{"hosted", "played"}) {
		t.Fatalf("kept races %v, want [hosted played]", kept)
	}
	_, err = s.Player(ctx, "alice")
	mustBeErr(t, "Player(alice) after DeletePlayer", err, store.ErrNotFound)
	_, err = s.PlayerByTokenHash(ctx, alice.TokenHash)
	mustBeErr(t, "alice's token after DeletePlayer", err, store.ErrNotFound)
	_, err = s.LinkCode(ctx, "alice")
	mustBeErr(t, "alice's code after DeletePlayer", err, store.ErrNotFound)
	for _, g := range []string{"solo", "alone", "offered"} {
		_, err := s.Game(ctx, g)
		mustBeErr(t, "Game("+g+") after DeletePlayer", err, store.ErrNotFound)
		if as := mustActions(t, s, g, 0); len(as) != 0 {
			t.Fatalf("%d actions of the deleted game %s", len(as), g)
		}
	}
	if g := mustGame(t, s, "played"); g.Seats != [2]string{store.DeletedPlayerID, "bob"} || g.Status != "over" {
		t.Fatalf("the race alice created: %+v", g)
	}
	if g := mustGame(t, s, "hosted"); g.Seats != [2]string{"bob", store.DeletedPlayerID} {
		t.Fatalf("the race alice joined: %+v", g)
	}
	for _, g := range []string{"played", "hosted", "bob-solo"} {
		if as := mustActions(t, s, g, 0); len(as) != 2 {
			t.Fatalf("%d actions of %s after alice left, want 2", len(as), g)
		}
	}
	if gs := mustList(t, s, store.GameQuery{Player: "bob", Limit: 10}); len(gs) != 3 {
		t.Fatalf("bob's games after alice left: %d, want 3", len(gs))
	}
	p, err := s.Player(ctx, store.DeletedPlayerID)
	if err != nil || p.Name == "" {
		t.Fatalf("the deleted player's row: %+v, %v", p, err)
	}
	if p, err := s.PlayerByTokenHash(ctx, bob.TokenHash); err != nil || p.ID != "bob" {
		t.Fatalf("bob after alice left: %+v, %v", p, err)
	}
	_, err = s.DeletePlayer(ctx, "alice")
	mustBeErr(t, "DeletePlayer again", err, store.ErrNotFound)
}
