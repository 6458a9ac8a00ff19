package ws_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/httpapi"
	"dsol/internal/lobby"
	"dsol/internal/metrics"
	"dsol/internal/players"
	"dsol/internal/service"
	"dsol/internal/store"
	"dsol/internal/ws"
)

// lobbyEnv is a server node with a lobby socket; several may share a store.
type lobbyEnv struct {
	*env
	lobby *ws.LobbyHandler
}

// mustLobbyEnv starts a node over st whose hub reloads every refresh.
func mustLobbyEnv(tb testing.TB, st store.Store, refresh time.Duration) *lobbyEnv {
	tb.Helper()
	m := metrics.New()
	com := store.NewCommitter(st, time.Millisecond, 0, m.ObserveCommit)
	hub := lobby.NewHub(lobby.Config{Store: st, Refresh: refresh})
	games := service.New(service.Config{Store: st, Committer: com, Clock: time.Now, LobbyChanged: hub.Changed})
	sockets := ws.NewHandler(ws.Deps{Games: games, Player: httpapi.PlayerID, Metrics: m})
	lob := ws.NewLobbyHandler(ws.LobbyDeps{Hub: hub,
		Player: httpapi.PlayerID, Metrics: m, Config: ws.Config{OriginPatterns: []string{"app.example.com"}}})
	h := httpapi.NewServer(httpapi.Deps{Players: players.New(players.Config{Store: st, Random: rand.Reader}), Games: games, Lobby: hub,
		Metrics: m, Clock: time.Now, Sockets: httpapi.Sockets{Games: sockets, Lobby: lob}, Config: httpapi.Config{WriteBurst: 1 << 20, WriteRate: 1 << 20}})
	e := &lobbyEnv{env: &env{Server: httptest.NewServer(h), games: games, com: com, sockets: sockets, metrics: m}, lobby: lob}
	tb.Cleanup(e.stop)
	return e
}

// stop shuts the lobby down first, then the rest as dsol serve does.
func (e *lobbyEnv) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	e.lobby.Shutdown(ctx)
	e.env.stop()
}

// lobbyMsg is a frame of the lobby socket.
type lobbyMsg struct {
	Type  string       `json:"type"`
	Races []lobby.Race `json:"races"`
}

// ids lists the race ids of a lobby frame.
func (m lobbyMsg) ids() string {
	out := make([]string, len(m.Races))
	for i, r := range m.Races {
		out[i] = r.ID
	}
	return strings.Join(out, ",")
}

// mustDialLobby opens the lobby socket of a node.
func (p *player) mustDialLobby(tb testing.TB) *conn {
	tb.Helper()
	return &conn{Socket: p.Dial(tb, "/api/v1/lobby/ws", nil), tb: tb}
}

// mustLobby reads the next frame, a lobby list.
func (c *conn) mustLobby() lobbyMsg {
	c.tb.Helper()
	m := c.mustReadType("lobby")
	var l lobbyMsg
	if err := json.Unmarshal(m.raw, &l); err != nil {
		c.tb.Fatal(err)
	}
	if l.Races == nil {
		c.tb.Fatalf("%s: races is not a list", m.raw)
	}
	return l
}

// mustRaceID creates a race and returns its id.
func (p *player) mustRaceID(tb testing.TB, body string) string {
	tb.Helper()
	return p.mustRace(tb, body).ID
}

// TestLobbySocket follows the lobby through creation, join and cancel: the
// list on connect, then a new list at every change, never a private race.
func TestLobbySocket(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustLobbyEnv(t, st, time.Hour)
		ada, bob, cy := e.mustPlayer(t), e.mustPlayer(t), e.mustPlayer(t)
		first := ada.mustRaceID(t, `{"draw":3,"turns":"alternating","first":"creator","series":3}`)

		c := bob.mustDialLobby(t)
		l := c.mustLobby()
		if l.ids() != first || l.Races[0].Creator.ID != ada.id || l.Races[0].Draw != 3 ||
			l.Races[0].Turns != "alternating" || l.Races[0].First != "creator" || l.Races[0].Series != 3 {
			t.Fatalf("on connect %+v", l)
		}
		var rest struct {
			Races []lobby.Race `json:"races"`
		}
		bob.MustJSON(t, "GET", "/api/v1/lobby", "", 200, &rest)
		if got, _ := json.Marshal(rest.Races); string(got) != mustMarshal(t, l.Races) {
			t.Fatalf("socket %s, REST %s", mustMarshal(t, l.Races), got)
		}

		private := ada.mustRaceID(t, `{"public":false}`)
		second := cy.mustRaceID(t, `{}`)
		if l = c.mustLobby(); l.ids() != first+","+second {
			t.Fatalf("after a public race: %s, want %s,%s (never the private %s)", l.ids(), first, second, private)
		}

		bob.MustJSON(t, "POST", "/api/v1/races/"+first+"/join", "", 200, nil)
		if l = c.mustLobby(); l.ids() != second {
			t.Fatalf("after the join: %s, want %s", l.ids(), second)
		}

		// Cancel: only the creator, only while waiting.
		ada.MustJSON(t, "POST", "/api/v1/races/"+second+"/cancel", "", 403, nil)
		ada.MustJSON(t, "POST", "/api/v1/races/"+first+"/cancel", "", 409, nil)
		var v struct {
			Status    string
			Cancelled bool
			Result    json.RawMessage
		}
		cy.MustJSON(t, "POST", "/api/v1/races/"+second+"/cancel", "", 200, &v)
		if v.Status != "over" || !v.Cancelled || string(v.Result) != "null" {
			t.Fatalf("cancelled view %+v (result %s)", v, v.Result)
		}
		if l = c.mustLobby(); l.ids() != "" {
			t.Fatalf("after the cancel: %s, want none", l.ids())
		}
		cy.MustJSON(t, "POST", "/api/v1/races/"+second+"/cancel", "", 200, nil) // again: harmless
		ada.MustJSON(t, "POST", "/api/v1/races/"+second+"/join", "", 409, nil)
		cy.MustJSON(t, "POST", "/api/v1/races/"+second+"/rematch", "", 409, nil)
		cy.MustJSON(t, "GET", "/api/v1/games/"+second, "", 200, &v)
		if v.Status != "over" || !v.Cancelled {
			t.Fatalf("cancelled race reloaded %+v", v)
		}

		// Pings are answered; anything else is refused and changes nothing.
		if got := c.sync(); len(got) != 0 {
			t.Fatalf("before the pong: %v", got)
		}
		c.Send(`{"type":"action","id":"a","action":{"type":"draw"}}`)
		if m := c.mustReadType("reject"); m.Error.Code != "bad_request" {
			t.Fatalf("reject %s", m.raw)
		}
		if n := e.lobby.Open(); n != 1 {
			t.Fatalf("%d lobby sockets open, want 1", n)
		}
	})
}

