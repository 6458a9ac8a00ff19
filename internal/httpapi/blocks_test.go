package httpapi

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/apitest"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/lobby"
	"dsol/internal/matchmaking"
	"dsol/internal/store"
)

// mustErrorSays sends a request and checks the error's status, code and
// that its message holds want.
func (c *client) mustErrorSays(tb testing.TB, method, path string, status int, code game.Code, want string) {
	tb.Helper()
	var e errorBody
	c.MustJSON(tb, method, path, nil, status, &e)
	if e.Error.Code != code || !strings.Contains(e.Error.Message, want) {
		tb.Fatalf("%s %s: error %+v, want %s saying %q", method, path, e.Error, code, want)
	}
}

// blockedIDs lists the ids of GET /api/v1/me/blocks, checking the names.
func (c *client) blockedIDs(tb testing.TB) []string {
	tb.Helper()
	var l struct {
		Blocked []blockedPlayer `json:"blocked"`
	}
	c.MustJSON(tb, "GET", "/api/v1/me/blocks", nil, 200, &l)
	ids := []string{}
	for _, b := range l.Blocked {
		if b.Name == "" {
			tb.Fatalf("a blocked player without a name: %+v", l)
		}
		ids = append(ids, b.ID)
	}
	return ids
}

// lobbyIDs lists the ids of the races GET /api/v1/lobby shows the client.
func (c *client) lobbyIDs(tb testing.TB) []string {
	tb.Helper()
	var l struct {
		Races []lobby.Race `json:"races"`
	}
	c.MustJSON(tb, "GET", "/api/v1/lobby", nil, 200, &l)
	return raceIDs(l.Races)
}

func raceIDs(rs []lobby.Race) []string {
	ids := []string{}
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	return ids
}

// TestBlockREST: block and unblock answer 204 every time, the list shows
// the players blocked, the errors say what is wrong, the export lists the
// blocks and deleting a player takes their blocks both ways.
func TestBlockREST(t *testing.T) {
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		st := open(t)
		ts := mustRaceServer(t, st)
		ada, bob, cy := ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t)
		ada.mustRace(t, map[string]any{"bot": "fast"}) // the bot's row exists
		cy.MustJSON(t, "PATCH", "/api/v1/me", map[string]string{"name": "Cy"}, 200, nil)

		ts.anon().MustError(t, "POST", "/api/v1/players/"+bob.id+"/block", nil, 401, game.Unauthorized)
		ada.mustErrorSays(t, "POST", "/api/v1/players/"+ada.id+"/block", 400, game.BadRequest, "yourself")
		ada.mustErrorSays(t, "POST", "/api/v1/players/"+store.BotPlayerID+"/block", 400, game.BadRequest, "computer")
		ada.mustErrorSays(t, "DELETE", "/api/v1/players/"+store.BotPlayerID+"/block", 400, game.BadRequest, "computer")
		ada.mustErrorSays(t, "POST", "/api/v1/players/"+store.DeletedPlayerID+"/block", 400, game.BadRequest, "deleted")
		ada.mustErrorSays(t, "POST", "/api/v1/players/nobody/block", 404, game.NotFound, "no such player")
		ada.mustErrorSays(t, "DELETE", "/api/v1/players/nobody/block", 404, game.NotFound, "no such player")
		if ids := ada.blockedIDs(t); len(ids) != 0 {
			t.Fatalf("blocked before any block: %v", ids)
		}

		for range 2 {
			ada.MustJSON(t, "POST", "/api/v1/players/"+bob.id+"/block", nil, 204, nil)
		}
		ts.tc.Advance(time.Second)
		ada.MustJSON(t, "POST", "/api/v1/players/"+cy.id+"/block", nil, 204, nil)
		if ids := ada.blockedIDs(t); !slices.Equal(ids, []string{bob.id, cy.id}) {
			t.Fatalf("ada's blocks %v, want bob and cy", ids)
		}
		if ids := bob.blockedIDs(t); len(ids) != 0 {
			t.Fatalf("bob's blocks %v: he blocked nobody", ids)
		}
		var exp struct {
			Blocked []struct{ ID, Name, BlockedAt string } `json:"blocked"`
		}
		ada.MustJSON(t, "GET", "/api/v1/me/export", nil, 200, &exp)
		if len(exp.Blocked) != 2 || exp.Blocked[1].ID != cy.id || exp.Blocked[1].Name != "Cy" || exp.Blocked[1].BlockedAt == "" {
			t.Fatalf("the export's blocks %+v", exp.Blocked)
		}

		for range 2 {
			ada.MustJSON(t, "DELETE", "/api/v1/players/"+bob.id+"/block", nil, 204, nil)
		}
		if ids := ada.blockedIDs(t); !slices.Equal(ids, []string{cy.id}) {
			t.Fatalf("ada's blocks after unblocking bob %v", ids)
		}

		// cy blocks ada too; ada deletes her data: no block of or by her is left.
		cy.MustJSON(t, "POST", "/api/v1/players/"+ada.id+"/block", nil, 204, nil)
		ada.MustJSON(t, "DELETE", "/api/v1/me", nil, 204, nil)
		if ids := cy.blockedIDs(t); len(ids) != 0 {
			t.Fatalf("cy's blocks after ada left %v", ids)
		}
		if bs, err := st.BlocksAmong(t.Context(), []string{ada.id}); err != nil || len(bs) != 0 {
			t.Fatalf("blocks of the deleted player: %v, %v", bs, err)
		}
	})
}

