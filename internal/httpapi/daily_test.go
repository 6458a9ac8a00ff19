package httpapi

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/cards"
	"dsol/internal/daily"
	"dsol/internal/klondike"
	"dsol/internal/solver"
	"dsol/internal/store"
)

// dailyAnswer decodes GET /api/v1/daily.
type dailyAnswer struct {
	Day        string
	ClosesAt   time.Time
	Challenges []struct {
		Mode, Scoring, State, Code, Unranked string
		Draw, Players                        int
		Game                                 *string
		Rank                                 *int
	}
	Streak struct{ Current, Best int }
}

// dailyView is a daily game's view with its keys, to tell a missing code.
type dailyView struct {
	view
	Daily string
	keys  map[string]json.RawMessage
}

func (c *client) mustDaily(tb testing.TB, path string) (dailyAnswer, []byte) {
	tb.Helper()
	var d dailyAnswer
	raw := c.MustJSON(tb, "GET", path, nil, 200, &d)
	return d, raw
}

// mustStartDaily posts POST /api/v1/daily/{mode} and wants status.
func (c *client) mustStartDaily(tb testing.TB, mode string, status int) (dailyView, []byte) {
	tb.Helper()
	var v dailyView
	raw := c.MustJSON(tb, "POST", "/api/v1/daily/"+mode, nil, status, &v)
	json.Unmarshal(raw, &v.keys)
	return v, raw
}

// dailyCode is the stored code of a daily game.
func dailyCode(tb testing.TB, st store.Store, game string) cards.Code {
	tb.Helper()
	g, err := st.Game(tb.Context(), game)
	if err != nil {
		tb.Fatal(err)
	}
	return mustCode(tb, g.Code)
}

// winLine is the solver's winning line of a code.
func winLine(tb testing.TB, c cards.Code) []klondike.Action {
	tb.Helper()
	res := solver.New().SolveCode(c, solver.Options{MaxPositions: daily.Budget, Short: true})
	if res.Verdict != solver.Won {
		tb.Fatalf("the daily deal %s is not won by the solver", c)
	}
	if len(res.Moves) > klondike.MaxActions/2 {
		tb.Fatalf("the daily deal %s is won in %d actions, more than a test plays", c, len(res.Moves))
	}
	return res.Moves
}

// TestDailySameDeal: two players get today's challenge of each mode, the
// same stored secret DS2 deal (the same first view), a daily game with no
// code in its view.
func TestDailySameDeal(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustServer(t, st)
		a, b := ts.mustPlayer(t), ts.mustPlayer(t)
		d, _ := a.mustDaily(t, "/api/v1/daily")
		if d.Day != "2030-01-02" || !d.ClosesAt.Equal(time.Date(2030, 1, 3, 0, 0, 0, 0, time.UTC)) || len(d.Challenges) != 2 {
			t.Fatalf("daily %+v", d)
		}
		for i, m := range daily.Modes {
			c := d.Challenges[i]
			if c.Mode != m.Name || c.Draw != m.Draw || c.Scoring != "normal" || c.State != "new" || c.Game != nil || c.Rank != nil || c.Players != 0 || c.Code != "" {
				t.Fatalf("challenge %d: %+v", i, c)
			}
			va, _ := a.mustStartDaily(t, m.Name, 201)
			vb, _ := b.mustStartDaily(t, m.Name, 201)
			for _, v := range []dailyView{va, vb} {
				if _, ok := v.keys["code"]; ok || v.Daily != d.Day || v.Draw != m.Draw {
					t.Fatalf("a daily view: %s", v.keys)
				}
			}
			ca, cb := dailyCode(t, st, va.ID), dailyCode(t, st, vb.ID)
			if ca != cb || !ca.Secret || ca.Kind != cards.Solo || ca.Draw != m.Draw {
				t.Fatalf("%s: codes %s and %s", m.Name, ca, cb)
			}
			va.ID, vb.ID = "", ""
			ja, _ := json.Marshal(va.view)
			jb, _ := json.Marshal(vb.view)
			if string(ja) != string(jb) {
				t.Fatalf("%s: first views differ:\n%s\n%s", m.Name, ja, jb)
			}
		}
		cs, err := st.DailyChallenges(t.Context(), d.Day)
		if err != nil || len(cs) != 2 {
			t.Fatalf("stored %+v, %v", cs, err)
		}
		// Bad requests.
		a.MustError(t, "POST", "/api/v1/daily/D1V", nil, 404, "not_found")
		a.MustError(t, "GET", "/api/v1/daily/2030-13-01", nil, 400, "bad_request")
		a.MustError(t, "GET", "/api/v1/daily/2029-12-31", nil, 404, "not_found")
		a.MustError(t, "GET", "/api/v1/daily/2030-01-02/D1N/leaderboard?limit=0", nil, 400, "bad_request")
		a.MustError(t, "GET", "/api/v1/daily/2030-01-02/D2N/leaderboard", nil, 404, "not_found")
		a.MustError(t, "GET", "/api/v1/daily/2029-12-31/D1N/leaderboard", nil, 404, "not_found")
	})
}

