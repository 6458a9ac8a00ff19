package httpapi

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/matchmaking"
	"dsol/internal/protocol"
	"dsol/internal/rating"
	"dsol/internal/store"
)

// sockAct sends an action on a game socket and reads up to its ack.
func sockAct(tb testing.TB, ws *apitest.Socket, id string, a klondike.Action) {
	tb.Helper()
	ws.Act(id, string(a.AppendJSON(nil)))
	for {
		var m struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		}
		raw := ws.ReadJSON(&m)
		if m.Type == "reject" {
			tb.Fatalf("%s refused: %s", a.Type, raw)
		}
		if m.Type == "ack" && m.ID == id {
			return
		}
	}
}

// TestQuickMatch: two players on real sockets queue, are paired, play the
// race to its end over their game sockets, and both are rated.
func TestQuickMatch(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustRaceServer(t, st)
		ada, bob := ts.mustPlayer(t), ts.mustPlayer(t)

		for _, bad := range []any{map[string]any{"code": "DR1-D1UI-HELLOXY"}, map[string]any{"bot": "fast"},
			map[string]any{"public": false}, map[string]any{"public": true, "draw": 1},
			map[string]any{"draw": 2}, map[string]any{"turns": "x"}, "{"} {
			ada.MustError(t, "POST", "/api/v1/match", bad, 400, game.BadRequest)
		}

		var w matchWaiting
		ada.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 1}, 202, &w)
		if w.Status != "waiting" || w.BotAfterSeconds != 30 {
			t.Fatalf("waiting %+v", w)
		}
		ada.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 1}, 202, nil) // never paired with herself
		if n := ts.games.MatchWaiting(); n != 1 {
			t.Fatalf("%d waiting after one player queued twice", n)
		}
		adaWS := ada.Dial(t, "/api/v1/match/ws", nil)
		var m matchmaking.Message
		if adaWS.ReadJSON(&m); m.Type != "waiting" || m.Since == nil {
			t.Fatalf("ada's match socket: %+v", m)
		}

		// Not queued: idle, and the socket closes.
		bobWS := bob.Dial(t, "/api/v1/match/ws", nil)
		if bobWS.ReadJSON(&m); m.Type != "idle" {
			t.Fatalf("bob's match socket before queuing: %+v", m)
		}
		bobWS.MustClosed(websocket.StatusNormalClosure)

		// Other options do not pair; queuing again with ada's does.
		bob.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 3}, 202, nil)
		var v rview
		bob.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 1}, 201, &v)
		if v.Status != "playing" || v.You == nil || *v.You != 2 || v.Code != "" || v.Commit == "" ||
			v.Seats[0].Player.ID != ada.id || v.Seats[1].Player.ID != bob.id {
			t.Fatalf("paired race %+v", v)
		}
		if c := ts.storedCode(t, v.ID); !c.Secret || c.Draw != 1 {
			t.Fatalf("the paired race's deal is %s, not a server-dealt draw-1 deal", c)
		}
		if adaWS.ReadJSON(&m); m.Type != "matched" || m.Race != v.ID {
			t.Fatalf("ada's match socket after the pairing: %+v, want matched %s", m, v.ID)
		}
		adaWS.MustClosed(websocket.StatusNormalClosure)
		if n := ts.games.MatchWaiting(); n != 0 {
			t.Fatalf("%d still waiting", n)
		}

		// They play it on their game sockets, at a person's pace, to ada's resign.
		socks := map[*client]*apitest.Socket{}
		for _, c := range []*client{ada, bob} {
			g := c.Dial(t, "/api/v1/games/"+v.ID+"/ws", nil)
			var s struct {
				Type string `json:"type"`
				View rview  `json:"game"`
			}
			if g.ReadJSON(&s); s.Type != "state" || s.View.Status != "playing" {
				t.Fatalf("game socket: %+v", s)
			}
			socks[c] = g
		}
		for i := range rating.MinActions {
			for _, c := range []*client{ada, bob} {
				sockAct(t, socks[c], fmt.Sprintf("d%d", i), klondike.Simple(klondike.Draw))
				ts.tc.Advance(2 * time.Second)
			}
		}
		sockAct(t, socks[ada], "r", klondike.Simple(klondike.Resign))
		for {
			var n struct {
				Type    string                `json:"type"`
				Ratings []protocol.SeatRating `json:"ratings"`
			}
			if socks[bob].ReadJSON(&n); n.Type != "over" {
				continue
			}
			if len(n.Ratings) != 2 || n.Ratings[0].After >= 1500 || n.Ratings[1].After <= 1500 {
				t.Fatalf("the over notice's ratings %+v", n.Ratings)
			}
			break
		}
		rr, err := st.RaceRating(context.Background(), v.ID)
		if err != nil || !rr.Rated {
			t.Fatalf("the quick match was not rated: %+v, %v", rr, err)
		}
		if a, b := mustRating(t, st, ada.id), mustRating(t, st, bob.id); a.Races != 1 || b.Races != 1 || a.Rating >= b.Rating {
			t.Fatalf("ratings after the race: ada %+v, bob %+v", a, b)
		}

		// Leaving: DELETE answers idle, and the watching socket is told.
		ada.MustJSON(t, "POST", "/api/v1/match", map[string]any{}, 202, nil)
		adaWS = ada.Dial(t, "/api/v1/match/ws", nil)
		adaWS.ReadJSON(&m)
		ada.MustJSON(t, "DELETE", "/api/v1/match", nil, 200, nil)
		if adaWS.ReadJSON(&m); m.Type != "idle" {
			t.Fatalf("after DELETE: %+v", m)
		}
		adaWS.MustClosed(websocket.StatusNormalClosure)
		_, metrics := ts.anon().Do(t, "GET", "/metrics", nil)
		for _, want := range []string{"dsol_match_waiting 0", "dsol_match_wait_seconds_count 2"} {
			if !strings.Contains(string(metrics), want) {
				t.Errorf("/metrics lacks %q", want)
			}
		}
		if _, err := st.RaceRating(context.Background(), "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
	})
}

// TestNamesFiltered: a name strangers would see is refused when it is on
// the deny-list or looks like a reserved name: the bot's, a deleted
// player's.
func TestNamesFiltered(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	c := ts.mustPlayer(t)
	for _, bad := range []string{"Computer", "c0mpu7er", "C O M P U T E R", "Ordenador", "Kurwa", "f.u.c.k",
		"Сomputer", "ＣＯＭＰＵＴＥＲ", "Deleted player", "Usunięty gracz", "fuсk"} {
		var e errorBody
		c.MustJSON(t, "PATCH", "/api/v1/me", map[string]string{"name": bad}, 400, &e)
		if e.Error.Code != game.BadRequest || !strings.Contains(e.Error.Message, "choose another") {
			t.Errorf("PATCH name %q: %+v", bad, e.Error)
		}
		ts.anon().MustError(t, "POST", "/api/v1/players", map[string]string{"name": bad}, 400, game.BadRequest)
	}
	c.MustJSON(t, "PATCH", "/api/v1/me", map[string]string{"name": "Computadora Ada"}, 200, nil)
}
