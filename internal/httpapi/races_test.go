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
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/live"
	"dsol/internal/lobby"
	"dsol/internal/protocol"
	"dsol/internal/race"
	"dsol/internal/racelive"
	"dsol/internal/store"
	"dsol/internal/testenv"
)

// raceServer is a test server whose tables run their timers on its clock.
type raceServer struct {
	*testServer
	tc *apitest.Clock
}

func mustRaceServer(tb testing.TB, st store.Store) *raceServer {
	tb.Helper()
	ts := startServer(tb, st, time.Millisecond, true, nil)
	return &raceServer{testServer: ts, tc: ts.clock}
}

// rview is the race view as the tests read it.
type rview struct {
	ID     string `json:"id"`
	Seq    int64  `json:"seq"`
	Kind   string `json:"kind"`
	Code   string `json:"code"`
	Salt   string `json:"salt"`
	Commit string `json:"commitment"`
	Chosen bool   `json:"chosenDeal"`
	Status string `json:"status"`
	Turn   *int   `json:"turn"`
	You    *int   `json:"you"`
	Invite string `json:"invite"`
	Bot    string `json:"bot"`
	Seats  []struct {
		Player  *game.PlayerRef   `json:"player"`
		Columns []race.ColumnView `json:"columns"`
		Stock   int               `json:"stock"`
		Waste   []string          `json:"waste"`
		Count   int               `json:"count"`
		Online  bool              `json:"online"`
		ClaimAt *time.Time        `json:"claimAt"`
	} `json:"seats"`
	Foundations  [][]race.FoundationCard `json:"foundations"`
	Result       *race.ResultView        `json:"result"`
	ClaimAt      *time.Time              `json:"claimAt"`
	GraceSeconds int                     `json:"graceSeconds"`
	TurnDeadline *time.Time              `json:"turnDeadline"`
	OfferExpires *time.Time              `json:"offerExpires"`
	Series       protocol.SeriesView     `json:"series"`
	Cancelled    bool                    `json:"cancelled"`
	RematchOf    string                  `json:"rematchOf"`
	Rematch      *protocol.RematchView   `json:"rematch"`
	Ratings      []protocol.SeatRating   `json:"ratings"`
}

func (c *client) mustRace(tb testing.TB, body any) rview {
	tb.Helper()
	var v rview
	c.MustJSON(tb, "POST", "/api/v1/races", body, 201, &v)
	return v
}

func (c *client) mustView(tb testing.TB, id string) rview {
	tb.Helper()
	var v rview
	c.MustJSON(tb, "GET", "/api/v1/games/"+id, nil, 200, &v)
	return v
}

func (c *client) act(tb testing.TB, id string, a klondike.Action) (int, []byte) {
	tb.Helper()
	return c.Do(tb, "POST", "/api/v1/games/"+id+"/actions", map[string]json.RawMessage{"action": a.AppendJSON(nil)})
}

func (c *client) mustRaceAct(tb testing.TB, id string, a klondike.Action) rview {
	tb.Helper()
	var v rview
	c.MustJSON(tb, "POST", "/api/v1/games/"+id+"/actions", map[string]json.RawMessage{"action": a.AppendJSON(nil)}, 200, &v)
	return v
}