// TestLobbySocketCancelNotifiesWaitingRoom: the creator's game socket on a
// cancelled race hears {"type":"over"} and the view says over.
func TestLobbySocketCancelNotifiesWaitingRoom(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustLobbyEnv(t, st, time.Hour)
		ada := e.mustPlayer(t)
		id := ada.mustRaceID(t, `{}`)
		g := ada.mustDial(t, id, "")
		if m := g.mustReadType("state"); !strings.Contains(string(m.Game), `"status":"waiting"`) {
			t.Fatalf("state %s", m.raw)
		}
		g.sync()
		ada.MustJSON(t, "POST", "/api/v1/races/"+id+"/cancel", "", 200, nil)
		if m := g.next(); m.Type != "over" || len(m.Result) != 0 && string(m.Result) != "null" {
			t.Fatalf("over %s", m.raw)
		}
		g.Send(`{"type":"action","id":"a1","action":{"type":"draw"}}`)
		if m := g.next(); m.Type != "reject" || m.Error.Code != "game_over" {
			t.Fatalf("action on a cancelled race: %s", m.raw)
		}
	})
}

// TestLobbySocketConverges: a race created on another node reaches this
// node's lobby sockets by the periodic reload.
func TestLobbySocketConverges(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		a := mustLobbyEnv(t, st, 50*time.Millisecond)
		b := mustLobbyEnv(t, st, time.Hour)
		bob := a.mustPlayer(t)
		c := bob.mustDialLobby(t)
		if l := c.mustLobby(); len(l.Races) != 0 {
			t.Fatalf("on connect %s", l.ids())
		}
		ada := b.mustPlayer(t)
		id := ada.mustRaceID(t, `{}`)
		if l := c.mustLobby(); l.ids() != id {
			t.Fatalf("from the other node: %s, want %s", l.ids(), id)
		}
	})
}

// TestLobbySocketRefusals: a foreign Origin, no player and too many sockets
// are refused before the upgrade with the API's JSON error.
func TestLobbySocketRefusals(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustLobbyEnv(t, st, time.Hour)
		ada := e.mustPlayer(t)
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		_, res, err := ada.Handshake(ctx, "/api/v1/lobby/ws", http.Header{"Origin": {"https://evil.example"}})
		if err == nil || res == nil || res.StatusCode != 403 || errorCode(t, res) != "forbidden" {
			t.Fatalf("foreign origin: %v %v", err, res)
		}
		_, res, err = ada.Handshake(ctx, "/api/v1/lobby/ws", http.Header{"Authorization": {"Bearer nope"}})
		if err == nil || res == nil || res.StatusCode != 401 {
			t.Fatalf("bad token: %v %v", err, res)
		}
		c, _, err := ada.Handshake(ctx, "/api/v1/lobby/ws", http.Header{"Origin": {"https://app.example.com"}})
		if err != nil {
			t.Fatalf("allowed origin: %v", err)
		}
		defer c.CloseNow()
		for range 7 {
			ada.mustDialLobby(t)
		}
		_, res, err = ada.Handshake(ctx, "/api/v1/lobby/ws", nil)
		if err == nil || res == nil || res.StatusCode != 429 || errorCode(t, res) != "rate_limited" {
			t.Fatalf("ninth socket: %v %v", err, res)
		}
	})
}

// TestLobbySocketShutdown: Shutdown closes lobby sockets with 1012 and
// refuses new ones; the gauge goes back to zero.
func TestLobbySocketShutdown(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustLobbyEnv(t, st, time.Hour)
		ada := e.mustPlayer(t)
		c := ada.mustDialLobby(t)
		c.mustLobby()
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		if err := e.lobby.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		if code, _ := c.mustClose(); code != websocket.StatusServiceRestart {
			t.Fatalf("close code %d, want 1012", code)
		}
		_, res, err := ada.Handshake(ctx, "/api/v1/lobby/ws", nil)
		if err == nil || res == nil || res.StatusCode != 503 {
			t.Fatalf("after shutdown: %v %v", err, res)
		}
		rec := httptest.NewRecorder()
		e.metrics.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		if !strings.Contains(rec.Body.String(), "dsol_lobby_connections 0") {
			t.Fatal("dsol_lobby_connections is not back to 0")
		}
	})
}

func mustMarshal(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}
