package ws_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/coder/websocket"

	"dsol/internal/apitest"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// mustDevice signs another device in as p's player, with a transfer code:
// a client with a token of its own.
func (p *player) mustDevice(tb testing.TB) *player {
	tb.Helper()
	var l struct{ Code string }
	p.MustJSON(tb, "POST", "/api/v1/me/link", nil, 201, &l)
	var d struct{ ID, Token string }
	p.e.anon().MustJSON(tb, "POST", "/api/v1/link", map[string]string{"code": l.Code}, 201, &d)
	if d.ID != p.id {
		tb.Fatalf("the device signed in as %s, not %s", d.ID, p.id)
	}
	return &player{Client: apitest.NewClient(p.e.URL, p.e.Client(), d.Token), e: p.e, id: p.id, token: d.Token}
}

// on returns p's device as a client of another node of the same store.
func (p *player) on(e *env) *player {
	return &player{Client: apitest.NewClient(e.URL, e.Client(), p.token), e: e, id: p.id, token: p.token}
}

// queueOptions are the quick-match options of the cases of a test: a
// player signed out stays in the queue until 10 s after their match socket
// closed, and must not pair with the next case's.
var queueOptions = []map[string]any{{"draw": 1}, {"draw": 3}, {"draw": 1, "turns": "alternating"}}

// socket is one of a device's open sockets and how to read its first frame
// and check that it still answers.
type socket struct {
	what string
	c    *conn
}

// mustSockets opens a device's long-lived sockets on its node: the socket
// of a solo game, of a race when race is given, the lobby's and the match
// queue's (the player must be queued on that node), each past its first
// frame.
func (p *player) mustSockets(tb testing.TB, solo, race string) []socket {
	tb.Helper()
	var out []socket
	g := p.mustDial(tb, solo, "")
	g.mustReadType("state")
	out = append(out, socket{"game", g})
	if race != "" {
		r := &conn{Socket: p.Dial(tb, "/api/v1/races/"+race+"/ws", nil), tb: tb}
		if m := r.next(); m.Type != "state" {
			tb.Fatalf("race socket: %s", m.raw)
		}
		out = append(out, socket{"race", r})
	}
	l := p.mustDialLobby(tb)
	l.mustLobby()
	out = append(out, socket{"lobby", l})
	m := &conn{Socket: p.Dial(tb, "/api/v1/match/ws", nil), tb: tb}
	m.mustReadType("waiting")
	out = append(out, socket{"match", m})
	return out
}

// mustSignedOut reads each socket up to its close, which must be
// CloseSignedOut, with no ack among what came before.
func mustSignedOut(tb testing.TB, ss []socket) {
	tb.Helper()
	for _, s := range ss {
		code, seen := s.c.mustClose()
		if int(code) != protocol.CloseSignedOut {
			tb.Fatalf("%s socket closed with %d, want %d (signed out)", s.what, code, protocol.CloseSignedOut)
		}
		for _, m := range seen {
			if m.Type == "ack" || m.Type == "pong" {
				tb.Fatalf("%s socket answered after the revocation: %s", s.what, m.raw)
			}
		}
	}
}

// mustAnswer checks that each socket still answers a ping.
func mustAnswer(tb testing.TB, ss []socket) {
	tb.Helper()
	for _, s := range ss {
		s.c.Send(`{"type":"ping"}`)
		for {
			m := s.c.mustRead()
			if m.Type == "pong" {
				break
			}
		}
	}
}

// actNow sends an action on a socket without failing when the server has
// closed it meanwhile.
func actNow(c *conn, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	c.Conn.Write(ctx, websocket.MessageText, []byte(`{"type":"action","id":"`+id+`","action":{"type":"draw"}}`))
}

// mustNotStored checks that no action of id is in the game's log.
func mustNotStored(tb testing.TB, st store.Store, game, id string) {
	tb.Helper()
	acts, err := st.Actions(context.Background(), game, 0)
	if err != nil {
		tb.Fatal(err)
	}
	for _, a := range acts {
		if a.ClientID == id {
			tb.Fatalf("the action %s of a revoked device was stored (seq %d)", id, a.Seq)
		}
	}
}

