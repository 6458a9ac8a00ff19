package httpapi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/daily"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/matchmaking"
	"dsol/internal/rating"
	"dsol/internal/store"
)

// mustEarlierPlay has c play a solo game of daily.EarlierActions actions
// (draws, recycling when the stock runs out), so that from the next day on
// c ranks on the daily challenges.
func (c *client) mustEarlierPlay(tb testing.TB) {
	tb.Helper()
	var v view
	c.MustJSON(tb, "POST", "/api/v1/games", map[string]any{"draw": 1, "scoring": "normal"}, 201, &v)
	for range daily.EarlierActions {
		a := klondike.Simple(klondike.Draw)
		if v.Stock == 0 {
			a = klondike.Simple(klondike.Recycle)
		}
		v = c.mustAct(tb, v.ID, a)
	}
}

// playPaced plays line in game id, step apart on the server's clock.
func (ts *testServer) playPaced(tb testing.TB, c *client, id string, line []klondike.Action, step time.Duration) {
	tb.Helper()
	for _, a := range line {
		ts.clock.Advance(step)
		c.mustAct(tb, id, a)
	}
}

// leaderboardAnswer decodes GET /api/v1/daily/{day}/{mode}/leaderboard.
type leaderboardAnswer struct {
	Entries []leaderboardRow
	You     *leaderboardRow
	Players int
}

type leaderboardRow struct {
	Rank     *int
	Won      bool
	Clean    bool
	Ranked   bool
	Unranked string
	Player   struct{ ID string }
}

// TestDailyClose: a daily game started before its day closed and played
// after the close (its code now public, its deal solvable offline) takes
// no action, over REST or its socket, nor a hint or the live check; its view
// says closed, shows the code and stays in play; the leaderboard and the
// streak count no win of it. A win stored before the close counts.
func TestDailyClose(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ts := mustServer(t, open(t))
		early, late := ts.mustPlayer(t), ts.mustPlayer(t)
		early.mustEarlierPlay(t)
		late.mustEarlierPlay(t)
		ts.clock.Advance(24 * time.Hour) // 2030-01-03 03:04:05: both rank today
		day := daily.Day(ts.clock.Now())
		_, end, _ := daily.Bounds(day)

		// early wins a minute before the close.
		ve, _ := early.mustStartDaily(t, "D1N", 201)
		line := winLine(t, dailyCode(t, ts.store, ve.ID))
		vl, _ := late.mustStartDaily(t, "D1N", 201) // no move before the close
		ts.clock.Advance(end.Sub(ts.clock.Now()) - time.Minute - time.Duration(len(line))*time.Second)
		ts.playPaced(t, early, ve.ID, line, time.Second)
		ts.waitStored(t, ve.ID, "won")

		ts.clock.Advance(time.Minute) // the day has closed
		d, _ := late.mustDaily(t, "/api/v1/daily/"+day)
		code := d.Challenges[0].Code
		if code == "" || code != dailyCode(t, ts.store, vl.ID).String() {
			t.Fatalf("the closed day's code %q", code)
		}
		// The socket, then REST, then hints and the live check: all refused.
		ws := late.Dial(t, "/api/v1/games/"+vl.ID+"/ws", nil)
		var state struct {
			Type string          `json:"type"`
			Game json.RawMessage `json:"game"`
		}
		ws.ReadJSON(&state)
		var sv struct {
			Status string `json:"status"`
			Closed bool   `json:"closed"`
			Code   string `json:"code"`
		}
		json.Unmarshal(state.Game, &sv)
		if state.Type != "state" || sv.Status != game.Playing || !sv.Closed || sv.Code != code {
			t.Fatalf("the closed game's socket state: %s", state.Game)
		}
		ws.Act("a1", string(line[0].AppendJSON(nil)))
		var rej struct {
			Type  string
			ID    string
			Error struct{ Code, Message string }
		}
		ws.ReadJSON(&rej)
		if rej.Type != "reject" || rej.ID != "a1" || rej.Error.Code != string(game.GameOver) || !strings.Contains(rej.Error.Message, "closed") {
			t.Fatalf("an action after the close on the socket: %+v", rej)
		}
		for _, a := range line {
			late.MustError(t, "POST", "/api/v1/games/"+vl.ID+"/actions", map[string]any{"action": a}, 409, game.GameOver)
		}
		late.MustError(t, "GET", "/api/v1/games/"+vl.ID+"/hint", nil, 409, game.GameOver)
		late.MustError(t, "POST", "/api/v1/games/"+vl.ID+"/check", map[string]bool{"on": true}, 409, game.GameOver)
		var gv struct {
			Status string `json:"status"`
			Seq    int64  `json:"seq"`
			Closed bool   `json:"closed"`
			Code   string `json:"code"`
		}
		late.MustJSON(t, "GET", "/api/v1/games/"+vl.ID, nil, 200, &gv)
		if gv.Status != game.Playing || gv.Seq != 0 || !gv.Closed || gv.Code != code {
			t.Fatalf("the closed game's view: %+v", gv)
		}
		if acts, err := ts.store.Actions(t.Context(), vl.ID, 0); err != nil || len(acts) != 0 {
			t.Fatalf("the closed game stored %d actions (%v)", len(acts), err)
		}
		// The early win is in the leaderboard and the streak; the late
		// player has neither.
		var lb leaderboardAnswer
		late.MustJSON(t, "GET", "/api/v1/daily/"+day+"/D1N/leaderboard", nil, 200, &lb)
		if len(lb.Entries) != 2 || lb.Entries[0].Player.ID != early.id || lb.Entries[0].Rank == nil || *lb.Entries[0].Rank != 1 ||
			lb.You == nil || lb.You.Won || lb.You.Rank != nil {
			t.Fatalf("leaderboard after the close: %+v", lb)
		}
		var stats struct{ Daily struct{ Current, Best int } }
		early.MustJSON(t, "GET", "/api/v1/me/stats", nil, 200, &stats)
		if stats.Daily.Current != 1 {
			t.Fatalf("early's streak: %+v", stats.Daily)
		}
		late.MustJSON(t, "GET", "/api/v1/me/stats", nil, 200, &stats)
		if stats.Daily.Best != 0 {
			t.Fatalf("late's streak: %+v", stats.Daily)
		}
	})
}

