package httpapi

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/cards"
	"dsol/internal/delta"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/players"
	"dsol/internal/solo"
	"dsol/internal/store"
)

// replayOut is a replay as the tests read it.
type replayOut struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Code    string `json:"code"`
	Salt    string `json:"salt"`
	Actions []struct {
		Seq    int64           `json:"seq"`
		Seat   int             `json:"seat"`
		Action json.RawMessage `json:"action"`
	} `json:"actions"`
	Start map[string]any   `json:"start"`
	Steps []map[string]any `json:"steps"`
}

// folded folds a replay's steps into its start view.
func (rp replayOut) folded(tb testing.TB) map[string]any {
	tb.Helper()
	v := rp.Start
	for i, d := range rp.Steps {
		if err := delta.Fold(v, rp.Actions[i].Seq, d); err != nil {
			tb.Fatalf("step %d: %v", i+1, err)
		}
	}
	return v
}

func viewMap(tb testing.TB, raw []byte) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestReplaySolo: a solo game's replay is refused to everyone, its player
// included, while it is played; once won, anyone signed in gets its code
// and actions, and folding the steps into the start gives the player's
// last view.
func TestReplaySolo(t *testing.T) {
	code, n := greedyWon(t)
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		ts := mustServer(t, open(t))
		ada, eve := ts.mustPlayer(t), ts.mustPlayer(t)
		v := ada.mustGame(t, code)
		mirror := mustSolo(t, code)
		var p greedy
		for i := 0; mirror.Status() != solo.Won; i++ {
			a, _ := p.next(mirror)
			if _, err := mirror.Apply(a); err != nil {
				t.Fatal(err)
			}
			p.played(a)
			ada.mustAct(t, v.ID, a)
			if i == 3 {
				ada.MustError(t, "GET", "/api/v1/games/"+v.ID+"/replay", nil, 403, game.Forbidden)
				eve.MustError(t, "GET", "/api/v1/games/"+v.ID+"/replay", nil, 403, game.Forbidden)
			}
		}
		var rp replayOut
		eve.MustJSON(t, "GET", "/api/v1/games/"+v.ID+"/replay", nil, 200, &rp)
		if rp.ID != v.ID || rp.Kind != "solo" || rp.Code != code || rp.Salt != "" || len(rp.Actions) != n || len(rp.Steps) != n {
			t.Fatalf("replay %s %s %s %q: %d actions, %d steps; want %d", rp.ID, rp.Kind, rp.Code, rp.Salt, len(rp.Actions), len(rp.Steps), n)
		}
		for i, a := range rp.Actions {
			if a.Seq != int64(i+1) || a.Seat != 1 {
				t.Fatalf("action %d: seq %d seat %d", i, a.Seq, a.Seat)
			}
		}
		if d, ok := rp.Start["columns"].([]any); !ok || len(d) != solo.Columns {
			t.Fatalf("start %v", rp.Start)
		}
		_, raw := ada.Do(t, "GET", "/api/v1/games/"+v.ID, nil)
		if got, want := rp.folded(t), viewMap(t, raw); !reflect.DeepEqual(got, want) {
			t.Fatalf("the folded replay\n%v\nis not the last view\n%v", got, want)
		}
		ada.MustError(t, "GET", "/api/v1/games/nope/replay", nil, 404, game.NotFound)
		ts.anon().MustError(t, "GET", "/api/v1/games/"+v.ID+"/replay", nil, 401, game.Unauthorized)
	})
}