// TestRevokeClosesSockets: signing out everywhere, signing one device out
// and deleting the player close, at once and with CloseSignedOut, the
// sockets on this node that the revoked tokens opened (game, race, lobby,
// match), and no action sent on them afterwards is applied or answered;
// the other device's sockets stay open after a single sign-out.
func TestRevokeClosesSockets(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustEnv(t, st, nil)
		for i, how := range []string{"logout-all", "logout", "delete"} {
			t.Run(how, func(t *testing.T) {
				ada := e.mustPlayer(t)
				phone := ada.mustDevice(t)
				solo := ada.mustSolo(t)
				ada.MustJSON(t, "POST", "/api/v1/match", queueOptions[i], 202, nil) // before her race: one race at a time
				r := ada.mustRace(t, `{"code":"DR1-D1UI-QWERTYU"}`)
				e.mustPlayer(t).mustJoin(t, r)
				mine := ada.mustSockets(t, solo, r.ID)
				theirs := phone.mustSockets(t, solo, r.ID)

				switch how {
				case "logout-all":
					ada.MustJSON(t, "POST", "/api/v1/me/logout-all", nil, 204, nil)
				case "logout":
					ada.MustJSON(t, "POST", "/api/v1/me/logout", nil, 204, nil)
				case "delete":
					phone.MustJSON(t, "DELETE", "/api/v1/me", nil, 204, nil)
				}
				revoked := append(mine, theirs...)
				if how == "logout" {
					revoked = mine
				}
				// An action sent right after the answer is neither applied nor
				// acknowledged.
				actNow(revoked[0].c, "late")
				mustSignedOut(t, revoked)
				if how == "logout" {
					mustAnswer(t, theirs)
					theirs[0].c.Act("ok", `{"type":"draw"}`)
					if m, _ := theirs[0].c.answer("ok", 0); m.Type != "ack" {
						t.Fatalf("the other device's action: %s", m.raw)
					}
				}
				mustNotStored(t, st, solo, "late")
			})
		}
	})
}

// TestRevokeClosesSocketsOnOtherNodes: two nodes over one store, each with
// a sign-in cache of authTTL. A device's sockets on node B close with
// CloseSignedOut within the cache's lifetime of a revocation on node A
// (sign out everywhere, sign one device out, delete the player), and a
// single sign-out leaves the other device's sockets open.
func TestRevokeClosesSocketsOnOtherNodes(t *testing.T) {
	const authTTL = time.Second
	const slack = 3 * time.Second // the check, the close handshake and a busy shared machine
	apitest.ForEachStore(t, func(t *testing.T, open func(testing.TB) store.Store) {
		a := mustNode(t, open(t), authTTL, nil)
		st := open(t)
		b := mustNode(t, st, authTTL, nil)
		for i, how := range []string{"logout-all", "logout", "delete"} {
			t.Run(how, func(t *testing.T) {
				ada := a.mustPlayer(t)
				phone := ada.mustDevice(t)
				solo := ada.mustSolo(t)
				adaB, phoneB := ada.on(b), phone.on(b)
				adaB.MustJSON(t, "POST", "/api/v1/match", queueOptions[i], 202, nil)
				mine := adaB.mustSockets(t, solo, "")
				theirs := phoneB.mustSockets(t, solo, "")

				start := time.Now()
				switch how {
				case "logout-all":
					ada.MustJSON(t, "POST", "/api/v1/me/logout-all", nil, 204, nil)
				case "logout":
					ada.MustJSON(t, "POST", "/api/v1/me/logout", nil, 204, nil)
				case "delete":
					phone.MustJSON(t, "DELETE", "/api/v1/me", nil, 204, nil)
				}
				revoked := append(mine, theirs...)
				if how == "logout" {
					revoked = mine
				}
				mustSignedOut(t, revoked)
				took := time.Since(start)
				t.Logf("%s on node A closed the sockets on node B after %v (cache lifetime %v)", how, took, authTTL)
				if took > authTTL+slack {
					t.Fatalf("the sockets on node B closed %v after the revocation, beyond the cache's lifetime %v", took, authTTL)
				}
				if how == "logout" {
					time.Sleep(authTTL) // the other token's checks come and go
					mustAnswer(t, theirs)
					theirs[0].c.Act("ok", `{"type":"draw"}`)
					if m, _ := theirs[0].c.answer("ok", 0); m.Type != "ack" {
						t.Fatalf("the other device's action: %s", m.raw)
					}
				}
			})
		}
	})
}

// TestRevokeLeavesOthers: signing out closes only the caller's sockets,
// not another player's on the same game.
func TestRevokeLeavesOthers(t *testing.T) {
	e := mustEnv(t, apitest.SQLite(t), nil)
	ada, bob := e.mustPlayer(t), e.mustPlayer(t)
	r := ada.mustRace(t, `{"code":"DR1-D1UI-QWERTYU"}`)
	bob.mustJoin(t, r)
	ca := &conn{Socket: ada.Dial(t, "/api/v1/races/"+r.ID+"/ws", nil), tb: t}
	cb := &conn{Socket: bob.Dial(t, "/api/v1/races/"+r.ID+"/ws", nil), tb: t}
	ca.next()
	cb.next()
	ada.MustJSON(t, "POST", "/api/v1/me/logout-all", nil, 204, nil)
	mustSignedOut(t, []socket{{"ada's race", ca}})
	for i := range 3 {
		id := fmt.Sprintf("b%d", i)
		cb.Act(id, `{"type":"draw"}`)
		if m, _ := cb.answer(id, 0); m.Type != "ack" {
			t.Fatalf("bob's action: %s", m.raw)
		}
	}
}