// TestBlockLobby: a blocker does not see the blocked player's races, nor
// the blocked player the blocker's, in the list or on the lobby socket
// (which follows a block at once); others see both; joining is refused
// both ways until the block ends.
func TestBlockLobby(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob, cy := ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t)
	adaRace := ada.mustRace(t, map[string]any{})
	ts.tc.Advance(time.Second)
	bobRace := bob.mustRace(t, map[string]any{})
	both := []string{adaRace.ID, bobRace.ID}

	sock := bob.Dial(t, "/api/v1/lobby/ws", nil)
	var m lobby.Message
	if sock.ReadJSON(&m); !slices.Equal(raceIDs(m.Races), both) {
		t.Fatalf("bob's lobby socket before the block: %v", raceIDs(m.Races))
	}

	bob.MustJSON(t, "POST", "/api/v1/players/"+ada.id+"/block", nil, 204, nil)
	if ids := bob.lobbyIDs(t); !slices.Equal(ids, []string{bobRace.ID}) {
		t.Fatalf("the blocker's lobby %v, want his own race only", ids)
	}
	if ids := ada.lobbyIDs(t); !slices.Equal(ids, []string{adaRace.ID}) {
		t.Fatalf("the blocked player's lobby %v, want her own race only", ids)
	}
	if ids := cy.lobbyIDs(t); !slices.Equal(ids, both) {
		t.Fatalf("a third player's lobby %v, want both races", ids)
	}
	if sock.ReadJSON(&m); !slices.Equal(raceIDs(m.Races), []string{bobRace.ID}) {
		t.Fatalf("bob's lobby socket after the block: %v", raceIDs(m.Races))
	}

	bob.mustErrorSays(t, "POST", "/api/v1/races/"+adaRace.ID+"/join", 403, game.Forbidden, "you blocked this player")
	ada.mustErrorSays(t, "POST", "/api/v1/races/"+bobRace.ID+"/join", 403, game.Forbidden, "this player blocked you")
	var e errorBody
	ada.MustJSON(t, "POST", "/api/v1/races/"+bobRace.ID+"/join", map[string]string{"invite": bobRace.Invite}, 403, &e)
	if !strings.Contains(e.Error.Message, "blocked you") {
		t.Fatalf("joining with the invite: %+v", e.Error)
	}

	bob.MustJSON(t, "DELETE", "/api/v1/players/"+ada.id+"/block", nil, 204, nil)
	if sock.ReadJSON(&m); !slices.Equal(raceIDs(m.Races), both) {
		t.Fatalf("bob's lobby socket after the unblock: %v", raceIDs(m.Races))
	}
	bob.MustJSON(t, "POST", "/api/v1/races/"+adaRace.ID+"/join", nil, 200, nil)
	sock.Conn.Close(websocket.StatusNormalClosure, "")
}