// TestDailyRanks: accounts made the day before, without play on an earlier
// day, see the deal but do not rank (new_account); a scripted win faster
// than a person plays is kept but not ranked (too_fast); a win at a
// person's pace by an account with earlier play ranks.
func TestDailyRanks(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ts := mustServer(t, open(t))
		human, script := ts.mustPlayer(t), ts.mustPlayer(t)
		human.mustEarlierPlay(t)
		script.mustEarlierPlay(t)
		bulk := []*client{ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t)}
		ts.clock.Advance(24 * time.Hour)
		day := daily.Day(ts.clock.Now())

		// The bulk accounts look at the deal; one draws through the stock
		// without help, another wins it.
		v, _ := bulk[0].mustStartDaily(t, "D1N", 201)
		line := winLine(t, dailyCode(t, ts.store, v.ID))
		ts.playPaced(t, bulk[0], v.ID, line, 2*time.Second)
		v, _ = bulk[1].mustStartDaily(t, "D1N", 201)
		for range 30 {
			ts.clock.Advance(time.Second)
			bulk[1].mustAct(t, v.ID, klondike.Simple(klondike.Draw))
		}
		// The script wins at machine pace; the human at a person's.
		v, _ = script.mustStartDaily(t, "D1N", 201)
		ts.playPaced(t, script, v.ID, line, 10*time.Millisecond)
		ts.waitStored(t, v.ID, "won")
		v, _ = human.mustStartDaily(t, "D1N", 201)
		ts.playPaced(t, human, v.ID, line, 3*time.Second)
		ts.waitStored(t, v.ID, "won")

		want := map[string]string{bulk[0].id: store.UnrankedNewAccount, bulk[1].id: store.UnrankedNewAccount,
			script.id: store.UnrankedTooFast, human.id: ""}
		for _, c := range []*client{bulk[0], bulk[1], script, human} {
			var lb leaderboardAnswer
			c.MustJSON(t, "GET", "/api/v1/daily/"+day+"/D1N/leaderboard", nil, 200, &lb)
			if lb.Players != 1 || len(lb.Entries) != 1 || lb.Entries[0].Player.ID != human.id || *lb.Entries[0].Rank != 1 {
				t.Fatalf("leaderboard: %+v; want the human alone, first", lb)
			}
			if lb.You == nil || lb.You.Unranked != want[c.id] || lb.You.Ranked != (want[c.id] == "") {
				t.Fatalf("%s's own entry %+v, want unranked %q", c.id, lb.You, want[c.id])
			}
			d, _ := c.mustDaily(t, "/api/v1/daily")
			if u := d.Challenges[0].Unranked; u != want[c.id] {
				t.Fatalf("%s's daily page says unranked %q, want %q", c.id, u, want[c.id])
			}
		}
	})
}

