package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"dsol/internal/store"
)

func testGames(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	mustCreatePlayer(t, s, NewPlayer("bob"))
	solo := NewSolo("g-solo", "alice", base)
	race := NewRace("g-race", "alice", true, base.Add(time.Second))
	mustCreateGame(t, s, solo)
	mustCreateGame(t, s, race)

	t.Run("Get", func(t *testing.T) {
		for _, want := range []store.Game{solo, race} {
			if d := EqualGame(mustGame(t, s, want.ID), want); d != "" {
				t.Errorf("%s: %s", want.ID, d)
			}
		}
	})
	t.Run("NilOptions", func(t *testing.T) {
		g := NewSolo("g-bare", "bob", base)
		g.Options = nil
		mustCreateGame(t, s, g)
		if d := EqualGame(mustGame(t, s, g.ID), g); d != "" {
			t.Fatal(d)
		}
	})
	t.Run("Update", func(t *testing.T) {
		g := race
		g.Status = "over"
		g.Seats[1] = "bob"
		g.Public = false
		g.Result = []byte(`{"winner":1,"reason":"out","counts":[104,37]}`)
		g.UpdatedAt = base.Add(time.Hour)
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if d := EqualGame(mustGame(t, s, g.ID), g); d != "" {
			t.Fatal(d)
		}
	})
	t.Run("UpdateKeepsImmutableFields", func(t *testing.T) {
		g := solo
		g.Status = "won"
		g.Code = "DS1-D3V-ZZZZZZZ" // not an updatable field
		g.UpdatedAt = base.Add(time.Minute)
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		want := solo
		want.Status, want.UpdatedAt = "won", g.UpdatedAt
		if d := EqualGame(mustGame(t, s, g.ID), want); d != "" {
			t.Fatal(d)
		}
	})
	t.Run("NotFound", func(t *testing.T) {
		_, err := s.Game(ctx, "nope")
		mustBeErr(t, "Game(nope)", err, store.ErrNotFound)
		mustBeErr(t, "UpdateGame(nope)", s.UpdateGame(ctx, NewSolo("nope", "alice", base)), store.ErrNotFound)
		mustBeErr(t, "JoinGame(nope)", s.JoinGame(ctx, "nope", "bob", base), store.ErrNotFound)
	})
	t.Run("UnknownPlayer", func(t *testing.T) {
		err := s.CreateGame(ctx, NewSolo("g-ghost", "ghost", base))
		mustBeErr(t, "CreateGame(unknown player)", err, store.ErrNotFound)
	})
	t.Run("DuplicateID", func(t *testing.T) {
		mustBeErr(t, "CreateGame(same id)", s.CreateGame(ctx, NewSolo("g-solo", "bob", base)), store.ErrConflict)
	})
}

func testJoinRace(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, p := range []string{"alice", "bob", "carol"} {
		mustCreatePlayer(t, s, NewPlayer(p))
	}

	t.Run("Join", func(t *testing.T) {
		mustCreateGame(t, s, NewRace("r1", "alice", true, base))
		at := base.Add(time.Minute)
		if err := s.JoinGame(ctx, "r1", "bob", at); err != nil {
			t.Fatal(err)
		}
		g := mustGame(t, s, "r1")
		if g.Seats != [2]string{"alice", "bob"} || g.Status != "playing" || !g.UpdatedAt.Equal(at) {
			t.Fatalf("after join: seats %q, status %q, updated %v", g.Seats, g.Status, g.UpdatedAt)
		}
		mustBeErr(t, "third player", s.JoinGame(ctx, "r1", "carol", at), store.ErrConflict)
	})
	t.Run("SoloIsNotJoinable", func(t *testing.T) {
		mustCreateGame(t, s, NewSolo("s1", "alice", base))
		mustBeErr(t, "join a solo game", s.JoinGame(ctx, "s1", "bob", base), store.ErrConflict)
	})
	t.Run("UnknownPlayer", func(t *testing.T) {
		mustCreateGame(t, s, NewRace("r2", "alice", true, base))
		mustBeErr(t, "join as unknown player", s.JoinGame(ctx, "r2", "ghost", base), store.ErrNotFound)
		if g := mustGame(t, s, "r2"); g.Seats[1] != "" || g.Status != "waiting" {
			t.Fatalf("failed join changed the race: %+v", g)
		}
	})
	t.Run("ConcurrentJoins", func(t *testing.T) {
		const rounds = 10
		for i := range rounds {
			id := fmt.Sprintf("rc%d", i)
			mustCreateGame(t, s, NewRace(id, "alice", true, base))
			var wg sync.WaitGroup
			errs := make([]error, 2)
			start := make(chan struct{})
			for j, p := range []string{"bob", "carol"} {
				wg.Go(func() {
					<-start
					errs[j] = s.JoinGame(ctx, id, p, base.Add(time.Second))
				})
			}
			close(start)
			wg.Wait()
			wins := 0
			for _, err := range errs {
				switch {
				case err == nil:
					wins++
				case !errors.Is(err, store.ErrConflict):
					t.Fatalf("%s: loser got %v, want ErrConflict", id, err)
				}
			}
			if wins != 1 {
				t.Fatalf("%s: %d joins won (errors %v), want exactly 1", id, wins, errs)
			}
			g := mustGame(t, s, id)
			if g.Seats[1] != "bob" && g.Seats[1] != "carol" {
				t.Fatalf("%s: seat 2 is %q", id, g.Seats[1])
			}
		}
	})
}

