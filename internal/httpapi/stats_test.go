package httpapi

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/solo"
	"dsol/internal/store"
)

// statsKeys are the keys every solo entry and the race object carry.
var (
	soloStatsKeys = []string{"draw", "scoring", "played", "won", "winRate", "streak", "bestStreak", "bestScore",
		"fastestWin", "fewestMoves", "clean", "assisted", "recent"}
	raceStatsKeys = []string{"played", "won", "lost", "drawn", "rating", "bot"}
)

// mustStats gets the caller's statistics, checks that every key is there
// and that the four solo modes come in order, and decodes them.
func (c *client) mustStats(tb testing.TB, method, path string) statsJSON {
	tb.Helper()
	raw := c.MustJSON(tb, method, path, nil, 200, nil)
	var keys struct {
		Solo  []map[string]json.RawMessage `json:"solo"`
		Race  map[string]json.RawMessage   `json:"race"`
		Since *json.RawMessage             `json:"since"`
	}
	if err := json.Unmarshal(raw, &keys); err != nil {
		tb.Fatalf("%s: %v", raw, err)
	}
	if len(keys.Solo) != 4 || keys.Race == nil {
		tb.Fatalf("stats %s: want 4 solo modes and a race object", raw)
	}
	for i, m := range keys.Solo {
		for _, k := range soloStatsKeys {
			if _, ok := m[k]; !ok {
				tb.Fatalf("solo entry %d has no %q: %s", i, k, raw)
			}
		}
	}
	for _, k := range raceStatsKeys {
		if _, ok := keys.Race[k]; !ok {
			tb.Fatalf("race has no %q: %s", k, raw)
		}
	}
	var st statsJSON
	if err := json.Unmarshal(raw, &st); err != nil {
		tb.Fatal(err)
	}
	want := []struct {
		draw    int
		scoring string
	}{{1, "normal"}, {1, "vegas"}, {3, "normal"}, {3, "vegas"}}
	for i, w := range want {
		if st.Solo[i].Draw != w.draw || st.Solo[i].Scoring != w.scoring {
			tb.Fatalf("solo entry %d is draw %d %s, want %d %s", i, st.Solo[i].Draw, st.Solo[i].Scoring, w.draw, w.scoring)
		}
	}
	return st
}

func TestStats(t *testing.T) {
	code, n := greedyWon(t)
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ts := mustServer(t, open(t))
		ts.anon().MustError(t, "GET", "/api/v1/me/stats", nil, 401, game.Unauthorized)
		ts.anon().MustError(t, "POST", "/api/v1/me/stats/reset", nil, 401, game.Unauthorized)
		c := ts.mustPlayer(t)

		st := c.mustStats(t, "GET", "/api/v1/me/stats")
		if st.Since != nil || st.Race.Rating != int(store.StartRating().Rating) || st.Race.Played != 0 {
			t.Fatalf("a new player's stats: %+v", st)
		}
		for _, m := range st.Solo {
			if m.Played != 0 || m.BestScore != nil || m.FastestWin != nil || m.FewestMoves != nil || len(m.Recent) != 0 {
				t.Fatalf("a new player's mode: %+v", m)
			}
		}

		// A won game (two seconds between its actions) and, later, a game
		// of draw 3 Vegas with one draw and an undo, still in play.
		v := c.mustGame(t, code)
		mirror := mustSolo(t, code)
		var p greedy
		for mirror.Status() != solo.Won {
			a, _ := p.next(mirror)
			mirror.Apply(a)
			p.played(a)
			ts.clock.Advance(2 * time.Second)
			c.mustAct(t, v.ID, a)
		}
		vegas := cards.Code{Kind: cards.Solo, Draw: 3, Vegas: true, Deal: 5}.String()
		c.mustGame(t, cards.Code{Kind: cards.Solo, Draw: 3, Deal: 5}.String()) // never played
		v2 := c.mustGame(t, vegas)
		c.mustAct(t, v2.ID, klondike.Simple(klondike.Draw))
		last := c.mustAct(t, v2.ID, klondike.Simple(klondike.Undo))

		st = c.mustStats(t, "GET", "/api/v1/me/stats")
		d1 := st.Solo[0]
		wantPlay := int64(2 * (n - 1))
		if d1.Played != 1 || d1.Won != 1 || d1.WinRate != 1 || d1.Streak != 1 || d1.BestStreak != 1 ||
			d1.Clean != 1 || d1.Assisted != 0 || d1.FewestMoves == nil || *d1.FewestMoves != mirror.Moves() ||
			d1.BestScore == nil || *d1.BestScore != mirror.Score() || d1.FastestWin == nil || *d1.FastestWin != wantPlay {
			t.Fatalf("draw 1 after a win in %d moves, score %d, %d s: %+v", mirror.Moves(), mirror.Score(), wantPlay, d1)
		}
		if len(d1.Recent) != 1 || !d1.Recent[0].Won || d1.Recent[0].Seconds == nil || *d1.Recent[0].Seconds != wantPlay {
			t.Fatalf("draw 1 recent: %+v", d1.Recent)
		}
		d3 := st.Solo[3]
		if d3.Played != 1 || d3.Won != 0 || d3.WinRate != 0 || st.Solo[2].Played != 0 || len(d3.Recent) != 1 {
			t.Fatalf("draw 3: %+v, %+v", st.Solo[2], d3)
		}
		if r := d3.Recent[0]; r.Won || !r.Playing || r.Score == nil || *r.Score != last.Score || r.Moves == nil || *r.Moves != last.Moves {
			t.Fatalf("draw 3 Vegas, in play: %+v, want score %d, moves %d", r, last.Score, last.Moves)
		}

		// The reset: nothing counts any more until a game is started after it.
		st = c.mustStats(t, "POST", "/api/v1/me/stats/reset")
		if st.Since == nil || !st.Since.Equal(ts.clock.Now()) {
			t.Fatalf("since %v, want %v", st.Since, ts.clock.Now())
		}
		if i := slices.IndexFunc(st.Solo, func(m soloStatsJSON) bool { return m.Played != 0 }); i >= 0 {
			t.Fatalf("after the reset, mode %d: %+v", i, st.Solo[i])
		}
		ts.clock.Advance(time.Second)
		v3 := c.mustGame(t, vegas)
		c.mustAct(t, v3.ID, klondike.Simple(klondike.Draw))
		if st = c.mustStats(t, "GET", "/api/v1/me/stats"); st.Solo[3].Played != 1 || st.Solo[0].Played != 0 {
			t.Fatalf("a game after the reset: %+v", st.Solo)
		}
	})
}
