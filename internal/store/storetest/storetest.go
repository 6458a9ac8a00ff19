// Package storetest is the contract suite of store.Store: every adapter runs
// Run against a fresh, empty database and must pass all of it.
package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"dsol/internal/rating"
	"dsol/internal/store"
)

// Run runs the contract suite. open returns a Store over a fresh, empty
// database; the suite closes it (the adapter's cleanup may close it again).
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Run("Players", func(t *testing.T) { testPlayers(t, open(t)) })
	t.Run("Games", func(t *testing.T) { testGames(t, open(t)) })
	t.Run("JoinRace", func(t *testing.T) { testJoinRace(t, open(t)) })
	t.Run("CancelRace", func(t *testing.T) { testCancelRace(t, open(t)) })
	t.Run("ListGames", func(t *testing.T) { testListGames(t, open(t)) })
	t.Run("OpenRaces", func(t *testing.T) { testOpenRaces(t, open(t)) })
	t.Run("Actions", func(t *testing.T) { testActions(t, open(t)) })
	t.Run("AppendAtomic", func(t *testing.T) { testAppendAtomic(t, open(t)) })
	t.Run("ClientID", func(t *testing.T) { testClientID(t, open(t)) })
	t.Run("ConcurrentAppends", func(t *testing.T) { testConcurrentAppends(t, open(t)) })
	t.Run("LargeBatch", func(t *testing.T) { testLargeBatch(t, open(t)) })
	t.Run("Committer", func(t *testing.T) { testCommitter(t, open(t)) })
	t.Run("DeleteAbandoned", func(t *testing.T) { testDeleteAbandoned(t, open(t)) })
	t.Run("Hints", func(t *testing.T) { testHints(t, open(t)) })
	t.Run("Checked", func(t *testing.T) { testChecked(t, open(t)) })
	t.Run("Winnable", func(t *testing.T) { testWinnable(t, open(t)) })
	t.Run("PlayedCodes", func(t *testing.T) { testPlayedCodes(t, open(t)) })
	t.Run("Stats", func(t *testing.T) { testStats(t, open(t)) })
	t.Run("StatsFigures", func(t *testing.T) { testStatsFigures(t, open(t)) })
	t.Run("StatsReset", func(t *testing.T) { testStatsReset(t, open(t)) })
	t.Run("StatsRaces", func(t *testing.T) { testStatsRaces(t, open(t)) })
	t.Run("StatsConcurrent", func(t *testing.T) { testStatsConcurrent(t, open(t)) })
	t.Run("Tokens", func(t *testing.T) { testTokens(t, open(t)) })
	t.Run("LinkCodes", func(t *testing.T) { testLinkCodes(t, open(t)) })
	t.Run("DeletePlayer", func(t *testing.T) { testDeletePlayer(t, open(t)) })
	t.Run("CheckNames", func(t *testing.T) { testCheckNames(t, open(t)) })
	t.Run("CheckNamesConcurrent", func(t *testing.T) { testCheckNamesConcurrent(t, open(t)) })
	t.Run("Blocks", func(t *testing.T) { testBlocks(t, open(t)) })
	t.Run("FinishRace", func(t *testing.T) { testFinishRace(t, open(t)) })
	t.Run("DailyChallenges", func(t *testing.T) { testDailyChallenges(t, open(t)) })
	t.Run("StartDaily", func(t *testing.T) { testStartDaily(t, open(t)) })
	t.Run("Leaderboard", func(t *testing.T) { testLeaderboard(t, open(t)) })
}

// base is the time all fixtures are created at, with microsecond precision
// (the finest every store keeps).
var base = time.Date(2025, 3, 14, 15, 9, 26, 535897000, time.UTC)

func ctxOf(tb testing.TB) context.Context {
	tb.Helper()
	return tb.Context()
}

// NewPlayer returns a player fixture whose token hash derives from id.
func NewPlayer(id string) store.Player {
	h := sha256.Sum256([]byte("token of " + id))
	return store.Player{ID: id, Name: "name of " + id, TokenHash: h[:], CreatedAt: base}
}

// NewSolo returns a solo game fixture owned by player.
func NewSolo(id, player string, created time.Time) store.Game {
	return store.Game{
		ID: id, Kind: "solo", Code: "DS1-D1N-AAAAAAB", Status: "playing",
		Options: []byte(`{"draw":1,"scoring":"normal"}`),
		Seats:   [2]string{player, ""}, CreatedAt: created, UpdatedAt: created,
	}
}

