package storetest

import (
	"slices"
	"testing"
	"time"

	"dsol/internal/store"
)

func testWinnable(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	if ds, err := s.WinnableDeals(ctx); err != nil || len(ds) != 0 {
		t.Fatalf("WinnableDeals of an empty pool: %v, %v", ds, err)
	}
	if n, err := s.AddWinnable(ctx, nil); err != nil || n != 0 {
		t.Fatalf("AddWinnable(nothing): %d, %v", n, err)
	}
	a := store.WinnableDeal{Mode: "D1V", Deal: 26*26*26*26*26*26*26 - 1, Budget: 2000000, Positions: 1234567, Beam: 500, FoundAt: base}
	b := store.WinnableDeal{Mode: "D3N", Deal: 1, Budget: 500, Positions: 101, FoundAt: base.Add(time.Second)}
	c := store.WinnableDeal{Mode: "D1N", Deal: 1, Budget: 500, Positions: 99, FoundAt: base.Add(2 * time.Second)}
	if n, err := s.AddWinnable(ctx, []store.WinnableDeal{a, b}); err != nil || n != 2 {
		t.Fatalf("AddWinnable(a, b): %d, %v; want 2", n, err)
	}
	// The same mode and deal again is left as it was; the same deal number
	// in another mode is another deal.
	again := a
	again.Positions, again.FoundAt = 7, base.Add(time.Hour)
	if n, err := s.AddWinnable(ctx, []store.WinnableDeal{again, c}); err != nil || n != 1 {
		t.Fatalf("AddWinnable(a again, c): %d, %v; want 1", n, err)
	}
	got, err := s.WinnableDeals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.WinnableDeal{a, b, c}
	if len(got) != len(want) {
		t.Fatalf("WinnableDeals: %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Mode != w.Mode || g.Deal != w.Deal || g.Budget != w.Budget || g.Positions != w.Positions || g.Beam != w.Beam || !g.FoundAt.Equal(w.FoundAt) {
			t.Errorf("deal %d: got %+v, want %+v", i, g, w)
		}
	}
}

func testPlayedCodes(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, p := range []string{"alice", "bob"} {
		mustCreatePlayer(t, s, NewPlayer(p))
	}
	for i, g := range []struct{ id, player, code string }{
		{"s1", "alice", "DS1-D1N-AAAAAAB"},
		{"s2", "alice", "DS1-D1N-AAAAAAB"},
		{"s3", "alice", "DS1-D1V-AAAAAAC"},
		{"s4", "bob", "DS1-D1N-AAAAAAD"},
	} {
		solo := NewSolo(g.id, g.player, base.Add(time.Duration(i)*time.Second))
		solo.Code = g.code
		mustCreateGame(t, s, solo)
	}
	race := NewRace("r1", "alice", false, base)
	race.Code = "DS1-D1N-AAAAAAD" // not a solo game: not played solo
	mustCreateGame(t, s, race)
	played, err := s.PlayedCodes(ctx, "alice", []string{"DS1-D1N-AAAAAAB", "DS1-D1N-AAAAAAC", "DS1-D1N-AAAAAAD", "DS1-D1V-AAAAAAC"})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(played)
	if want := []string{"DS1-D1N-AAAAAAB", "DS1-D1V-AAAAAAC"}; !slices.Equal(played, want) {
		t.Fatalf("PlayedCodes(alice): %v, want %v", played, want)
	}
	if played, err := s.PlayedCodes(ctx, "carol", []string{"DS1-D1N-AAAAAAB"}); err != nil || len(played) != 0 {
		t.Fatalf("PlayedCodes(nobody): %v, %v", played, err)
	}
	if played, err := s.PlayedCodes(ctx, "alice", nil); err != nil || len(played) != 0 {
		t.Fatalf("PlayedCodes(no codes): %v, %v", played, err)
	}
}