// TestBlockRematch: after a block, neither player of a finished race can
// offer or accept its rematch; declining stays open.
func TestBlockRematch(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob := ts.mustPlayer(t), ts.mustPlayer(t)
	v := ada.mustRace(t, map[string]any{"public": false})
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/join", map[string]string{"invite": v.Invite}, 200, nil)
	ada.mustRaceAct(t, v.ID, klondike.Simple(klondike.Resign))
	path := "/api/v1/races/" + v.ID + "/rematch"
	ada.MustJSON(t, "POST", path, nil, 201, nil) // offered before the block
	bob.MustJSON(t, "POST", "/api/v1/players/"+ada.id+"/block", nil, 204, nil)
	bob.mustErrorSays(t, "POST", path, 403, game.Forbidden, "you blocked this player")
	ada.mustErrorSays(t, "POST", path, 403, game.Forbidden, "this player blocked you")
	var fin rview
	bob.MustJSON(t, "POST", "/api/v1/races/"+v.ID+"/decline", nil, 200, &fin)
	if g := mustStoredGame(t, ts, game.NextRaceID(v.ID)); g.Status != "over" {
		t.Fatalf("the declined rematch: %+v", g)
	}
}

func mustStoredGame(tb testing.TB, ts *raceServer, id string) store.Game {
	tb.Helper()
	g, err := ts.store.Game(tb.Context(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// TestQuickMatchBlocked: two players who would pair (same options, same
// rating) do not when one blocked the other; a third one pairs with the
// first waiting.
func TestQuickMatchBlocked(t *testing.T) {
	ts := mustRaceServer(t, apitest.SQLite(t))
	ada, bob, cy := ts.mustPlayer(t), ts.mustPlayer(t), ts.mustPlayer(t)
	bob.MustJSON(t, "POST", "/api/v1/players/"+ada.id+"/block", nil, 204, nil)

	ada.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 1}, 202, nil)
	adaWS := ada.Dial(t, "/api/v1/match/ws", nil)
	var m matchmaking.Message
	if adaWS.ReadJSON(&m); m.Type != "waiting" {
		t.Fatalf("ada's match socket: %+v", m)
	}
	ts.tc.Advance(time.Second) // ada waits longest
	bob.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 1}, 202, nil)
	bobWS := bob.Dial(t, "/api/v1/match/ws", nil)
	if bobWS.ReadJSON(&m); m.Type != "waiting" {
		t.Fatalf("bob's match socket: %+v", m)
	}
	ts.games.SweepQueue(t.Context())
	if n := ts.games.MatchWaiting(); n != 2 {
		t.Fatalf("%d waiting: the blocker and the blocked were paired", n)
	}

	var v rview
	cy.MustJSON(t, "POST", "/api/v1/match", map[string]any{"draw": 1}, 201, &v)
	if v.Seats[0].Player.ID != ada.id || v.Seats[1].Player.ID != cy.id {
		t.Fatalf("cy's race %+v, want one with ada", v.Seats)
	}
	if adaWS.ReadJSON(&m); m.Type != "matched" || m.Race != v.ID {
		t.Fatalf("ada's match socket after cy came: %+v", m)
	}
	if n := ts.games.MatchWaiting(); n != 1 {
		t.Fatalf("%d waiting, want bob alone", n)
	}
}