// NewRace returns a waiting race fixture created by player.
func NewRace(id, player string, public bool, created time.Time) store.Game {
	h := sha256.Sum256([]byte("invite of " + id))
	return store.Game{
		ID: id, Kind: "race", Code: "DR1-D1U-AAAAAAB", Status: "waiting",
		Options: []byte(`{"turns":"simultaneous","series":3}`),
		Seats:   [2]string{player, ""}, Public: public, InviteHash: h[:],
		SeriesID: "series-" + id, SeriesGame: 1, CreatedAt: created, UpdatedAt: created,
		Salt: h[:16],
	}
}

// NewAction returns an action fixture of a game.
func NewAction(game string, seq int64, seat int, clientID string) store.Action {
	return store.Action{
		GameID: game, Seq: seq, Seat: seat, ClientID: clientID,
		Action: []byte(fmt.Sprintf(`{"type":"move","from":"c%d","to":"f"}`, seq%9+1)),
		At:     base.Add(time.Duration(seq) * time.Millisecond),
	}
}

func mustCreatePlayer(tb testing.TB, s store.Store, p store.Player) {
	tb.Helper()
	if err := s.CreatePlayer(ctxOf(tb), p); err != nil {
		tb.Fatalf("CreatePlayer(%s): %v", p.ID, err)
	}
}

func mustCreateGame(tb testing.TB, s store.Store, g store.Game) {
	tb.Helper()
	if err := s.CreateGame(ctxOf(tb), g); err != nil {
		tb.Fatalf("CreateGame(%s): %v", g.ID, err)
	}
}

func mustGame(tb testing.TB, s store.Store, id string) store.Game {
	tb.Helper()
	g, err := s.Game(ctxOf(tb), id)
	if err != nil {
		tb.Fatalf("Game(%s): %v", id, err)
	}
	return g
}

func mustAppend(tb testing.TB, s store.Store, actions ...store.Action) {
	tb.Helper()
	if err := s.AppendActions(ctxOf(tb), actions); err != nil {
		tb.Fatalf("AppendActions(%d actions): %v", len(actions), err)
	}
}

func mustActions(tb testing.TB, s store.Store, game string, after int64) []store.Action {
	tb.Helper()
	as, err := s.Actions(ctxOf(tb), game, after)
	if err != nil {
		tb.Fatalf("Actions(%s, %d): %v", game, after, err)
	}
	return as
}

func mustList(tb testing.TB, s store.Store, q store.GameQuery) []store.Game {
	tb.Helper()
	gs, err := s.ListGames(ctxOf(tb), q)
	if err != nil {
		tb.Fatalf("ListGames(%+v): %v", q, err)
	}
	return gs
}

func mustBeErr(tb testing.TB, what string, err, want error) {
	tb.Helper()
	if !errors.Is(err, want) {
		tb.Fatalf("%s: error %v, want %v", what, err, want)
	}
}

func mustClose(tb testing.TB, s store.Store) {
	tb.Helper()
	if err := s.Close(); err != nil {
		tb.Fatalf("Close: %v", err)
	}
}

// EqualPlayer reports the differences between two players, "" if none.
func EqualPlayer(got, want store.Player) string {
	if got.ID != want.ID || got.Name != want.Name || !bytes.Equal(got.TokenHash, want.TokenHash) ||
		!got.CreatedAt.Equal(want.CreatedAt) {
		return fmt.Sprintf("got %+v, want %+v", got, want)
	}
	return ""
}

// EqualGame reports the differences between two game headers, "" if none.
func EqualGame(got, want store.Game) string {
	if got.ID != want.ID || got.Kind != want.Kind || got.Code != want.Code ||
		!bytes.Equal(got.Options, want.Options) || got.Status != want.Status || got.Seats != want.Seats ||
		got.Public != want.Public || !bytes.Equal(got.InviteHash, want.InviteHash) ||
		got.SeriesID != want.SeriesID || got.SeriesGame != want.SeriesGame ||
		!bytes.Equal(got.Result, want.Result) || !bytes.Equal(got.Salt, want.Salt) || got.Hints != want.Hints || got.Checked != want.Checked ||
		!got.CreatedAt.Equal(want.CreatedAt) || !got.UpdatedAt.Equal(want.UpdatedAt) {
		return fmt.Sprintf("got %+v,\nwant %+v", got, want)
	}
	if (got.Options == nil) != (want.Options == nil) || (got.Result == nil) != (want.Result == nil) ||
		(got.InviteHash == nil) != (want.InviteHash == nil) || (got.Salt == nil) != (want.Salt == nil) {
		return fmt.Sprintf("nil-ness differs: got %+v,\nwant %+v", got, want)
	}
	return ""
}