// TestReplayRace: a race is refused while it is played and, once over,
// shows its code and salt (which check its commitment) and folds, as a
// spectator sees it, to the spectator's last view; its players' names are
// in the start.
func TestReplayRace(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob, eve := ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t)
	ada.MustJSON(t, "PATCH", "/api/v1/me", map[string]string{"name": "Ada"}, 200, nil)
	v := ada.mustRace(t, map[string]any{"draw": 1})
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
	for range 3 {
		ada.mustRaceAct(t, v.ID, klondike.Simple(klondike.Draw))
		bob.mustRaceAct(t, v.ID, klondike.Simple(klondike.Draw))
	}
	eve.MustError(t, "GET", "/api/v1/games/"+v.ID+"/replay", nil, 403, game.Forbidden)
	ada.MustError(t, "GET", "/api/v1/games/"+v.ID+"/replay", nil, 403, game.Forbidden)
	bob.mustRaceAct(t, v.ID, klondike.Simple(klondike.Resign))

	var rp replayOut
	eve.MustJSON(t, "GET", "/api/v1/games/"+v.ID+"/replay", nil, 200, &rp)
	if rp.Kind != "race" || len(rp.Actions) != 7 || rp.Actions[6].Seat != 2 {
		t.Fatalf("replay %+v", rp)
	}
	stored := ts.storedCode(t, v.ID)
	if rp.Code != stored.String() || cards.Commitment(rp.Code, mustHex(t, rp.Salt)) != v.Commit {
		t.Fatalf("replay code %s salt %s do not open the commitment %s", rp.Code, rp.Salt, v.Commit)
	}
	seats := rp.Start["seats"].([]any)
	if p := seats[0].(map[string]any)["player"].(map[string]any); p["name"] != "Ada" {
		t.Fatalf("start seat 1 %v", p)
	}
	got := rp.folded(t)
	_, raw := eve.Do(t, "GET", "/api/v1/games/"+v.ID, nil)
	want := viewMap(t, raw)
	for _, k := range []string{"status", "foundations", "result", "code", "salt"} {
		if !reflect.DeepEqual(got[k], want[k]) {
			t.Errorf("folded %s %v, the spectator's view %v", k, got[k], want[k])
		}
	}
	for i := range 2 {
		g, w := got["seats"].([]any)[i].(map[string]any), want["seats"].([]any)[i].(map[string]any)
		for _, k := range []string{"columns", "stock", "waste", "count"} {
			if !reflect.DeepEqual(g[k], w[k]) {
				t.Errorf("seat %d: folded %s %v, the spectator's view %v", i+1, k, g[k], w[k])
			}
		}
	}
}

func mustHex(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) < 16 {
		tb.Fatalf("salt %q: %v", s, err)
	}
	return b
}

// TestListGamesPages: the caller's games come a page at a time, newest
// first, by kind; each page starts after the last one of the page before,
// and bad filters are refused by name.
func TestListGamesPages(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	c := ts.mustPlayer(t)
	var made []string
	for range 5 {
		made = append([]string{c.mustGame(t, "DS1-D1N-AAAAAAB").ID}, made...)
		ts.clock.Advance(time.Second) // creation times apart, as players make them
	}
	type page struct {
		Games []players.GameSummary
		Next  string
	}
	var got []string
	path := "/api/v1/games?kind=solo&limit=2"
	for n := 0; path != ""; n++ {
		var p page
		c.MustJSON(t, "GET", path, nil, 200, &p)
		if n < 2 && (len(p.Games) != 2 || p.Next == "") || n == 2 && (len(p.Games) != 1 || p.Next != "") || n > 2 {
			t.Fatalf("page %d: %d games, next %q", n+1, len(p.Games), p.Next)
		}
		for _, g := range p.Games {
			got = append(got, g.ID)
		}
		path = ""
		if p.Next != "" {
			path = "/api/v1/games?kind=solo&limit=2&cursor=" + p.Next
		}
	}
	if !reflect.DeepEqual(got, made) {
		t.Fatalf("pages gave %v, want newest first %v", got, made)
	}
	var races page
	c.MustJSON(t, "GET", "/api/v1/games?kind=race", nil, 200, &races)
	if len(races.Games) != 0 {
		t.Fatalf("races %+v", races)
	}
	for _, bad := range []string{"kind=cards", "limit=0", "limit=101", "limit=two", "cursor=nope", "cursor=" + base64.RawURLEncoding.EncodeToString([]byte("12.")), "status=lost"} {
		c.MustError(t, "GET", "/api/v1/games?"+bad, nil, 400, game.BadRequest)
	}
}