// TestRatedPairLimit: the same two players are rated rating.PairPerDay
// times in a rating.PairWindow; the next race is kept unrated
// (pair_limit), and once the window has passed they are rated again.
func TestRatedPairLimit(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustRaceServer(t, st)
		ada, bob := ts.mustPlayer(t), ts.mustPlayer(t)
		race := func() store.RaceRating {
			t.Helper()
			id := joined(t, ada, bob, map[string]any{})
			ts.playRated(t, id, ada, bob)
			ts.waitStored(t, id, "over")
			rr, err := st.RaceRating(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			return rr
		}
		for i := range rating.PairPerDay {
			if rr := race(); !rr.Rated {
				t.Fatalf("race %d of the pair: %+v, want rated", i+1, rr)
			}
		}
		before := mustRating(t, st, ada.id)
		if rr := race(); rr.Rated || rr.Flag != rating.FlagPairLimit {
			t.Fatalf("race %d of the pair: %+v, want flagged %s", rating.PairPerDay+1, rr, rating.FlagPairLimit)
		}
		if r := mustRating(t, st, ada.id); r != before {
			t.Fatalf("the race over the limit moved ada: %+v → %+v", before, r)
		}
		ts.tc.Advance(rating.PairWindow)
		if rr := race(); !rr.Rated {
			t.Fatalf("a race a day later: %+v, want rated", rr)
		}
	})
}

// TestRatingFarm plays the farming script: an established player's second
// accounts resign at once, or after a few actions 160 ms apart, and fresh
// accounts play the rules' least race against it; the established rating
// moves by at most a few points.
func TestRatingFarm(t *testing.T) {
	st := apitest.SQLite(t)
	ts := mustRaceServer(t, st)
	main := ts.mustPlayer(t)
	established := store.Rating{Rating: 1600, Deviation: 60, Volatility: 0.06}
	mustSetRating(t, st, main.id, established)
	established.Races = 1
	for i := range 7 {
		farm := ts.mustPlayer(t)
		id := joined(t, main, farm, map[string]any{})
		switch i % 3 {
		case 0: // resigns at once
			farm.mustRaceAct(t, id, klondike.Simple(klondike.Resign))
		case 1: // a few actions, paced
			ts.playToResign(t, id, farm, main, 4, 160*time.Millisecond, 0)
		case 2: // the least race the rules rate
			ts.playRated(t, id, farm, main)
		}
		ts.waitStored(t, id, "over")
	}
	r := mustRating(t, st, main.id)
	if d := r.Rating - established.Rating; d < 0 || d > 1 {
		t.Fatalf("farming moved the established rating by %+.1f (%+v)", d, r)
	}
}