// EqualActions reports the differences between two action lists, "" if none.
func EqualActions(got, want []store.Action) string {
	if len(got) != len(want) {
		return fmt.Sprintf("got %d actions, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.GameID != w.GameID || g.Seq != w.Seq || g.Seat != w.Seat || !bytes.Equal(g.Action, w.Action) ||
			g.ClientID != w.ClientID || !g.At.Equal(w.At) {
			return fmt.Sprintf("action %d: got %+v (%s), want %+v (%s)", i, g, g.Action, w, w.Action)
		}
	}
	return ""
}

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

func testActions(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	mustCreateGame(t, s, NewSolo("g1", "alice", base))
	mustCreateGame(t, s, NewSolo("g2", "alice", base))
	var want []store.Action
	for seq := int64(1); seq <= 5; seq++ {
		a := NewAction("g1", seq, 1, fmt.Sprintf("c%d", seq))
		if seq == 3 {
			a.ClientID = ""
		}
		want = append(want, a)
	}
	mustAppend(t, s, want[:2]...)
	mustAppend(t, s, want[2:]...)
	mustAppend(t, s, NewAction("g2", 1, 1, "c1"))

	t.Run("All", func(t *testing.T) {
		if d := EqualActions(mustActions(t, s, "g1", 0), want); d != "" {
			t.Fatal(d)
		}
	})
	t.Run("AfterSeq", func(t *testing.T) {
		if d := EqualActions(mustActions(t, s, "g1", 3), want[3:]); d != "" {
			t.Fatal(d)
		}
	})
	t.Run("AfterLast", func(t *testing.T) {
		got := mustActions(t, s, "g1", 5)
		if got == nil || len(got) != 0 {
			t.Fatalf("got %v, want an empty slice", got)
		}
	})
	t.Run("UnknownGame", func(t *testing.T) {
		if got := mustActions(t, s, "nope", 0); len(got) != 0 {
			t.Fatalf("got %d actions", len(got))
		}
		err := s.AppendActions(ctx, []store.Action{NewAction("nope", 1, 1, "")})
		mustBeErr(t, "append to unknown game", err, store.ErrNotFound)
	})
	t.Run("DuplicateSeq", func(t *testing.T) {
		err := s.AppendActions(ctx, []store.Action{NewAction("g1", 5, 1, "")})
		mustBeErr(t, "append seq 5 again", err, store.ErrConflict)
	})
	t.Run("Empty", func(t *testing.T) {
		if err := s.AppendActions(ctx, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("Timestamps", func(t *testing.T) {
		got := mustActions(t, s, "g1", 0)
		if loc := got[0].At.Location(); loc != time.UTC {
			t.Fatalf("At in %v, want UTC", loc)
		}
	})
}

func testAppendAtomic(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	for _, g := range []string{"g1", "g2", "g3"} {
		mustCreateGame(t, s, NewSolo(g, "alice", base))
	}
	mustAppend(t, s, NewAction("g1", 1, 1, ""), NewAction("g2", 1, 1, "x"))

	t.Run("SeveralGames", func(t *testing.T) {
		mustAppend(t, s,
			NewAction("g1", 2, 1, ""), NewAction("g2", 2, 1, ""), NewAction("g3", 1, 1, ""),
			NewAction("g1", 3, 1, ""), NewAction("g3", 2, 1, ""))
		for game, n := range map[string]int{"g1": 3, "g2": 2, "g3": 2} {
			if got := len(mustActions(t, s, game, 0)); got != n {
				t.Errorf("%s: %d actions, want %d", game, got, n)
			}
		}
	})
	cases := []struct {
		name  string
		batch []store.Action
	}{
		{"DuplicateStoredSeq", []store.Action{
			NewAction("g1", 4, 1, ""), NewAction("g3", 3, 1, ""), NewAction("g2", 2, 1, "")}},
		{"DuplicateSeqInBatch", []store.Action{
			NewAction("g1", 4, 1, ""), NewAction("g3", 3, 1, ""), NewAction("g3", 3, 1, "")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mustBeErr(t, "AppendActions", s.AppendActions(ctx, tc.batch), store.ErrConflict)
			for game, n := range map[string]int{"g1": 3, "g2": 2, "g3": 2} {
				if got := len(mustActions(t, s, game, 0)); got != n {
					t.Errorf("%s: %d actions after a failed batch, want %d (nothing of the batch)", game, got, n)
				}
			}
		})
	}
}

// testClientID: client action ids are stored as given and read back with
// their actions, since the table rebuilds from them which ids a game has
// seen. Deciding a duplicate is the table's: the store keeps whatever it is
// handed (the same id of another seat or game, or again, and no id).
func testClientID(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	mustCreatePlayer(t, s, NewPlayer("bob"))
	mustCreateGame(t, s, NewSolo("g1", "alice", base))
	mustCreateGame(t, s, NewSolo("g2", "bob", base))
	mustAppend(t, s, NewAction("g1", 1, 1, "dup"))
	mustAppend(t, s, NewAction("g1", 2, 2, "dup"), NewAction("g2", 1, 1, "dup"))
	mustAppend(t, s, NewAction("g1", 3, 1, ""), NewAction("g1", 4, 1, ""))
	mustAppend(t, s, NewAction("g1", 5, 1, "dup"), NewAction("g1", 6, 1, "x"))
	for game, want := range map[string][]string{"g1": {"dup", "dup", "", "", "dup", "x"}, "g2": {"dup"}} {
		got := mustActions(t, s, game, 0)
		if len(got) != len(want) {
			t.Fatalf("%s: %d actions, want %d", game, len(got), len(want))
		}
		for i, a := range got {
			if a.Seq != int64(i+1) || a.ClientID != want[i] {
				t.Errorf("%s seq %d: client id %q, want %q at seq %d", game, a.Seq, a.ClientID, want[i], i+1)
			}
		}
	}
}

func testConcurrentAppends(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	const games, perGame = 8, 25
	mustCreatePlayer(t, s, NewPlayer("alice"))
	for g := range games {
		mustCreateGame(t, s, NewSolo(fmt.Sprintf("g%d", g), "alice", base))
	}
	// Two writers per game race for every seq: exactly one must win each.
	var wg sync.WaitGroup
	var wins, conflicts atomic.Int64
	for g := range games {
		for w := range 2 {
			wg.Go(func() {
				id := fmt.Sprintf("g%d", g)
				for seq := int64(1); seq <= perGame; seq++ {
					a := NewAction(id, seq, 1, fmt.Sprintf("w%d-%d", w, seq))
					err := s.AppendActions(ctx, []store.Action{a})
					switch {
					case err == nil:
						wins.Add(1)
					case errors.Is(err, store.ErrConflict):
						conflicts.Add(1)
					default:
						t.Errorf("%s seq %d: %v", id, seq, err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	if got := wins.Load(); got != games*perGame {
		t.Fatalf("%d appends won (%d conflicts), want %d", got, conflicts.Load(), games*perGame)
	}
	for g := range games {
		got := mustActions(t, s, fmt.Sprintf("g%d", g), 0)
		if len(got) != perGame {
			t.Fatalf("g%d: %d actions, want %d", g, len(got), perGame)
		}
		for i, a := range got {
			if a.Seq != int64(i+1) {
				t.Fatalf("g%d: action %d has seq %d", g, i, a.Seq)
			}
		}
	}
}

func testLargeBatch(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	mustCreatePlayer(t, s, NewPlayer("alice"))
	mustCreateGame(t, s, NewSolo("g1", "alice", base))
	mustCreateGame(t, s, NewSolo("g2", "alice", base))
	// More rows than fit in one SQLite statement's variables.
	const n = 6000
	batch := make([]store.Action, 0, n)
	for seq := int64(1); seq <= n/2; seq++ {
		batch = append(batch, NewAction("g1", seq, 1, fmt.Sprint(seq)), NewAction("g2", seq, 1, ""))
	}
	mustAppend(t, s, batch...)
	if got := len(mustActions(t, s, "g1", 0)); got != n/2 {
		t.Fatalf("g1: %d actions, want %d", got, n/2)
	}
	// A conflict in the last row undoes the whole batch, earlier chunks included.
	more := make([]store.Action, 0, n)
	for seq := int64(n/2 + 1); seq < n; seq++ {
		more = append(more, NewAction("g1", seq, 1, ""))
	}
	more = append(more, NewAction("g2", 1, 1, ""))
	mustBeErr(t, "large batch with a conflict", s.AppendActions(ctxOf(t), more), store.ErrConflict)
	if got := len(mustActions(t, s, "g1", 0)); got != n/2 {
		t.Fatalf("g1: %d actions after a failed large batch, want %d", got, n/2)
	}
}

func testCommitter(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	const games, perGame = 16, 20
	mustCreatePlayer(t, s, NewPlayer("alice"))
	for g := range games {
		mustCreateGame(t, s, NewSolo(fmt.Sprintf("g%d", g), "alice", base))
	}
	var mu sync.Mutex
	largest := 0
	c := store.NewCommitter(s, 2*time.Millisecond, 64, func(n int, _ time.Duration, _ error) {
		mu.Lock()
		largest = max(largest, n)
		mu.Unlock()
	})
	var wg sync.WaitGroup
	for g := range games {
		wg.Go(func() {
			id := fmt.Sprintf("g%d", g)
			for seq := int64(1); seq <= perGame; seq++ {
				if err := c.Commit(ctx, NewAction(id, seq, 1, "")); err != nil {
					t.Errorf("%s seq %d: %v", id, seq, err)
					return
				}
			}
		})
	}
	wg.Wait()
	// A conflicting request fails alone.
	err := c.Commit(ctx, NewAction("g0", 1, 1, ""))
	mustBeErr(t, "commit a stored seq", err, store.ErrConflict)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for g := range games {
		if got := len(mustActions(t, s, fmt.Sprintf("g%d", g), 0)); got != perGame {
			t.Fatalf("g%d: %d actions, want %d", g, got, perGame)
		}
	}
	if largest < 2 {
		t.Errorf("largest batch %d: no batching happened", largest)
	}
}

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

func testWinnable(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	if ds, err := s.WinnableDeals(ctx); err != nil || len(ds) != 0 {
		t.Fatalf("WinnableDeals of an empty pool: %v, %v", ds, err)
	}
	if n, err := s.AddWinnable(ctx, nil); err != nil || n != 0 {
		t.Fatalf("AddWinnable(nothing): %d, %v", n, err)
	}
	a := store.WinnableDeal{Mode: "D1V", Deal: 26*26*26*26*26*26*26 - 1, Budget: 2000000, Positions: 1234567, FoundAt: base}
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
		if g.Mode != w.Mode || g.Deal != w.Deal || g.Budget != w.Budget || g.Positions != w.Positions || !g.FoundAt.Equal(w.FoundAt) {
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

// finishedRace returns a race of alice and bob over with a result.
func finishedRace(id string, at time.Time) store.Game {
	g := NewRace(id, "alice", false, base)
	g.Seats[1], g.Status, g.Result, g.UpdatedAt = "bob", "over", []byte(`{"winner":1}`), at
	return g
}

func testFinishRace(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	for _, p := range []string{"alice", "bob", "carol"} {
		mustCreatePlayer(t, s, NewPlayer(p))
	}
	if r, err := s.Rating(ctx, "alice"); err != nil || r != store.StartRating() {
		t.Fatalf("Rating(never rated) = %+v, %v; want %+v", r, err, store.StartRating())
	}
	if r, err := s.Rating(ctx, "nobody"); err != nil || r != store.StartRating() {
		t.Fatalf("Rating(unknown) = %+v, %v; want the start rating", r, err)
	}
	// Two finished races of alice and bob without a decision, one
	// cancelled, two in play, one of carol's alone.
	for i, id := range []string{"f1", "f2", "cancelled", "playing", "r", "swapped", "later"} {
		g := NewRace(id, "alice", false, base.Add(time.Duration(i)*time.Second))
		g.Seats[1], g.Status = "bob", "playing"
		mustCreateGame(t, s, g)
	}
	mustCreateGame(t, s, NewRace("carols", "carol", false, base))
	for _, id := range []string{"f1", "f2"} {
		if err := s.FinishRace(ctx, finishedRace(id, base), nil); err != nil {
			t.Fatalf("FinishRace(%s, no decision): %v", id, err)
		}
		if _, err := s.RaceRating(ctx, id); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("RaceRating(%s) without a decision: %v, want ErrNotFound", id, err)
		}
	}
	c := mustGame(t, s, "cancelled")
	c.Status = "over"
	if err := s.UpdateGame(ctx, c); err != nil {
		t.Fatal(err)
	}
	at := base.Add(time.Hour)
	after := [2]store.Rating{{Rating: 1662.3, Deviation: 290.3, Volatility: 0.05999}, {Rating: 1337.7, Deviation: 290.3, Volatility: 0.06}}
	calls := 0
	decide := func(current [2]store.Rating, pairRated int) *store.RaceRating {
		calls++
		if current != [2]store.Rating{store.StartRating(), store.StartRating()} {
			t.Errorf("decide: current %+v, want the start ratings", current)
		}
		if pairRated != 0 {
			t.Errorf("decide: pairRated %d, want 0 (no race of the two was rated)", pairRated)
		}
		return &store.RaceRating{Players: [2]string{"alice", "bob"}, Rated: true,
			MedianGap: [2]time.Duration{812 * time.Millisecond, -time.Millisecond},
			Before:    current, After: after, At: at}
	}
	g := finishedRace("r", at)
	g.CreatedAt = mustGame(t, s, "r").CreatedAt
	if err := s.FinishRace(ctx, g, decide); err != nil {
		t.Fatalf("FinishRace: %v", err)
	}
	if d := EqualGame(mustGame(t, s, "r"), g); d != "" {
		t.Fatalf("FinishRace did not store the race's end: %s", d)
	}
	want := store.RaceRating{GameID: "r", Players: [2]string{"alice", "bob"}, Rated: true,
		MedianGap: [2]time.Duration{812 * time.Millisecond, -time.Millisecond},
		Before:    [2]store.Rating{store.StartRating(), store.StartRating()}, After: after, At: at}
	want.After[0].Races, want.After[1].Races = 1, 1
	rr, err := s.RaceRating(ctx, "r")
	if err != nil || !rr.At.Equal(want.At) {
		t.Fatalf("RaceRating = %+v, %v; want %+v", rr, err, want)
	}
	rr.At = want.At
	if rr != want {
		t.Fatalf("RaceRating = %+v,\nwant %+v", rr, want)
	}
	for i, id := range []string{"alice", "bob"} {
		if r, err := s.Rating(ctx, id); err != nil || r != want.After[i] {
			t.Fatalf("Rating(%s) = %+v, %v; want %+v", id, r, err, want.After[i])
		}
	}
	// Once decided, a race is never rated again.
	if err := s.FinishRace(ctx, g, decide); err != nil {
		t.Fatalf("FinishRace again: %v", err)
	}
	if calls != 1 {
		t.Fatalf("decide called %d times; a decided race is not decided again", calls)
	}
	if r, _ := s.Rating(ctx, "alice"); r != want.After[0] {
		t.Fatalf("Rating(alice) after a second FinishRace = %+v, want %+v", r, want.After[0])
	}
	// A decision not to rate is kept and changes no rating.
	g2 := finishedRace("f2", at)
	g2.ID = "playing"
	if err := s.FinishRace(ctx, g2, func(current [2]store.Rating, pairRated int) *store.RaceRating {
		if pairRated != 1 {
			t.Errorf("decide(playing): pairRated %d, want 1 (r, rated at the same time)", pairRated)
		}
		return &store.RaceRating{Players: g2.Seats, Flag: "too_fast", Before: current, After: current, At: at}
	}); err != nil {
		t.Fatal(err)
	}
	// The pair's rated races are counted in either seat order, over the
	// rating.PairWindow before the race's end: r (rated), not "playing"
	// (kept unrated).
	for _, c := range []struct {
		id   string
		end  time.Time
		want int
	}{
		{"swapped", at.Add(time.Hour), 1},
		{"later", at.Add(rating.PairWindow), 0},
	} {
		g := finishedRace(c.id, c.end)
		g.Seats = [2]string{"bob", "alice"}
		if err := s.FinishRace(ctx, g, func(current [2]store.Rating, pairRated int) *store.RaceRating {
			if pairRated != c.want {
				t.Errorf("decide(%s): pairRated %d, want %d", c.id, pairRated, c.want)
			}
			return &store.RaceRating{Players: g.Seats, Flag: "too_short", Before: current, After: current, At: c.end}
		}); err != nil {
			t.Fatal(err)
		}
	}
	if rr, err := s.RaceRating(ctx, "playing"); err != nil || rr.Rated || rr.Flag != "too_fast" || rr.After != want.After {
		t.Fatalf("RaceRating(unrated) = %+v, %v; want the flag and the ratings unchanged", rr, err)
	}
	if r, _ := s.Rating(ctx, "bob"); r != want.After[1] {
		t.Fatalf("Rating(bob) after an unrated race = %+v, want %+v", r, want.After[1])
	}
	mustBeErr(t, "FinishRace(nope)", s.FinishRace(ctx, finishedRace("nope", at), decide), store.ErrNotFound)
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
