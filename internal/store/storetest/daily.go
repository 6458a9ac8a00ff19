package storetest

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"dsol/internal/store"
)

// dailyDay is the day of the daily fixtures; it begins at dayBegin.
const dailyDay = "2025-03-15"

var dayBegin = time.Date(2025, 3, 15, 0, 0, 0, 0, time.UTC)

func mustPutChallenge(tb testing.TB, s store.Store, c store.DailyChallenge) store.DailyChallenge {
	tb.Helper()
	got, err := s.PutDailyChallenge(ctxOf(tb), c)
	if err != nil {
		tb.Fatalf("PutDailyChallenge(%s %s): %v", c.Day, c.Mode, err)
	}
	return got
}

// dailyGame is the header of a daily game of player.
func dailyGame(id, player string, at time.Time) store.Game {
	g := NewSolo(id, player, at)
	g.Code = "DS2-D1N-" + fmt.Sprintf("%064X", len(id))
	g.Options = []byte(`{"daily":"` + dailyDay + `"}`)
	return g
}

func testDailyChallenges(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	first := store.DailyChallenge{Day: dailyDay, Mode: "D1N", Code: "DS2-D1N-" + fmt.Sprintf("%064X", 1), CreatedAt: dayBegin.Add(time.Minute)}
	if got := mustPutChallenge(t, s, first); got != first {
		t.Fatalf("put %+v, got %+v", first, got)
	}
	// Another node's draw of the same day and mode keeps the first.
	other := first
	other.Code, other.CreatedAt = "DS2-D1N-"+fmt.Sprintf("%064X", 2), first.CreatedAt.Add(time.Second)
	if got := mustPutChallenge(t, s, other); got != first {
		t.Fatalf("second put gave %+v, want the stored %+v", got, first)
	}
	three := store.DailyChallenge{Day: dailyDay, Mode: "D3N", Code: "DS2-D3N-" + fmt.Sprintf("%064X", 3), CreatedAt: first.CreatedAt}
	mustPutChallenge(t, s, three)
	next := store.DailyChallenge{Day: "2025-03-16", Mode: "D1N", Code: "DS2-D1N-" + fmt.Sprintf("%064X", 4), CreatedAt: first.CreatedAt}
	mustPutChallenge(t, s, next)
	got, err := s.DailyChallenges(ctx, dailyDay)
	if err != nil || !slices.Equal(got, []store.DailyChallenge{first, three}) {
		t.Fatalf("DailyChallenges = %+v, %v", got, err)
	}
	if got, err := s.DailyChallenges(ctx, "2025-01-01"); err != nil || len(got) != 0 || got == nil {
		t.Fatalf("DailyChallenges of a day without = %#v, %v", got, err)
	}

	// Concurrent puts of a new day: everyone gets the same stored one.
	var wg sync.WaitGroup
	codes := make([]string, 8)
	for i := range codes {
		wg.Go(func() {
			c, err := s.PutDailyChallenge(ctx, store.DailyChallenge{Day: "2025-03-17", Mode: "D1N",
				Code: "DS2-D1N-" + fmt.Sprintf("%064X", 10+i), CreatedAt: first.CreatedAt})
			if err != nil {
				t.Error(err)
			}
			codes[i] = c.Code
		})
	}
	wg.Wait()
	for _, c := range codes {
		if c != codes[0] {
			t.Fatalf("racing puts got %v", codes)
		}
	}
}