// TestDailyOneGame: a second POST gives the player's game back (200), even
// once won, and two concurrent POSTs make one game.
func TestDailyOneGame(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustServer(t, st)
		a := ts.mustPlayer(t)
		first, _ := a.mustStartDaily(t, "D1N", 201)
		line := winLine(t, dailyCode(t, st, first.ID))
		a.mustAct(t, first.ID, line[0])
		again, _ := a.mustStartDaily(t, "D1N", 200)
		if again.ID != first.ID || again.Seq != 1 {
			t.Fatalf("again: %+v, first %s", again.view, first.ID)
		}
		for _, m := range line[1:] {
			a.mustAct(t, first.ID, m)
		}
		won, _ := a.mustStartDaily(t, "D1N", 200)
		if won.ID != first.ID || won.Status != "won" {
			t.Fatalf("after the win: %+v", won.view)
		}
		d, _ := a.mustDaily(t, "/api/v1/daily")
		if c := d.Challenges[0]; c.State != "won" || c.Game == nil || *c.Game != first.ID || c.Players != 0 || c.Rank != nil {
			t.Fatalf("won today (a player made today is unranked): %+v", c)
		}
		if c := d.Challenges[1]; c.State != "new" {
			t.Fatalf("D3N: %+v", c)
		}

		b := ts.mustPlayer(t)
		var wg sync.WaitGroup
		ids, codes := make([]string, 2), make([]int, 2)
		for i := range ids {
			wg.Go(func() {
				st, raw := b.Do(t, "POST", "/api/v1/daily/D3N", nil)
				var v view
				json.Unmarshal(raw, &v)
				ids[i], codes[i] = v.ID, st
			})
		}
		wg.Wait()
		slices.Sort(codes)
		if ids[0] == "" || ids[0] != ids[1] || codes[0] != 200 || codes[1] != 201 {
			t.Fatalf("concurrent POSTs: games %v, statuses %v", ids, codes)
		}
		gs, err := st.ListGames(t.Context(), store.GameQuery{Player: b.id})
		if err != nil || len(gs) != 1 {
			t.Fatalf("games of b: %v, %v", gs, err)
		}
	})
}

