package httpapi

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/store"
	"dsol/internal/table"
)

// seedFinished stores n finished races between players a and b, so that
// both have finished n races.
func seedFinished(tb testing.TB, st store.Store, a, b string, n int) {
	tb.Helper()
	for i := range n {
		now := time.Date(2030, 1, 1, 0, 0, i, 0, time.UTC)
		g := store.Game{ID: fmt.Sprintf("seed-%s-%s-%d", a, b, i), Kind: "race", Code: "DR1-D1U-AAAAAAB",
			Status: "over", Seats: [2]string{a, b}, Result: []byte(`{"winner":1}`), Salt: make([]byte, 16),
			CreatedAt: now, UpdatedAt: now}
		if err := st.CreateGame(context.Background(), g); err != nil {
			tb.Fatal(err)
		}
	}
}

// playToResign has both seats draw twice, step apart, and then the first
// resign: each seat's median gap is 2 steps.
func (ts *raceServer) playToResign(tb testing.TB, id string, resigner, other *client, step time.Duration) rview {
	tb.Helper()
	for range 2 {
		for _, c := range []*client{resigner, other} {
			c.mustRaceAct(tb, id, klondike.Simple(klondike.Draw))
			ts.tc.Advance(step)
		}
	}
	return resigner.mustRaceAct(tb, id, klondike.Simple(klondike.Resign))
}

// joined creates a race of a's with body, which b joins.
func joined(tb testing.TB, a, b *client, body map[string]any) string {
	tb.Helper()
	v := a.mustRace(tb, body)
	b.MustJSON(tb, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
	return v.ID
}

func mustRating(tb testing.TB, st store.Store, id string) store.Rating {
	tb.Helper()
	r, err := st.Rating(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// TestRatedRaces: only a qualifying race changes ratings, both of them,
// once, and not again after a restart (nor when the race's end is stored
// again, as after a crash before its status write).
func TestRatedRaces(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustRaceServer(t, st)
		ada, bob, cy := ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t)
		seedFinished(t, st, ada.id, bob.id, table.RatedAfter)
		start := store.StartRating()
		unchanged := func(what string) {
			t.Helper()
			for _, c := range []*client{ada, bob, cy} {
				if r := mustRating(t, st, c.id); r != start {
					t.Fatalf("%s: rating of %s moved to %+v", what, c.id, r)
				}
			}
		}
		// The race's end (and its decision) is stored right after the last
		// action's answer.
		decision := func(id string) (store.RaceRating, error) {
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				g, err := st.Game(context.Background(), id)
				if err != nil || g.Status == "over" || time.Now().After(deadline) {
					return st.RaceRating(context.Background(), id)
				}
			}
		}
		pace := 200 * time.Millisecond

		// Against the bot: no decision at all.
		bot := ada.mustRace(t, map[string]any{"bot": "slow"})
		ada.mustRaceAct(t, bot.ID, klondike.Simple(klondike.Resign))
		if _, err := decision(bot.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a bot race has a rating decision (%v)", err)
		}
		unchanged("a race against the bot")

		// Cancelled: no result, no decision.
		c := ada.mustRace(t, map[string]any{"public": false})
		ada.MustJSON(t, "POST", "/api/v1/races/"+c.ID+"/cancel", nil, 200, nil)
		if _, err := decision(c.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a cancelled race has a rating decision (%v)", err)
		}
		unchanged("a cancelled race")

		for _, tc := range []struct {
			name string
			a, b *client
			body map[string]any
			step time.Duration
			flag string
		}{
			{"chosen deal", ada, bob, map[string]any{"code": "DR1-D1UI-HELLOXY"}, pace, table.FlagChosenDeal},
			{"new player", ada, cy, map[string]any{}, pace, table.FlagNewPlayer},
			{"too fast", ada, bob, map[string]any{}, 50 * time.Millisecond, table.FlagTooFast},
		} {
			id := joined(t, tc.a, tc.b, tc.body)
			end := ts.playToResign(t, id, tc.a, tc.b, tc.step)
			if end.Status != "over" || end.Ratings != nil {
				t.Fatalf("%s: end %s with ratings %v", tc.name, end.Status, end.Ratings)
			}
			rr, err := decision(id)
			if err != nil || rr.Rated || rr.Flag != tc.flag || rr.After != rr.Before {
				t.Fatalf("%s: decision %+v, %v; want flagged %s", tc.name, rr, err, tc.flag)
			}
			unchanged(tc.name)
		}
		// A qualifying race: both change, once.
		id := joined(t, ada, bob, map[string]any{"draw": 3})
		ts.playToResign(t, id, ada, bob, pace)
		rr, err := decision(id)
		if err != nil || !rr.Rated || rr.Flag != "" || rr.MedianGap != [2]time.Duration{2 * pace, 2 * pace} {
			t.Fatalf("decision %+v, %v; want rated, median gaps of %v", rr, err, 2*pace)
		}
		ra, rb := mustRating(t, st, ada.id), mustRating(t, st, bob.id)
		if ra.Rating >= 1500 || rb.Rating <= 1500 || ra.Races != 1 || rb.Races != 1 || ra != rr.After[0] || rb != rr.After[1] {
			t.Fatalf("after the race: ada %+v (resigned), bob %+v", ra, rb)
		}
		want := []table.SeatRating{{Before: 1500, After: game.RoundRating(ra.Rating)}, {Before: 1500, After: game.RoundRating(rb.Rating)}}
		view := bob.mustView(t, id)
		if fmt.Sprint(view.Ratings) != fmt.Sprint(want) {
			t.Fatalf("view ratings %v, want %v", view.Ratings, want)
		}
		var me meJSON
		bob.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
		if me.Rating != game.RoundRating(rb.Rating) || me.RatingDeviation != game.RoundRating(rb.Deviation) {
			t.Fatalf("GET /api/v1/me = %+v, want rating %.1f (%.1f)", me, rb.Rating, rb.Deviation)
		}

		// After a restart, and with the race's end lost from the header (a
		// crash between the commit and the status write), the race is
		// stored as over again but not rated again.
		ts.stop()
		g, err := st.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		g.Status, g.Result = "playing", nil
		if err := st.UpdateGame(context.Background(), g); err != nil {
			t.Fatal(err)
		}
		ts2 := mustRaceServer(t, st)
		bob.moveTo(ts2.testServer)
		view = bob.mustView(t, id)
		if view.Status != "over" || fmt.Sprint(view.Ratings) != fmt.Sprint(want) {
			t.Fatalf("after the restart: %s, ratings %v; want over, %v", view.Status, view.Ratings, want)
		}
		if g, _ := st.Game(context.Background(), id); g.Status != "over" {
			t.Fatalf("the restart did not repair the header: %s", g.Status)
		}
		if a, b := mustRating(t, st, ada.id), mustRating(t, st, bob.id); a != ra || b != rb {
			t.Fatalf("rated again after the restart: ada %+v, bob %+v", a, b)
		}
	})
}