// mustSetRating gives a player a rating, as a rated race against a
// stand-in would have.
func mustSetRating(tb testing.TB, st store.Store, id string, r store.Rating) {
	tb.Helper()
	ctx := tb.Context()
	other := store.Player{ID: "standin-" + id, Name: "Stand-in", TokenHash: []byte("standin-" + id), CreatedAt: time.Unix(0, 0)}
	if err := st.CreatePlayer(ctx, other); err != nil {
		tb.Fatal(err)
	}
	g := store.Game{ID: "rated-" + id, Kind: "race", Code: "DR1-D1U-AAAAAAB", Status: "over", Seats: [2]string{id, other.ID},
		Result: []byte(`{"winner":1}`), Salt: make([]byte, 16), CreatedAt: time.Unix(0, 0), UpdatedAt: time.Unix(0, 0)}
	if err := st.CreateGame(ctx, g); err != nil {
		tb.Fatal(err)
	}
	if err := st.FinishRace(ctx, g, func(current [2]store.Rating, _ int) *store.RaceRating {
		return &store.RaceRating{Players: g.Seats, Rated: true, Before: current, After: [2]store.Rating{r, current[1]}, At: g.UpdatedAt}
	}); err != nil {
		tb.Fatal(err)
	}
}

// errorWithGame decodes an error answer with the game it names.
type errorWithGame struct {
	Error struct {
		Code    game.Code
		Message string
		Game    string
	}
}

// TestOneRaceAtATime: quick match and the lobby seat a player in one race
// at a time: queuing again, or joining a public race, while in a race is
// refused with the race named; a player who got into a race while waiting
// leaves the queue when paired (told idle); an invite, or a host's own
// public race, still seats a player in a race.
func TestOneRaceAtATime(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ts := mustRaceServer(t, open(t))
		ada, bob, cy, dan, eve, fay, gus := ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t),
			ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t)
		ada.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 1}, 202, nil)
		var r rview
		bob.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 1}, 201, &r)

		for _, c := range []*client{ada, bob} {
			var e errorWithGame
			c.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 1}, 409, &e)
			if e.Error.Code != game.Conflict || e.Error.Game != r.ID {
				t.Fatalf("queuing again while in a race: %+v", e)
			}
		}
		listed := cy.mustRace(t, map[string]any{"public": true})
		var e errorWithGame
		ada.MustJSON(t, "POST", "/api/v1/races/"+listed.ID+"/join", nil, 409, &e)
		if e.Error.Code != game.Conflict || e.Error.Game != r.ID {
			t.Fatalf("joining from the lobby while in a race: %+v", e)
		}
		// A host's public race is joined while the host plays another: they
		// asked for both; so is a race by invite.
		hosted := ada.mustRace(t, map[string]any{"public": true})
		dan.MustJSON(t, "POST", "/api/v1/races/"+hosted.ID+"/join", nil, 200, nil)
		invited := dan.mustRace(t, map[string]any{"public": false})
		ada.MustJSON(t, "POST", "/api/v1/races/"+invited.ID+"/join", map[string]string{"invite": invited.Invite}, 200, nil)

		// eve waits, then joins fay's race from the lobby: when gus comes,
		// eve leaves the queue instead of being seated twice.
		eve.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 3}, 202, nil)
		eveWS := eve.Dial(t, "/api/v1/match/ws", nil)
		var m matchmaking.Message
		if eveWS.ReadJSON(&m); m.Type != "waiting" {
			t.Fatalf("eve's match socket: %+v", m)
		}
		fays := fay.mustRace(t, map[string]any{"public": true})
		eve.MustJSON(t, "POST", "/api/v1/races/"+fays.ID+"/join", nil, 200, nil)
		gus.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 3}, 202, nil)
		if eveWS.ReadJSON(&m); m.Type != "idle" {
			t.Fatalf("eve's match socket after she got into a race: %+v, want idle", m)
		}
		if n := ts.games.MatchWaiting(); n != 1 {
			t.Fatalf("%d waiting; want gus alone", n)
		}
	})
}