func testListGames(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	for _, p := range []string{"alice", "bob", "carol"} {
		mustCreatePlayer(t, s, NewPlayer(p))
	}
	// alice: a1 (oldest, won), a2 (playing), race r3 joined by bob (playing), a4 (newest, playing).
	a1 := NewSolo("a1", "alice", base)
	a1.Status = "won"
	mustCreateGame(t, s, a1)
	mustCreateGame(t, s, NewSolo("a2", "alice", base.Add(1*time.Second)))
	mustCreateGame(t, s, NewRace("r3", "alice", false, base.Add(2*time.Second)))
	if err := s.JoinGame(ctxOf(t), "r3", "bob", base.Add(3*time.Second)); err != nil {
		t.Fatal(err)
	}
	mustCreateGame(t, s, NewSolo("a4", "alice", base.Add(3*time.Second)))
	mustCreateGame(t, s, NewSolo("b5", "bob", base.Add(4*time.Second)))
	// Same creation time: ties are broken by id, descending.
	mustCreateGame(t, s, NewSolo("c6", "carol", base))
	mustCreateGame(t, s, NewSolo("c7", "carol", base))

	ids := func(gs []store.Game) []string {
		out := make([]string, len(gs))
		for i, g := range gs {
			out[i] = g.ID
		}
		return out
	}
	after := func(id string, at time.Time) store.GameKey { return store.GameKey{CreatedAt: at, ID: id} }
	tests := []struct {
		name string
		q    store.GameQuery
		want []string
	}{
		{"AllNewestFirst", store.GameQuery{Player: "alice", Limit: 10}, []string{"a4", "r3", "a2", "a1"}},
		{"ByStatus", store.GameQuery{Player: "alice", Status: "playing", Limit: 10}, []string{"a4", "r3", "a2"}},
		{"Won", store.GameQuery{Player: "alice", Status: "won", Limit: 10}, []string{"a1"}},
		{"Limit", store.GameQuery{Player: "alice", Limit: 2}, []string{"a4", "r3"}},
		{"NoLimit", store.GameQuery{Player: "alice"}, []string{"a4", "r3", "a2", "a1"}},
		{"SeatTwo", store.GameQuery{Player: "bob", Limit: 10}, []string{"b5", "r3"}},
		{"SeatTwoByStatus", store.GameQuery{Player: "bob", Status: "playing", Limit: 10}, []string{"b5", "r3"}},
		{"TieBrokenByID", store.GameQuery{Player: "carol", Limit: 10}, []string{"c7", "c6"}},
		{"NoMatch", store.GameQuery{Player: "bob", Status: "won", Limit: 10}, []string{}},
		{"UnknownPlayer", store.GameQuery{Player: "dave", Limit: 10}, []string{}},
		{"ByKind", store.GameQuery{Player: "alice", Kind: "solo", Limit: 10}, []string{"a4", "a2", "a1"}},
		{"ByKindAndStatus", store.GameQuery{Player: "alice", Kind: "race", Status: "playing"}, []string{"r3"}},
		{"NextPage", store.GameQuery{Player: "alice", Limit: 2, After: after("r3", base.Add(2*time.Second))}, []string{"a2", "a1"}},
		{"NextPageOfAKind", store.GameQuery{Player: "alice", Kind: "solo", After: after("a4", base.Add(3*time.Second))}, []string{"a2", "a1"}},
		{"NextPageWithinATie", store.GameQuery{Player: "carol", After: after("c7", base)}, []string{"c6"}},
		{"LastPage", store.GameQuery{Player: "alice", After: after("a1", base)}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gs := mustList(t, s, tt.q)
			if gs == nil {
				t.Fatal("nil slice, want an empty one")
			}
			if got := fmt.Sprint(ids(gs)); got != fmt.Sprint(tt.want) {
				t.Fatalf("got %s, want %v", got, tt.want)
			}
		})
	}
	t.Run("FullHeaders", func(t *testing.T) {
		gs := mustList(t, s, store.GameQuery{Player: "alice", Status: "won", Limit: 1})
		if len(gs) != 1 {
			t.Fatalf("got %d games", len(gs))
		}
		if d := EqualGame(gs[0], a1); d != "" {
			t.Fatal(d)
		}
	})
}

