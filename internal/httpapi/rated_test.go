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
	"dsol/internal/protocol"
	"dsol/internal/rating"
	"dsol/internal/store"
)

// playToResign has both seats draw n times each (or recycle, when their
// stock is empty), in turn, step apart (a pause more before the last
// draw), and then the first resign: each seat's median gap is 2 steps.
func (ts *raceServer) playToResign(tb testing.TB, id string, resigner, other *client, n int, step, pause time.Duration) rview {
	tb.Helper()
	empty := map[*client]bool{}
	for i := range n {
		if i == n-1 {
			ts.tc.Advance(pause)
		}
		for _, c := range []*client{resigner, other} {
			a := klondike.Simple(klondike.Draw)
			if empty[c] {
				a = klondike.Simple(klondike.Recycle)
			}
			v := c.mustRaceAct(tb, id, a)
			empty[c] = v.Seats[*v.You-1].Stock == 0
			ts.tc.Advance(step)
		}
	}
	return resigner.mustRaceAct(tb, id, klondike.Simple(klondike.Resign))
}

// playRated plays a race to the first seat's resignation as the rating
// rules take a race to be played: rating.MinActions draws of each seat, a
// second apart, which lasts longer than rating.MinPlay.
func (ts *raceServer) playRated(tb testing.TB, id string, resigner, other *client) rview {
	tb.Helper()
	return ts.playToResign(tb, id, resigner, other, rating.MinActions, 2*time.Second, 0)
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
// again, as after a crash before its status write); each rule of package
// rating that keeps a race unrated is met by a race flagged so.
func TestRatedRaces(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustRaceServer(t, st)
		ada, bob, cy := ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t)
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

		n, sec := rating.MinActions, time.Second
		for _, tc := range []struct {
			name        string
			body        map[string]any
			n           int
			step, pause time.Duration
			flag        string
		}{
			{"chosen deal", map[string]any{"code": "DR1-D1UI-HELLOXY"}, n, 2 * sec, 0, rating.FlagChosenDeal},
			{"resigned at once", map[string]any{}, 0, 2 * sec, 0, rating.FlagTooShort},
			{"too few actions", map[string]any{}, n - 1, 4 * sec, 0, rating.FlagTooShort},
			{"too short a time", map[string]any{}, n, sec, 0, rating.FlagTooShort},
			{"too fast", map[string]any{}, n, 100 * time.Millisecond, rating.MinPlay, rating.FlagTooFast},
		} {
			id := joined(t, ada, cy, tc.body)
			end := ts.playToResign(t, id, ada, cy, tc.n, tc.step, tc.pause)
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
		ts.playRated(t, id, ada, bob)
		rr, err := decision(id)
		if err != nil || !rr.Rated || rr.Flag != "" || rr.MedianGap != [2]time.Duration{4 * sec, 4 * sec} {
			t.Fatalf("decision %+v, %v; want rated, median gaps of 4s", rr, err)
		}
		ra, rb := mustRating(t, st, ada.id), mustRating(t, st, bob.id)
		if ra.Rating >= 1500 || rb.Rating <= 1500 || ra.Races != 1 || rb.Races != 1 || ra != rr.After[0] || rb != rr.After[1] {
			t.Fatalf("after the race: ada %+v (resigned), bob %+v", ra, rb)
		}
		want := []protocol.SeatRating{{Before: 1500, After: game.RoundRating(ra.Rating), Provisional: true}, {Before: 1500, After: game.RoundRating(rb.Rating), Provisional: true}}
		view := bob.mustView(t, id)
		if fmt.Sprint(view.Ratings) != fmt.Sprint(want) {
			t.Fatalf("view ratings %v, want %v", view.Ratings, want)
		}
		var me meJSON
		bob.MustJSON(t, "GET", "/api/v1/me", nil, 200, &me)
		if me.Rating != game.RoundRating(rb.Rating) || me.RatingDeviation != game.RoundRating(rb.Deviation) || !me.Provisional {
			t.Fatalf("GET /api/v1/me = %+v, want rating %.1f (%.1f), provisional", me, rb.Rating, rb.Deviation)
		}
		var stats struct {
			Race struct {
				Rating      int
				Provisional bool
			}
		}
		bob.MustJSON(t, "GET", "/api/v1/me/stats", nil, 200, &stats)
		if stats.Race.Rating != game.RoundRating(rb.Rating) || !stats.Race.Provisional {
			t.Fatalf("GET /api/v1/me/stats race = %+v, want %.1f, provisional", stats.Race, rb.Rating)
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