// storedCode is the code of a stored race, which its views do not show
// before it is over.
func (ts *testServer) storedCode(tb testing.TB, id string) cards.Code {
	tb.Helper()
	g, err := ts.store.Game(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := cards.ParseCode(g.Code)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// mustNoHidden fails when a raw answer of a race in play names its code,
// its secret or its salt, or shows a card that is face down or in a stock in
// the race's deal: it compares every card text the view shows against what
// may be visible.
func mustNoHidden(tb testing.TB, ts *testServer, raw []byte) {
	tb.Helper()
	var v rview
	if err := json.Unmarshal(raw, &v); err != nil || v.Kind != "race" {
		tb.Fatalf("not a race view: %v: %s", err, raw)
	}
	if v.Status == "over" {
		return
	}
	g, err := ts.store.Game(context.Background(), v.ID)
	if err != nil {
		tb.Fatal(err)
	}
	mustNotName(tb, raw, g)
	if v.Commit != cards.Commitment(g.Code, g.Salt) {
		tb.Fatalf("commitment %q does not bind the stored code and salt", v.Commit)
	}
	// Every face-up card shown must sit where the view says, and no view
	// may hold more cards than the deal's face-up ones allow: count checks.
	for s, seat := range v.Seats {
		shown := len(seat.Waste)
		for _, c := range seat.Columns {
			shown += len(c.Up)
		}
		total := shown + seat.Stock + seat.Count
		for _, c := range seat.Columns {
			total += c.Down
		}
		if total != race.CardsPerSeat {
			tb.Fatalf("seat %d accounts for %d cards", s+1, total)
		}
	}
	// Face-down cards of the deal never appear as text while still face down:
	// in a fresh view, a column's down count equals the deal's hidden prefix.
	code, err := cards.ParseCode(g.Code)
	if err != nil {
		tb.Fatal(err)
	}
	deal := race.DealOf(code)
	for s, seat := range v.Seats {
		for i, c := range seat.Columns {
			col := deal.Seats[s].Columns[i]
			for _, hidden := range col[:min(c.Down, len(col))] {
				if slices.Contains(c.Up, hidden) {
					tb.Fatalf("seat %d column %d shows its face-down %s", s+1, i+1, hidden)
				}
			}
		}
	}
	for _, key := range []string{"\"stockCards\"", "\"cards\""} {
		if strings.Contains(string(raw), key) {
			tb.Fatalf("view has %s: %s", key, raw)
		}
	}
}

func TestRaceCreateAndJoin(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ts := mustRaceServer(t, open(t))
		ada, bob, cy := ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t)

		priv := ada.mustRace(t, map[string]any{"draw": 3, "redeal": "single", "decks": "mirrored", "public": false})
		if priv.Invite == "" || priv.Status != "waiting" || priv.You == nil || *priv.You != 1 || priv.Kind != "race" {
			t.Fatalf("created %+v", priv)
		}
		if priv.Code != "" || priv.Salt != "" || priv.Chosen {
			t.Fatalf("a waiting race shows code %q, salt %q, chosen %v", priv.Code, priv.Salt, priv.Chosen)
		}
		if c := ts.storedCode(t, priv.ID); !c.Secret || !strings.HasPrefix(c.String(), "DR2-D3SM-") {
			t.Fatalf("the server dealt %s, not a secret deal", c)
		}
		g, err := ts.store.Game(context.Background(), priv.ID)
		if err != nil || string(g.InviteHash) == priv.Invite || len(g.InviteHash) != 32 {
			t.Fatalf("stored invite %x (%v)", g.InviteHash, err)
		}
		if again := ada.mustView(t, priv.ID); again.Invite != "" {
			t.Fatal("the invite is shown again")
		}
		path := "/api/v1/races/" + priv.ID + "/join"
		ada.MustError(t, "POST", path, map[string]string{"invite": priv.Invite}, 409, game.Conflict)
		bob.MustError(t, "POST", path, map[string]string{"invite": "nope"}, 403, game.Forbidden)
		bob.MustError(t, "POST", path, nil, 403, game.Forbidden)
		var joined rview
		bob.MustJSON(t, "POST", path, map[string]string{"invite": priv.Invite}, 200, &joined)
		if joined.Status != "playing" || *joined.You != 2 || joined.Seats[1].Player == nil || joined.Seats[1].Player.ID != bob.id || joined.Seats[0].Player.Name != "Ada" {
			t.Fatalf("joined %+v", joined)
		}
		cy.MustError(t, "POST", path, map[string]string{"invite": priv.Invite}, 409, game.Conflict)
		bob.MustJSON(t, "POST", path, nil, 200, nil) // joining again is harmless

		pub := ada.mustRace(t, map[string]any{"turns": "alternating", "first": "creator", "series": 3})
		bot := ada.mustRace(t, map[string]any{"bot": "fast"})
		if bot.Status != "playing" || bot.Seats[1].Player == nil || bot.Seats[1].Player.ID != store.BotPlayerID || bot.Invite != "" {
			t.Fatalf("bot race %+v", bot)
		}
		var lobby struct {
			Races []lobby.Race `json:"races"`
		}
		cy.MustJSON(t, "GET", "/api/v1/lobby", nil, 200, &lobby)
		if len(lobby.Races) != 1 || lobby.Races[0].ID != pub.ID || lobby.Races[0].Creator.Name != "Ada" ||
			lobby.Races[0].Turns != "alternating" || lobby.Races[0].Series != 3 || lobby.Races[0].Draw != 1 {
			t.Fatalf("lobby %+v", lobby)
		}
		cy.MustJSON(t, "POST", "/api/v1/races/"+pub.ID+"/join", nil, 200, nil)
		cy.MustJSON(t, "GET", "/api/v1/lobby", nil, 200, &lobby)
		if len(lobby.Races) != 0 {
			t.Fatalf("lobby after join %+v", lobby)
		}

		for _, bad := range []map[string]any{{"draw": 2}, {"code": "DS1-D1N-AAAAAAB"}, {"code": "DR1-D1UI-AAAAAAB", "draw": 1},
			{"series": 0}, {"turns": "x"}, {"bot": "warp"}, {"turnSeconds": 30}, {"first": "me"}} {
			code, raw := ada.Do(t, "POST", "/api/v1/races", bad)
			if code != 400 {
				t.Errorf("%v: %d %s", bad, code, raw)
			}
		}
		ada.MustError(t, "POST", "/api/v1/races/nope/join", nil, 404, game.NotFound)
	})
}