func testCancelRace(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, p := range []string{"alice", "bob", "carol"} {
		mustCreatePlayer(t, s, NewPlayer(p))
	}
	mustCreateGame(t, s, NewRace("r1", "alice", true, base))
	mustCreateGame(t, s, NewRace("r2", "alice", true, base))
	mustCreateGame(t, s, NewSolo("solo", "alice", base))
	if err := s.JoinGame(ctx, "r2", "bob", base); err != nil {
		t.Fatal(err)
	}
	mustBeErr(t, "CancelRace(not the creator)", s.CancelRace(ctx, "r1", "bob", base), store.ErrConflict)
	mustBeErr(t, "CancelRace(joined)", s.CancelRace(ctx, "r2", "alice", base), store.ErrConflict)
	mustBeErr(t, "CancelRace(solo)", s.CancelRace(ctx, "solo", "alice", base), store.ErrConflict)
	mustBeErr(t, "CancelRace(nope)", s.CancelRace(ctx, "nope", "alice", base), store.ErrNotFound)
	at := base.Add(time.Minute)
	if err := s.CancelRace(ctx, "r1", "alice", at); err != nil {
		t.Fatal(err)
	}
	want := NewRace("r1", "alice", false, base)
	want.Status, want.UpdatedAt = "over", at
	if d := EqualGame(mustGame(t, s, "r1"), want); d != "" {
		t.Fatal(d)
	}
	mustBeErr(t, "CancelRace(again)", s.CancelRace(ctx, "r1", "alice", at), store.ErrConflict)
	mustBeErr(t, "JoinGame(cancelled)", s.JoinGame(ctx, "r1", "carol", at), store.ErrConflict)
	if gs, err := s.OpenRaces(ctx, 10); err != nil || len(gs) != 0 {
		t.Fatalf("OpenRaces = %v, %v; want none", gs, err)
	}
}

