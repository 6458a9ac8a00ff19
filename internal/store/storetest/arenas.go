package storetest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"dsol/internal/store"
)

// testArenas: an arena is created and read back with its count of
// players; the list holds those that end after now (and those ended
// lately); a creator's arenas are counted; a player joins once, is paused
// and resumed by joining again; its races are created with their arena
// and read back with each seat's first action; and a deleted player leaves
// the arena (their races stay, passed to the deleted player).
func testArenas(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, id := range []string{"alice", "bob", "carol"} {
		mustCreatePlayer(t, s, NewPlayer(id))
	}
	a := store.Arena{ID: "a1", Creator: "alice", Minutes: 30, Draw: 3, Single: true,
		StartsAt: base.Add(time.Minute), EndsAt: base.Add(31 * time.Minute), CreatedAt: base}
	if err := s.CreateArena(ctx, a); err != nil {
		t.Fatal(err)
	}
	mustBeErr(t, "CreateArena twice", s.CreateArena(ctx, a), store.ErrConflict)
	b := store.Arena{ID: "a2", Creator: "alice", Minutes: 5, Draw: 1, StartsAt: base, EndsAt: base.Add(5 * time.Minute), CreatedAt: base.Add(time.Second)}
	if err := s.CreateArena(ctx, b); err != nil {
		t.Fatal(err)
	}
	got, err := s.Arena(ctx, "a1")
	if err != nil || !reflect.DeepEqual(got, a) {
		t.Fatalf("Arena = %+v, %v; want %+v", got, err, a)
	}
	if _, err := s.Arena(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Arena(nope): %v", err)
	}
	list := func(now time.Time, since time.Duration) []string {
		t.Helper()
		as, err := s.ListArenas(ctx, now, since, 10)
		if err != nil {
			t.Fatal(err)
		}
		ids := []string{}
		for _, a := range as {
			ids = append(ids, a.ID)
		}
		return ids
	}
	if got := list(base, 0); !reflect.DeepEqual(got, []string{"a2", "a1"}) {
		t.Fatalf("ListArenas at the start = %v", got)
	}
	if got := list(base.Add(10*time.Minute), 0); !reflect.DeepEqual(got, []string{"a1"}) {
		t.Fatalf("ListArenas once a2 ended = %v", got)
	}
	if got := list(base.Add(10*time.Minute), 6*time.Minute); !reflect.DeepEqual(got, []string{"a2", "a1"}) {
		t.Fatalf("ListArenas with those ended lately = %v", got)
	}
	if n, err := s.ArenasCreated(ctx, "alice", base.Add(time.Second)); err != nil || n != 1 {
		t.Fatalf("ArenasCreated = %d, %v; want 1", n, err)
	}

	// Joining, pausing, coming back.
	for i, p := range []string{"bob", "carol", "bob"} {
		if err := s.JoinArena(ctx, "a1", p, base.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	mustBeErr(t, "JoinArena(nope)", s.JoinArena(ctx, "nope", "bob", base), store.ErrNotFound)
	mustBeErr(t, "PauseArena(not joined)", s.PauseArena(ctx, "a1", "alice", true), store.ErrNotFound)
	if err := s.PauseArena(ctx, "a1", "carol", true); err != nil {
		t.Fatal(err)
	}
	players := func() []store.ArenaPlayer {
		t.Helper()
		ps, err := s.ArenaPlayers(ctx, "a1")
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	want := []store.ArenaPlayer{{ID: "bob", Name: "name of bob", JoinedAt: base}, {ID: "carol", Name: "name of carol", JoinedAt: base.Add(time.Second), Paused: true}}
	if got := players(); !reflect.DeepEqual(got, want) {
		t.Fatalf("ArenaPlayers = %+v; want %+v", got, want)
	}
	if err := s.JoinArena(ctx, "a1", "carol", base.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	want[1].Paused = false
	if got := players(); !reflect.DeepEqual(got, want) {
		t.Fatalf("ArenaPlayers after carol came back = %+v; want %+v", got, want)
	}
	if got, _ := s.Arena(ctx, "a1"); got.Players != 2 {
		t.Fatalf("Arena's players = %d, want 2", got.Players)
	}

	// Its races, with each seat's first action.
	r1 := NewRace("r1", "bob", false, base.Add(2*time.Minute))
	r1.Seats[1], r1.Status = "carol", "playing"
	if err := s.CreateArenaRace(ctx, "a1", 1, r1); err != nil {
		t.Fatal(err)
	}
	r2 := NewRace("r2", "carol", false, base.Add(3*time.Minute))
	r2.Seats[1], r2.Status = "bob", "playing"
	if err := s.CreateArenaRace(ctx, "a1", 2, r2); err != nil {
		t.Fatal(err)
	}
	mustBeErr(t, "CreateArenaRace(no arena)", s.CreateArenaRace(ctx, "nope", 1, NewRace("r3", "bob", false, base)), store.ErrNotFound)
	if _, err := s.Game(ctx, "r3"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the race of no arena was kept: %v", err)
	}
	acts := []store.Action{NewAction("r1", 1, 2, ""), NewAction("r1", 2, 2, ""), NewAction("r1", 3, 1, "")}
	if err := s.AppendActions(ctx, acts); err != nil {
		t.Fatal(err)
	}
	r1.Status, r1.Result, r1.UpdatedAt = "over", []byte(`{"winner":1}`), base.Add(4*time.Minute)
	if err := s.UpdateGame(ctx, r1); err != nil {
		t.Fatal(err)
	}
	races, err := s.ArenaRaces(ctx, "a1", "")
	if err != nil {
		t.Fatal(err)
	}
	wantRaces := []store.ArenaRace{
		{N: 1, GameID: "r1", Seats: [2]string{"bob", "carol"}, Status: "over", Result: []byte(`{"winner":1}`), CreatedAt: r1.CreatedAt, EndedAt: r1.UpdatedAt,
			First: [2]time.Time{acts[2].At, acts[0].At}},
		{N: 2, GameID: "r2", Seats: [2]string{"carol", "bob"}, Status: "playing", CreatedAt: r2.CreatedAt},
	}
	if !reflect.DeepEqual(races, wantRaces) {
		t.Fatalf("ArenaRaces = %+v\nwant %+v", races, wantRaces)
	}
	if one, err := s.ArenaRaces(ctx, "a1", "r2"); err != nil || !reflect.DeepEqual(one, wantRaces[1:]) {
		t.Fatalf("ArenaRaces(r2) = %+v, %v", one, err)
	}
	r3 := NewRace("r3", "bob", false, base)
	mustBeErr(t, "CreateArenaRace(a number taken)", s.CreateArenaRace(ctx, "a1", 2, r3), store.ErrConflict)
	if none, err := s.ArenaRaces(ctx, "a2", "r1"); err != nil || len(none) != 0 {
		t.Fatalf("ArenaRaces(a2, r1) = %+v, %v; want none", none, err)
	}

	// A deleted player leaves the arena; their races stay.
	if _, err := s.DeletePlayer(ctx, "carol"); err != nil {
		t.Fatal(err)
	}
	if got := players(); len(got) != 1 || got[0].ID != "bob" {
		t.Fatalf("ArenaPlayers after carol's deletion = %+v", got)
	}
	if races, err := s.ArenaRaces(ctx, "a1", ""); err != nil || len(races) != 2 || races[0].Seats[1] != store.DeletedPlayerID {
		t.Fatalf("ArenaRaces after carol's deletion = %+v, %v", races, err)
	}
	if _, err := s.DeletePlayer(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Arena(ctx, "a1"); err != nil || got.Creator != "" {
		t.Fatalf("the arena of a deleted creator = %+v, %v", got, err)
	}
}