func testStartDaily(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	mustCreatePlayer(t, s, NewPlayer("p"))
	mustPutChallenge(t, s, store.DailyChallenge{Day: dailyDay, Mode: "D1N", Code: "DS2-D1N-" + fmt.Sprintf("%064X", 1), CreatedAt: dayBegin})
	at := dayBegin.Add(time.Hour)
	e := store.DailyEntry{Day: dailyDay, Mode: "D1N", PlayerID: "p", GameID: "g1", CreatedAt: at}
	got, created, err := s.StartDaily(ctx, dailyGame("g1", "p", at), e)
	if err != nil || !created || got != e {
		t.Fatalf("StartDaily = %+v, %v, %v", got, created, err)
	}
	mustGame(t, s, "g1")
	// A second try: the first entry, and no second game.
	e2 := e
	e2.GameID, e2.CreatedAt = "g2", at.Add(time.Minute)
	got, created, err = s.StartDaily(ctx, dailyGame("g2", "p", e2.CreatedAt), e2)
	if err != nil || created || got != e {
		t.Fatalf("second StartDaily = %+v, %v, %v; want %+v, false", got, created, err, e)
	}
	if _, err := s.Game(ctx, "g2"); err == nil {
		t.Fatal("the second try left a game")
	}
	// No such challenge.
	_, _, err = s.StartDaily(ctx, dailyGame("g3", "p", at), store.DailyEntry{Day: dailyDay, Mode: "D3N", PlayerID: "p", GameID: "g3", CreatedAt: at})
	mustBeErr(t, "StartDaily of no challenge", err, store.ErrNotFound)

	// Racing tries of one player make one game.
	mustCreatePlayer(t, s, NewPlayer("q"))
	var wg sync.WaitGroup
	entries := make([]store.DailyEntry, 8)
	made := make([]bool, len(entries))
	for i := range entries {
		wg.Go(func() {
			id := fmt.Sprintf("q%d", i)
			var err error
			entries[i], made[i], err = s.StartDaily(ctx, dailyGame(id, "q", at), store.DailyEntry{Day: dailyDay, Mode: "D1N", PlayerID: "q", GameID: id, CreatedAt: at})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	n := 0
	for i, e := range entries {
		if made[i] {
			n++
		}
		if e.GameID != entries[0].GameID {
			t.Fatalf("racing tries got games %+v", entries)
		}
	}
	gs := mustList(t, s, store.GameQuery{Player: "q"})
	if n != 1 || len(gs) != 1 || gs[0].ID != entries[0].GameID {
		t.Fatalf("racing tries made %d entries and games %v", n, gs)
	}

	// The player deleted takes the entry; the streak days are gone too.
	if _, err := s.DeletePlayer(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	if lb, err := s.Leaderboard(ctx, leaderboardQuery("D1N", "p", 10)); err != nil || lb.You != nil || lb.Players != 0 {
		t.Fatalf("after DeletePlayer: %+v, %v", lb, err)
	}
}

// dailyPlay is one entry of a random leaderboard history.
type dailyPlay struct {
	player  store.Player
	entered time.Time
	at      []time.Time // the times of its actions
	moves   int
	won     bool          // the game is won (in time or not)
	late    bool          // its winning action came after the day closed
	gap     time.Duration // the median gap stored with a win
	earlier bool          // its player played a game of enough actions before the day
	hints   int
	undo    bool
}

// The rules of the leaderboard's fixtures (the server's are package
// daily's).
const (
	earlierActions = 20
	minGap         = 250 * time.Millisecond
)

// leaderboardQuery is the query of the fixtures' challenge of mode.
func leaderboardQuery(mode, player string, limit int) store.LeaderboardQuery {
	return store.LeaderboardQuery{Day: dailyDay, Mode: mode, Begin: dayBegin, End: dayBegin.AddDate(0, 0, 1), Player: player,
		Limit: limit, EarlierActions: earlierActions, MinGap: minGap}
}

// testLeaderboard stores random histories of a daily challenge and checks
// the leaderboard against its order recomputed in Go from the stored
// actions: wins first, clean before assisted, fewer seconds, fewer moves,
// the earlier winning action, the earlier entry; a win stored after the
// day closed is no win; players without a solo game of earlierActions
// actions begun before the day, and wins under minGap, unranked; the
// caller always as You.
func testLeaderboard(t *testing.T, s store.Store) {
	defer mustClose(t, s)
	ctx := ctxOf(t)
	mustPutChallenge(t, s, store.DailyChallenge{Day: dailyDay, Mode: "D1N", Code: "DS2-D1N-" + fmt.Sprintf("%064X", 1), CreatedAt: dayBegin})
	end := dayBegin.AddDate(0, 0, 1)
	r := rand.New(rand.NewPCG(7, 11))
	var plays []dailyPlay
	for i := range 40 {
		p := NewPlayer(fmt.Sprintf("p%02d", i))
		p.CreatedAt = dayBegin.Add(-time.Duration(2+r.IntN(3)) * time.Hour)
		mustCreatePlayer(t, s, p)
		d := dailyPlay{player: p, entered: dayBegin.Add(time.Duration(4+r.IntN(100)) * time.Minute), moves: 1 + r.IntN(4),
			won: r.IntN(3) > 0, undo: r.IntN(4) == 0}
		// An earlier solo game: none, too short, long enough, or long
		// enough but begun on the day itself.
		kind := r.IntN(4)
		if kind > 0 {
			begun, n := dayBegin.Add(-time.Hour), earlierActions
			switch kind {
			case 1:
				n = earlierActions - 1
			case 3:
				begun = dayBegin
			}
			d.earlier = kind == 2
			at := make([]time.Duration, n)
			for k := range at {
				at[k] = time.Duration(k) * time.Second
			}
			mustCreateGame(t, s, NewSolo("e"+p.ID, p.ID, begun))
			mustAppend(t, s, PlayedActions(Played{ID: "e" + p.ID, Created: begun, At: at, Moves: n})...)
		}
		if r.IntN(4) == 0 {
			d.hints = 1
		}
		n := r.IntN(4)
		if d.won {
			n++
			d.late = r.IntN(5) == 0
			d.gap = []time.Duration{100 * time.Millisecond, minGap - time.Millisecond, minGap, 2 * time.Second}[r.IntN(4)]
		}
		at := d.entered
		for k := range n {
			at = at.Add(time.Duration(r.IntN(3)*40) * time.Second) // gaps of 0, 40 and 80 s (capped at 60)
			if d.late && k == n-1 {
				at = end.Add(time.Duration(r.IntN(2)) * time.Minute) // at the close, or after it
			}
			d.at = append(d.at, at)
		}
		if n < 2 {
			d.undo = false
		}
		plays = append(plays, d)
		id := "g" + p.ID
		g := dailyGame(id, p.ID, d.entered)
		if _, _, err := s.StartDaily(ctx, g, store.DailyEntry{Day: dailyDay, Mode: "D1N", PlayerID: p.ID, GameID: id, CreatedAt: d.entered}); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			acts := PlayedActions(Played{ID: id, Created: d.entered, At: offsets(d.entered, d.at), Moves: d.moves, Undo: d.undo})
			mustAppend(t, s, acts...)
		}
		for range d.hints {
			if _, err := s.AddHint(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		if d.won {
			g.Status, g.UpdatedAt = "won", d.at[len(d.at)-1]
			if err := s.FinishDaily(ctx, g, d.gap); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.FinishDaily(ctx, dailyGame("nope", "p00", dayBegin), 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("FinishDaily(no such game) = %v, want ErrNotFound", err)
	}

	// The recomputation, from the stored actions of each game.
	want := make([]store.DailyRow, 0, len(plays))
	lastAt := map[string]time.Time{}
	entered := map[string]time.Time{}
	byID := map[string]store.DailyRow{}
	for _, d := range plays {
		id := "g" + d.player.ID
		acts := mustActions(t, s, id, 0)
		row := store.DailyRow{PlayerID: d.player.ID, Name: d.player.Name, GameID: id, Won: d.won && !d.late}
		switch {
		case !d.earlier:
			row.Unranked = store.UnrankedNewAccount
		case row.Won && d.gap < minGap:
			row.Unranked = store.UnrankedTooFast
		}
		row.Ranked = row.Unranked == ""
		assisted := d.hints > 0
		for i, a := range acts {
			if i > 0 {
				row.Play = store.AddGap(row.Play, acts[i-1].At, a.At)
			}
			assisted = assisted || string(a.Action) == `{"type":"undo"}`
			lastAt[id] = a.At
		}
		if len(acts) > 0 {
			row.Moves = d.moves
		}
		row.Clean = row.Won && !assisted
		entered[d.player.ID] = d.entered
		byID[d.player.ID] = row
		if row.Ranked {
			want = append(want, row)
		}
	}
	slices.SortFunc(want, func(a, b store.DailyRow) int {
		if c := boolFirst(a.Won) - boolFirst(b.Won); c != 0 {
			return c
		}
		if a.Won {
			if c := cmp.Or(boolFirst(a.Clean)-boolFirst(b.Clean), cmp.Compare(a.Play, b.Play), cmp.Compare(a.Moves, b.Moves),
				lastAt[a.GameID].Compare(lastAt[b.GameID])); c != 0 {
				return c
			}
		}
		return cmp.Or(entered[a.PlayerID].Compare(entered[b.PlayerID]), cmp.Compare(a.PlayerID, b.PlayerID))
	})
	for i := range want {
		if want[i].Won {
			want[i].Rank = i + 1
		}
	}
	ranks := map[string]int{}
	for _, w := range want {
		ranks[w.PlayerID] = w.Rank
	}
	for _, u := range []string{store.UnrankedNewAccount, store.UnrankedTooFast} {
		n := 0
		for _, row := range byID {
			if row.Unranked == u {
				n++
			}
		}
		if n == 0 {
			t.Fatalf("the fixtures hold no entry unranked as %s", u)
		}
	}

	for _, limit := range []int{0, 5, 100} {
		for _, d := range plays[:8] {
			lb, err := s.Leaderboard(ctx, leaderboardQuery("D1N", d.player.ID, limit))
			if err != nil {
				t.Fatal(err)
			}
			top := want[:min(limit, len(want))]
			if !slices.Equal(lb.Entries, top) || lb.Players != len(want) {
				t.Fatalf("limit %d: got %d players\n%+v\nwant %d\n%+v", limit, lb.Players, lb.Entries, len(want), top)
			}
			you := byID[d.player.ID]
			you.Rank = ranks[d.player.ID]
			if lb.You == nil || *lb.You != you {
				t.Fatalf("limit %d: you = %+v, want %+v", limit, lb.You, you)
			}
		}
	}
	lb, err := s.Leaderboard(ctx, leaderboardQuery("D1N", "nobody", 3))
	if err != nil || lb.You != nil || len(lb.Entries) != 3 {
		t.Fatalf("a caller without an entry: %+v, %v", lb, err)
	}
	lb, err = s.Leaderboard(ctx, leaderboardQuery("D3N", "p00", 3))
	if err != nil || lb.You != nil || len(lb.Entries) != 0 || lb.Entries == nil || lb.Players != 0 {
		t.Fatalf("a challenge without entries: %+v, %v", lb, err)
	}

	// The daily wins of a player: the days of their won entries, each with
	// the time of its winning action, in time or not.
	for _, d := range plays {
		if !d.won {
			continue
		}
		wins, err := s.DailyWins(ctx, d.player.ID)
		want := []store.DailyWin{{Day: dailyDay, At: d.at[len(d.at)-1]}}
		if err != nil || len(wins) != 1 || wins[0].Day != want[0].Day || !wins[0].At.Equal(want[0].At) {
			t.Fatalf("DailyWins(%s) = %v, %v; want %v", d.player.ID, wins, err, want)
		}
	}
	if wins, err := s.DailyWins(ctx, "nobody"); err != nil || wins == nil || len(wins) != 0 {
		t.Fatalf("DailyWins of nobody = %#v, %v", wins, err)
	}
}

// boolFirst orders true before false.
func boolFirst(b bool) int {
	if b {
		return -1
	}
	return 0
}

// offsets returns the times as offsets from start.
func offsets(start time.Time, at []time.Time) []time.Duration {
	out := make([]time.Duration, len(at))
	for i, a := range at {
		out[i] = a.Sub(start)
	}
	return out
}