func testOpenRaces(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, p := range []string{"alice", "bob"} {
		mustCreatePlayer(t, s, NewPlayer(p))
	}
	mustCreateGame(t, s, NewRace("o3", "alice", true, base.Add(3*time.Second)))
	mustCreateGame(t, s, NewRace("o1", "alice", true, base.Add(1*time.Second)))
	mustCreateGame(t, s, NewRace("private", "alice", false, base))
	mustCreateGame(t, s, NewRace("joined", "alice", true, base))
	mustCreateGame(t, s, NewRace("o2", "bob", true, base.Add(2*time.Second)))
	mustCreateGame(t, s, NewSolo("solo", "alice", base))
	if err := s.JoinGame(ctx, "joined", "bob", base); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		limit int
		want  []string
	}{
		{"OldestFirst", 10, []string{"o1", "o2", "o3"}},
		{"Limit", 2, []string{"o1", "o2"}},
		{"NoLimit", 0, []string{"o1", "o2", "o3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gs, err := s.OpenRaces(ctx, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, g := range gs {
				got = append(got, g.ID)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
	t.Run("ClosedWhenUnlisted", func(t *testing.T) {
		g := mustGame(t, s, "o1")
		g.Public = false
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		gs, err := s.OpenRaces(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(gs) != 2 || gs[0].ID != "o2" {
			t.Fatalf("got %d races, first %v", len(gs), gs)
		}
		if d := EqualGame(gs[0], NewRace("o2", "bob", true, base.Add(2*time.Second))); d != "" {
			t.Fatal(d)
		}
	})
}

// testHints: AddHint counts one game's hints one by one (concurrent calls
// too), changes nothing else of the header, and the count is read back by
// Game and ListGames; UpdateGame leaves it alone.
func testHints(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	g, other := twoSolos(t, s, "g-hints")
	for want := 1; want <= 3; want++ {
		n, err := s.AddHint(ctx, g.ID)
		if err != nil || n != want {
			t.Fatalf("AddHint #%d: %d, %v", want, n, err)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := s.AddHint(ctx, g.ID); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	g.Hints = 11
	if d := EqualGame(mustGame(t, s, g.ID), g); d != "" {
		t.Fatalf("after 11 hints: %s", d)
	}
	if d := EqualGame(mustGame(t, s, other.ID), other); d != "" {
		t.Fatalf("the other game: %s", d)
	}
	up := g
	up.Status, up.UpdatedAt, up.Hints = "won", base.Add(time.Hour), 0
	if err := s.UpdateGame(ctx, up); err != nil {
		t.Fatal(err)
	}
	up.Hints = 11
	if d := EqualGame(mustGame(t, s, g.ID), up); d != "" {
		t.Fatalf("after UpdateGame: %s", d)
	}
	if gs := mustList(t, s, store.GameQuery{Player: "alice", Status: "won", Limit: 10}); len(gs) != 1 || gs[0].Hints != 11 {
		t.Fatalf("ListGames: %+v", gs)
	}
	_, err := s.AddHint(ctx, "nope")
	mustBeErr(t, "AddHint(nope)", err, store.ErrNotFound)
}

// testChecked: SetChecked sets a game's flag (again is no error), changes
// nothing else of the header, and the flag is read back by Game and
// ListGames; UpdateGame leaves it alone.
func testChecked(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	g, other := twoSolos(t, s, "g-checked")
	for range 2 {
		if err := s.SetChecked(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
	}
	g.Checked = true
	if d := EqualGame(mustGame(t, s, g.ID), g); d != "" {
		t.Fatalf("after SetChecked: %s", d)
	}
	if d := EqualGame(mustGame(t, s, other.ID), other); d != "" {
		t.Fatalf("the other game: %s", d)
	}
	up := g
	up.Status, up.UpdatedAt, up.Checked = "won", base.Add(time.Hour), false
	if err := s.UpdateGame(ctx, up); err != nil {
		t.Fatal(err)
	}
	up.Checked = true
	if d := EqualGame(mustGame(t, s, g.ID), up); d != "" {
		t.Fatalf("after UpdateGame: %s", d)
	}
	if gs := mustList(t, s, store.GameQuery{Player: "alice", Status: "won", Limit: 10}); len(gs) != 1 || !gs[0].Checked {
		t.Fatalf("ListGames: %+v", gs)
	}
	mustBeErr(t, "SetChecked(nope)", s.SetChecked(ctx, "nope"), store.ErrNotFound)
}

// twoSolos creates alice and two solo games of hers, id and g-other a
// second later, and checks the first reads back as created.
func twoSolos(t *testing.T, s store.Store, id string) (g, other store.Game) {
	t.Helper()
	mustCreatePlayer(t, s, NewPlayer("alice"))
	g, other = NewSolo(id, "alice", base), NewSolo("g-other", "alice", base.Add(time.Second))
	mustCreateGame(t, s, g)
	mustCreateGame(t, s, other)
	if d := EqualGame(mustGame(t, s, g.ID), g); d != "" {
		t.Fatalf("a new game: %s", d)
	}
	return g, other
}