// TestDailySecret plays a daily game to a win over the REST API and a
// socket and checks that no answer or frame names its code or the code's
// secret while the day is open (the listing, the export, the replay, the
// daily endpoints, the leaderboard, a hint); once the day has closed, the
// code is in GET /api/v1/daily/{day} and the replay.
func TestDailySecret(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	p := ts.mustPlayer(t)
	ts.clock.Advance(24 * time.Hour) // made the day before, without play: unranked (TestDailyRanks)
	v, raw := p.mustStartDaily(t, "D1N", 201)
	code := dailyCode(t, ts.store, v.ID)
	header := store.Game{Code: code.String()}
	answers := [][]byte{raw}
	frames := make(chan []byte, 1024)
	ws := p.Dial(t, "/api/v1/games/"+v.ID+"/ws", nil)
	go func() {
		for {
			_, b, err := ws.Conn.Read(context.Background())
			if err != nil {
				close(frames)
				return
			}
			frames <- b
		}
	}()
	get := func(path string, status int) {
		t.Helper()
		got, raw := p.Do(t, "GET", path, nil)
		if got != status {
			t.Fatalf("GET %s: %d, want %d: %s", path, got, status, raw)
		}
		if status < 400 {
			answers = append(answers, raw)
		} else if strings.Contains(strings.ToLower(string(raw)), strings.ToLower(code.String()[8:])) {
			t.Fatalf("GET %s names the secret: %s", path, raw)
		}
	}
	get("/api/v1/games/"+v.ID+"/hint", 200)
	for i, m := range winLine(t, code) {
		ts.clock.Advance(time.Second) // at a person's pace
		_, raw := p.Do(t, "POST", "/api/v1/games/"+v.ID+"/actions", map[string]any{"action": m})
		answers = append(answers, raw)
		if i == 3 {
			get("/api/v1/games/"+v.ID+"/replay", 403)
		}
	}
	ts.waitStored(t, v.ID, "won")
	get("/api/v1/games/"+v.ID, 200)
	get("/api/v1/games/"+v.ID+"/replay", 403)
	get("/api/v1/games", 200)
	get("/api/v1/me/export", 200)
	get("/api/v1/me/stats", 200)
	get("/api/v1/daily", 200)
	get("/api/v1/daily/2030-01-03", 200)
	get("/api/v1/daily/2030-01-03/D1N/leaderboard", 200)
	for _, raw := range answers {
		mustNotName(t, raw, header)
	}
	var export struct {
		Games []struct {
			ID      string
			Actions []json.RawMessage
		}
	}
	json.Unmarshal(answers[len(answers)-5], &export)
	if len(export.Games) != 1 || len(export.Games[0].Actions) != 0 {
		t.Fatalf("the export shows a daily game's actions while its day is open: %+v", export)
	}
	ws.Conn.CloseNow()
	n := 0
	for f := range frames {
		mustNotName(t, f, header)
		n++
	}
	if n < 2 {
		t.Fatalf("only %d frames", n)
	}

	var lb leaderboardAnswer
	p.MustJSON(t, "GET", "/api/v1/daily/2030-01-03/D1N/leaderboard", nil, 200, &lb)
	if len(lb.Entries) != 0 || lb.Players != 0 || lb.You == nil || lb.You.Rank != nil || !lb.You.Won || lb.You.Clean ||
		lb.You.Ranked || lb.You.Unranked != store.UnrankedNewAccount || lb.You.Player.ID != p.id {
		t.Fatalf("leaderboard after an assisted win: %+v", lb)
	}

	// The day closes: the code shows.
	ts.clock.Advance(24 * time.Hour)
	d, _ := p.mustDaily(t, "/api/v1/daily/2030-01-03")
	if d.Challenges[0].Code != code.String() || d.Challenges[0].State != "won" || d.Challenges[0].Rank != nil {
		t.Fatalf("closed day: %+v", d)
	}
	var rp struct{ Code string }
	p.MustJSON(t, "GET", "/api/v1/games/"+v.ID+"/replay", nil, 200, &rp)
	if rp.Code != code.String() {
		t.Fatalf("replay code %q", rp.Code)
	}
	var list struct{ Games []struct{ Code string } }
	p.MustJSON(t, "GET", "/api/v1/games", nil, 200, &list)
	if list.Games[0].Code != code.String() {
		t.Fatalf("listing after the day: %+v", list)
	}
}

// TestDailyStreak: a win today and one yesterday make a streak of 2, in
// GET /api/v1/daily and /me/stats; a new day makes new challenges.
func TestDailyStreak(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	p := ts.mustPlayer(t)
	win := func(mode string) {
		t.Helper()
		v, _ := p.mustStartDaily(t, mode, 201)
		for _, m := range winLine(t, dailyCode(t, ts.store, v.ID)) {
			p.mustAct(t, v.ID, m)
		}
		ts.waitStored(t, v.ID, "won")
	}
	win("D1N")
	first, _ := p.mustDaily(t, "/api/v1/daily")
	if first.Streak.Current != 1 || first.Streak.Best != 1 {
		t.Fatalf("streak %+v", first.Streak)
	}
	ts.clock.Advance(24 * time.Hour)
	next, _ := p.mustDaily(t, "/api/v1/daily")
	if next.Day != "2030-01-03" || next.Streak.Current != 1 || next.Challenges[0].State != "new" {
		t.Fatalf("the next day: %+v", next)
	}
	old, err := ts.store.DailyChallenges(t.Context(), first.Day)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := ts.store.DailyChallenges(t.Context(), next.Day)
	if err != nil || len(cur) != 2 || cur[0].Code == old[0].Code || cur[1].Code == old[1].Code {
		t.Fatalf("the new day's challenges %+v (yesterday %+v), %v", cur, old, err)
	}
	win("D3N")
	var stats struct{ Daily struct{ Current, Best int } }
	p.MustJSON(t, "GET", "/api/v1/me/stats", nil, 200, &stats)
	if stats.Daily.Current != 2 || stats.Daily.Best != 2 {
		t.Fatalf("stats daily %+v", stats.Daily)
	}
	ts.clock.Advance(48 * time.Hour) // a day missed: the streak is over
	d, _ := p.mustDaily(t, "/api/v1/daily")
	if d.Streak.Current != 0 || d.Streak.Best != 2 {
		t.Fatalf("after a missed day: %+v", d.Streak)
	}
}