// TestRaceAlternatingByREST plays an alternating race between two players
// to its end, checking turns, spectators and hidden cards on every answer.
func TestRaceAlternatingByREST(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob, eve := ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t)
	v := ada.mustRace(t, map[string]any{"code": "DR1-D1UI-QWERTYU", "turns": "alternating", "first": "creator"})
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
	players := map[int]*client{1: ada, 2: bob}

	code := ts.storedCode(t, v.ID)
	shadow, err := race.New(code, race.Options{Turns: race.Alternating, First: race.FirstCreator, FirstSeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	var bot race.Bot
	for i := 0; i < 5000 && shadow.Status() == race.Playing; i++ {
		turn := shadow.Turn()
		// The player off turn is refused.
		if i%25 == 0 {
			players[3-turn].MustError(t, "POST", "/api/v1/games/"+v.ID+"/actions",
				map[string]any{"action": map[string]string{"type": "draw"}}, 409, game.NotYourTurn)
			eve.MustError(t, "POST", "/api/v1/games/"+v.ID+"/actions",
				map[string]any{"action": map[string]string{"type": "draw"}}, 403, game.Forbidden)
			_, raw := eve.Do(t, "GET", "/api/v1/games/"+v.ID, nil)
			mustNoHidden(t, ts.testServer, raw)
		}
		a, ok := bot.Next(shadow.Seen(turn))
		if !ok {
			t.Fatal("no action on turn")
		}
		if _, err := shadow.Apply(turn, a); err != nil {
			t.Fatal(err)
		}
		status, raw := players[turn].act(t, v.ID, a)
		if status != 200 {
			t.Fatalf("action %d %s: %d %s", i, a.AppendJSON(nil), status, raw)
		}
		mustNoHidden(t, ts.testServer, raw)
	}
	end := eve.mustView(t, v.ID)
	if end.Status != "over" || end.Result == nil || shadow.Status() != race.Over || end.Result.Counts != shadow.Result().Counts {
		t.Fatalf("end %+v %+v", end.Result, shadow.Result())
	}
	ada.MustError(t, "POST", "/api/v1/games/"+v.ID+"/actions", map[string]any{"action": map[string]string{"type": "resign"}}, 409, game.GameOver)
}

// tooLateDeal finds a mirrored deal whose face-up tops hold an ace and the
// two of its suit in both seats.
func tooLateDeal(tb testing.TB) (string, int, int) {
	for d := uint64(0); d < 5000; d++ {
		code := cards.Code{Kind: cards.Race, Draw: 1, Mirrored: true, Deal: d}
		deal := race.DealOf(code)
		tops := map[string]int{}
		for i, col := range deal.Seats[0].Columns {
			tops[col[len(col)-1]] = i + 1
		}
		for _, s := range "SHDC" {
			a, ok1 := tops["A"+string(s)]
			two, ok2 := tops["2"+string(s)]
			if ok1 && ok2 {
				return code.String(), a, two
			}
		}
	}
	tb.Fatal("no deal")
	return "", 0, 0
}

// TestRaceSimultaneousTooLate: both players send the same 2 onto the same
// slot at once; one wins the spot, the other gets too_late.
func TestRaceSimultaneousTooLate(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	code, ace, two := tooLateDeal(t)
	v := ada.mustRace(t, map[string]any{"code": code})
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
	after := ada.mustRaceAct(t, v.ID, klondike.NewMove(klondike.ColPile(ace-1), klondike.AnyF, 1))
	slot := -1
	for i, f := range after.Foundations {
		if len(f) == 1 {
			slot = i
		}
	}
	if slot < 0 {
		t.Fatalf("ace not on a foundation: %+v", after.Foundations)
	}
	move := klondike.NewMove(klondike.ColPile(two-1), klondike.F1+klondike.Pile(slot), 1)
	var wg sync.WaitGroup
	codes := make([]int, 2)
	bodies := make([][]byte, 2)
	for i, c := range []*client{ada, bob} {
		wg.Go(func() { codes[i], bodies[i] = c.act(t, v.ID, move) })
	}
	wg.Wait()
	slices.Sort(codes)
	if codes[0] != 200 || codes[1] != 409 {
		t.Fatalf("answers %v %s %s", codes, bodies[0], bodies[1])
	}
	late := bodies[0]
	if strings.Contains(string(late), `"seq"`) {
		late = bodies[1]
	}
	if !strings.Contains(string(late), `"too_late"`) {
		t.Fatalf("loser got %s", late)
	}
}

// TestRaceClaim: a claim is refused while the opponent is connected or
// within the grace period, and wins the race after it.
func TestRaceClaim(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	v := ada.mustRace(t, map[string]any{})
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
	claim := map[string]any{"action": map[string]string{"type": "claim"}}
	path := "/api/v1/games/" + v.ID + "/actions"
	ctx := context.Background()

	tb, err := ts.reg.Get(ctx, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := tb.Subscribe(ctx, 2, -1)
	if err != nil {
		t.Fatal(err)
	}
	if on, _ := tb.Presence(ctx); on != [2]bool{false, true} {
		t.Fatalf("presence %v", on)
	}
	if w := ada.mustView(t, v.ID); !w.Seats[1].Online || w.ClaimAt != nil || w.GraceSeconds != 60 {
		t.Fatalf("view %+v", w)
	}
	ts.tc.Advance(2 * time.Minute)
	ada.MustError(t, "POST", path, claim, 409, game.Conflict) // bob is connected
	sub.Close()
	w := ada.mustView(t, v.ID)
	if w.Seats[1].Online || w.ClaimAt == nil || !w.ClaimAt.Equal(ts.tc.Now().Add(time.Minute)) {
		t.Fatalf("claimAt %v, now %v", w.ClaimAt, ts.tc.Now())
	}
	ts.tc.Advance(59 * time.Second)
	ada.MustError(t, "POST", path, claim, 409, game.Conflict)
	ts.tc.Advance(time.Second)
	var end rview
	ada.MustJSON(t, "POST", path, claim, 200, &end)
	if end.Status != "over" || end.Result == nil || end.Result.Reason != "forfeit" || *end.Result.Winner != 1 {
		t.Fatalf("end %+v", end.Result)
	}
}

// TestRacePresenceNotices: subscribers hear of presence changes and of the
// end of the race.
func TestRacePresenceNotices(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	v := ada.mustRace(t, map[string]any{})
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
	ctx := context.Background()
	tb, _ := ts.reg.Get(ctx, v.ID)
	s1, err := tb.Subscribe(ctx, 1, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	f1 := testenv.NewFeed(s1.Take, s1.OnReady)
	if u := mustRecv(t, s1, f1); u.Notice == nil || u.Notice.Seat != 1 || !*u.Notice.Online {
		t.Fatalf("own presence %+v", u.Notice)
	}
	s2, _ := tb.Subscribe(ctx, 2, -1)
	u := mustRecv(t, s1, f1)
	if u.Notice == nil || u.Notice.Type != "presence" || u.Notice.Seat != 2 || !*u.Notice.Online {
		t.Fatalf("notice %+v", u.Notice)
	}
	s2.Close()
	u = mustRecv(t, s1, f1)
	if u.Notice == nil || *u.Notice.Online || u.Notice.ClaimAt == nil || u.Notice.GraceSeconds != 60 {
		t.Fatalf("notice %+v", u.Notice)
	}
	bob.mustRaceAct(t, v.ID, klondike.Simple(klondike.Resign))
	if u = mustRecv(t, s1, f1); u.Notice != nil || u.Frame.Event.Status != "over" {
		t.Fatalf("event %+v", u)
	}
	u = mustRecv(t, s1, f1)
	if u.Notice == nil || u.Notice.Type != "over" || !strings.Contains(string(u.Notice.Result), `"resign"`) {
		t.Fatalf("over %+v", u.Notice)
	}
}

// TestRaceTurnClock: when the turn clock runs out the server passes for the
// seat on turn, in the log like any action.
func TestRaceTurnClock(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	v := ada.mustRace(t, map[string]any{"turns": "alternating", "first": "opponent", "turnSeconds": 30})
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
	w := ada.mustView(t, v.ID)
	if *w.Turn != 2 || w.TurnDeadline == nil || !w.TurnDeadline.Equal(ts.tc.Now().Add(30*time.Second)) {
		t.Fatalf("turn %v deadline %v", w.Turn, w.TurnDeadline)
	}
	ts.tc.Advance(29 * time.Second)
	if w = ada.mustView(t, v.ID); *w.Turn != 2 {
		t.Fatal("passed early")
	}
	ts.tc.Advance(time.Second)
	w = ada.mustView(t, v.ID)
	if *w.Turn != 1 || w.Seq != 1 || !w.TurnDeadline.Equal(ts.tc.Now().Add(30*time.Second)) {
		t.Fatalf("after the clock: turn %v seq %d deadline %v", *w.Turn, w.Seq, w.TurnDeadline)
	}
	tb, _ := ts.reg.Get(context.Background(), v.ID)
	evs, _ := tb.EventsSince(context.Background(), 0)
	if len(evs) != 1 || evs[0].Seat != 2 || string(evs[0].Action) != `{"type":"pass"}` {
		t.Fatalf("log %+v", evs)
	}
	ts.tc.Advance(30 * time.Second)
	if w = ada.mustView(t, v.ID); *w.Turn != 2 || w.Seq != 2 {
		t.Fatalf("second pass: turn %v seq %d", *w.Turn, w.Seq)
	}
}

// TestRaceAgainstBot plays against the server's bot by REST to the end.
func TestRaceAgainstBot(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada := ts.mustPlayer(t)
	v := ada.mustRace(t, map[string]any{"code": "DR1-D1UI-HELLOXY", "turns": "alternating", "first": "creator", "bot": "normal"})
	code := ts.storedCode(t, v.ID)
	shadow, err := race.New(code, race.Options{Turns: race.Alternating, First: race.FirstCreator, FirstSeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var me race.Bot
	var applied int64
	for i := 0; i < 20000; i++ {
		tb, err := ts.reg.Get(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := tb.EventsSince(ctx, applied)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			a, err := klondike.DecodeAction(ev.Action)
			if err == nil {
				_, err = shadow.Apply(ev.Seat, a)
			}
			if err != nil {
				t.Fatalf("replay seq %d: %v", ev.Seq, err)
			}
			applied = ev.Seq
		}
		if shadow.Status() == race.Over {
			break
		}
		if shadow.Turn() == 2 {
			ts.tc.Advance(time.Second) // the bot thinks for 900ms
			continue
		}
		a, _ := me.Next(shadow.Seen(1))
		ada.mustRaceAct(t, v.ID, a)
	}
	end := ada.mustView(t, v.ID)
	if end.Status != "over" || end.Result == nil || end.Result.Counts != shadow.Result().Counts || end.Seats[1].Player.Name != game.BotName {
		t.Fatalf("end %+v", end)
	}
}

// TestRuleSeries: the optional series rule (its counts add up across the
// games, the higher total wins the series) as the tables keep it: a rematch
// is the next game of the series for both players, with the totals of the
// finished games, and the last one names the series' winner.
func TestRuleSeries(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob, eve := ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t)
	code, ace, _ := tooLateDeal(t)
	v := ada.mustRace(t, map[string]any{"code": code, "series": 2})
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
	ada.MustError(t, "POST", "/api/v1/races/"+v.ID+"/rematch", nil, 409, game.Conflict)
	ada.mustRaceAct(t, v.ID, klondike.NewMove(klondike.ColPile(ace-1), klondike.AnyF, 1))
	end := bob.mustRaceAct(t, v.ID, klondike.Simple(klondike.Resign))
	if end.Series.Index != 1 || end.Series.Games != 2 || end.Series.Totals != [2]int{1, 0} || end.Series.Done {
		t.Fatalf("series %+v", end.Series)
	}
	eve.MustError(t, "POST", "/api/v1/races/"+v.ID+"/rematch", nil, 403, game.Forbidden)
	var n1, n2 rview
	ada.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/rematch", nil, 201, &n1)
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/rematch", nil, 200, &n2)
	if n1.ID != n2.ID || n1.ID == v.ID || n1.Status != "waiting" || n2.Status != "playing" || *n1.You != 1 || *n2.You != 2 ||
		n1.Series.Index != 2 || n1.Series.ID != v.Series.ID || n1.Series.Totals != [2]int{1, 0} ||
		ts.storedCode(t, n1.ID) == ts.storedCode(t, v.ID) || !ts.storedCode(t, n1.ID).Secret || n1.Chosen {
		t.Fatalf("rematch %+v / %+v", n1, n2)
	}
	g, _ := ts.store.Game(context.Background(), n1.ID)
	if g.SeriesID != v.ID || g.SeriesGame != 2 || g.Seats != [2]string{ada.id, bob.id} {
		t.Fatalf("header %+v", g)
	}
	last := ada.mustRaceAct(t, n1.ID, klondike.Simple(klondike.Resign))
	if !last.Series.Done || last.Series.Winner == nil || *last.Series.Winner != 1 {
		t.Fatalf("series end %+v", last.Series)
	}
	var n3 rview
	bob.MustJSON(t, "POST", "/api/v1/races/"+n1.ID+"/rematch", nil, 201, &n3)
	if n3.Series.Index != 1 || n3.Series.Totals != [2]int{} || n3.Series.ID != n3.ID {
		t.Fatalf("new series %+v", n3.Series)
	}
}

// TestRaceRematchOffer: the first ask is an offer: the next race waits (no
// clock, no grace, no moves) and the finished race shows it to both; the
// opponent accepts by asking too, or declines, which ends the offered race
// as a cancelled one.
func TestRaceRematchOffer(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ts := mustRaceServer(t, open(t))
		ada, bob := ts.mustPlayer(t), ts.mustPlayer(t)
		finished := func() rview {
			v := ada.mustRace(t, map[string]any{"draw": 1})
			bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
			bob.mustRaceAct(t, v.ID, klondike.Simple(klondike.Resign))
			return v
		}
		v := finished()
		var offer rview
		bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/rematch", nil, 201, &offer)
		if offer.Status != "waiting" || offer.RematchOf != v.ID || offer.ClaimAt != nil || offer.Seats[0].ClaimAt != nil || offer.TurnDeadline != nil {
			t.Fatalf("offer %+v", offer)
		}
		for _, c := range []*client{ada, bob} {
			if old := c.mustView(t, v.ID); old.Rematch == nil || old.Rematch.ID != offer.ID || old.Rematch.By != 2 || old.Rematch.Status != "offered" ||
				old.Rematch.Expires == nil || offer.OfferExpires == nil || !old.Rematch.Expires.Equal(*offer.OfferExpires) {
				t.Fatalf("the finished race shows %+v (the offer expires %v)", old.Rematch, offer.OfferExpires)
			}
		}
		bob.MustError(t, "POST", "/api/v1/games/"+offer.ID+"/actions", map[string]any{"action": map[string]string{"type": "draw"}}, 409, game.Code(klondike.NotYourTurn))
		bob.MustError(t, "POST", "/api/v1/races/"+v.ID+"/decline", nil, 409, game.Conflict) // one's own offer
		ada.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/decline", nil, 200, nil)
		if o := bob.mustView(t, offer.ID); o.Status != "over" || !o.Cancelled || o.Result != nil {
			t.Fatalf("the declined race %+v", o)
		}
		if old := bob.mustView(t, v.ID); old.Rematch == nil || old.Rematch.Status != "declined" {
			t.Fatalf("after the decline the finished race shows %+v", old.Rematch)
		}
		ada.MustError(t, "POST", "/api/v1/races/"+v.ID+"/rematch", nil, 409, game.Conflict)
		ada.MustError(t, "POST", "/api/v1/races/"+v.ID+"/decline", nil, 409, game.Conflict)

		// Accepted: the race starts for both.
		w := finished()
		var a, b rview
		ada.MustJSON(t, "POST", "/api/v1/races/"+w.ID+"/rematch", nil, 201, &a)
		bob.MustJSON(t, "POST", "/api/v1/races/"+w.ID+"/rematch", nil, 200, &b)
		if a.Status != "waiting" || b.Status != "playing" || a.ID != b.ID {
			t.Fatalf("accepted: %s then %s", a.Status, b.Status)
		}
		if old := ada.mustView(t, w.ID); old.Rematch == nil || old.Rematch.Status != "accepted" || old.Rematch.By != 1 {
			t.Fatalf("after the accept the finished race shows %+v", old.Rematch)
		}
		bob.mustRaceAct(t, b.ID, klondike.Simple(klondike.Draw))
		bob.MustError(t, "POST", "/api/v1/races/"+w.ID+"/decline", nil, 409, game.Conflict)
	})
}

// TestRematchOfferLapses: an offer nobody answers lapses after its time:
// the offered race ends as a declined one, the finished race says the
// offer lapsed, and a late accept is refused.
func TestRematchOfferLapses(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	v := ada.mustRace(t, map[string]any{"draw": 1})
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
	bob.mustRaceAct(t, v.ID, klondike.Simple(klondike.Resign))
	var offer rview
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/rematch", nil, 201, &offer)
	if offer.OfferExpires == nil || offer.OfferExpires.Sub(ts.tc.Now()) != racelive.DefaultRematchTimeout {
		t.Fatalf("the offer expires at %v, now %v", offer.OfferExpires, ts.tc.Now())
	}
	ts.tc.Advance(racelive.DefaultRematchTimeout - time.Second)
	if o := ada.mustView(t, offer.ID); o.Status != "waiting" {
		t.Fatalf("a second before its time the offer is %s", o.Status)
	}
	ts.tc.Advance(time.Second)
	deadline := time.Now().Add(5 * time.Second)
	for {
		old := bob.mustView(t, v.ID)
		if old.Rematch != nil && old.Rematch.Status == "lapsed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after its time the finished race shows %+v", old.Rematch)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if o := ada.mustView(t, offer.ID); o.Status != "over" || !o.Cancelled || o.Result != nil || o.OfferExpires != nil {
		t.Fatalf("the lapsed offer %+v", o)
	}
	ada.MustError(t, "POST", "/api/v1/races/"+v.ID+"/rematch", nil, 409, game.Conflict)
}

// TestRaceRestart: a new server on the same database rebuilds a race,
// bot and turn clock included, identically.
func TestRaceRestart(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustRaceServer(t, st)
		ada, bob := ts.mustPlayer(t), ts.mustPlayer(t)
		v := ada.mustRace(t, map[string]any{"turns": "alternating", "first": "random", "turnSeconds": 60})
		bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
		for range 3 {
			ts.tc.Advance(time.Minute) // passes by the clock
		}
		before := ada.mustView(t, v.ID)
		if before.Seq != 3 {
			t.Fatalf("seq %d", before.Seq)
		}
		ts.stop()

		ts2 := mustRaceServer(t, st)
		ada.moveTo(ts2.testServer)
		after := ada.mustView(t, v.ID)
		// The turn clock and the grace count again from the restart.
		for _, v := range []*rview{&before, &after} {
			v.TurnDeadline, v.ClaimAt, v.Seats[0].ClaimAt, v.Seats[1].ClaimAt = nil, nil, nil, nil
		}
		b1, _ := json.Marshal(before)
		b2, _ := json.Marshal(after)
		if string(b1) != string(b2) {
			t.Fatalf("rebuilt\n%s\nwant\n%s", b2, b1)
		}
	})
}

// TestRaceStrongBot: "bot": "strong" is a race against the strong bot,
// which the view names; it moves once its think time has passed (its
// search runs off the table, in a hint slot), and a new server on the same database rebuilds the race as it
// was, the bot's level included.
func TestRaceStrongBot(t *testing.T) {
	st := apitest.SQLite(t)
	ts := mustRaceServer(t, st)
	ada := ts.mustPlayer(t)
	v := ada.mustRace(t, map[string]any{"bot": "strong", "turns": "alternating", "first": "opponent"})
	if v.Bot != "strong" || v.Seats[1].Player == nil || !v.Seats[1].Player.Bot || *v.Turn != 2 {
		t.Fatalf("race %+v", v)
	}
	if _, err := ts.reg.Get(context.Background(), v.ID); err != nil { // the table and its bot's timer
		t.Fatal(err)
	}
	ts.tc.Advance(time.Second) // the bot's think time; its search follows
	deadline := time.Now().Add(time.Minute)
	for v.Seq == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the strong bot did not move")
		}
		time.Sleep(10 * time.Millisecond)
		v = ada.mustView(t, v.ID)
	}
	if v.Seq != 1 {
		t.Fatalf("after the bot's think time: seq %d", v.Seq)
	}
	before := ada.mustView(t, v.ID)
	ts.stop()
	ts2 := mustRaceServer(t, st)
	ada.moveTo(ts2.testServer)
	after := ada.mustView(t, v.ID)
	for _, v := range []*rview{&before, &after} {
		v.ClaimAt, v.Seats[0].ClaimAt, v.Seats[1].ClaimAt = nil, nil, nil
	}
	b1, _ := json.Marshal(before)
	b2, _ := json.Marshal(after)
	if after.Bot != "strong" || string(b1) != string(b2) {
		t.Fatalf("rebuilt\n%s\nwant\n%s", b2, b1)
	}
}

// mustRecv waits up to 10 s for the next update of the subscription f reads.
func mustRecv(t *testing.T, s *live.Subscription, f *testenv.Feed[protocol.Update]) protocol.Update {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	u, ok := f.Recv(ctx)
	if !ok {
		t.Fatalf("no update: %v %v", ctx.Err(), s.Err())
	}
	return u
}
