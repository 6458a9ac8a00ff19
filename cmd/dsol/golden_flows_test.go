package main

// The scripts of the golden transcripts (golden_test.go), one per flow.

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"dsol/internal/cards"
	"dsol/internal/daily"
	"dsol/internal/finishtest"
	k "dsol/internal/klondike"
	"dsol/internal/race"
	"dsol/internal/solver"
)

// soloLineCode is a deal the solver wins within a test's budget, and
// whose winning line reaches a legal finish in few actions (294): the
// shortest of the first 400 draw-1 deals.
const soloLineCode = "DS1-D1N-AAAAAIF"

// lineToFinish returns the solver's actions that take a new game of code
// to the first position where a finish is legal.
func lineToFinish(tb testing.TB, code cards.Code, budget int64) []k.Action {
	tb.Helper()
	res := solver.New().SolveCode(code, solver.Options{MaxPositions: budget})
	if res.Verdict != solver.Won {
		tb.Fatalf("%s: the solver does not win it (%v)", code, res.Verdict)
	}
	g := finishtest.Play(tb, code, nil)
	for i, a := range res.Moves {
		if g.CanFinish() {
			return res.Moves[:i]
		}
		if _, err := g.Apply(a); err != nil {
			tb.Fatalf("%s: the solver's action %d, %s, is refused: %v", code, i, a, err)
		}
	}
	tb.Fatalf("%s: the solver's line never reaches a finish", code)
	return nil
}

// mustParse parses a code of the script.
func mustParse(tb testing.TB, s string) cards.Code {
	tb.Helper()
	c, err := cards.ParseCode(s)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// act is the body of POST /api/v1/games/{id}/actions.
func act(action string) string { return `{"action":` + action + `}` }

// actID is act with a client id.
func actID(id, action string) string { return `{"id":"` + id + `","action":` + action + `}` }

// gameOf reads the id and seq of a view.
func gameOf(g *golden, a goldenAnswer) (id string, seq int64) {
	g.t.Helper()
	var v struct {
		ID  string
		Seq int64
	}
	a.decode(g.t, &v)
	return v.ID, v.Seq
}

// playLine sends the actions of a line on a socket, one at a time, each
// answered before the next, with the clock moved on by pace before each
// action, or, with pace 0, by a second every ten actions (the socket's
// rate limit refills with it); seq is the game's seq before the first, and
// the seq after the last is returned.
func playLine(g *golden, s *goldenSocket, prefix string, line []k.Action, seq int64, pace time.Duration) int64 {
	g.t.Helper()
	for i, a := range line {
		switch {
		case pace > 0:
			g.advance(pace)
		case i > 0 && i%10 == 0:
			g.advance(time.Second)
		}
		id := prefix + strconv.Itoa(i+1)
		s.act(id, a.String())
		seq++
		mustAck(g, s.answer(id), seq)
	}
	return seq
}

// mustAck fails the test unless m is the ack of seq: the script lost count
// of the game.
func mustAck(g *golden, m goldenMsg, seq int64) {
	g.t.Helper()
	if m.Type != "ack" || m.Seq == nil || *m.Seq != seq {
		g.t.Fatalf("%s, want the ack of seq %d", m.raw, seq)
	}
}

// ---- players ----

// flowPlayers: accounts and what is stored about them: creation, names,
// statistics and their reset, blocks, the export, transfer codes, signing
// out, deleting a player's data.
func flowPlayers(g *golden) {
	g.step("create players: with a name, with none, with a bad one")
	g.newPlayer("ada", "Ada")
	a := g.mustCall(201, "", "POST", "/api/v1/players", nil)
	var p struct{ ID, Token string }
	a.decode(g.t, &p)
	g.players["nameless"] = &goldenPlayer{label: "nameless", id: p.ID, token: p.Token}
	g.call("", "POST", "/api/v1/players", `{"name":""}`)
	g.call("", "POST", "/api/v1/players", `{"name":"Computer"}`)
	g.newPlayer("bob", "Bob")
	g.newPlayer("cy", "Cy")

	g.step("me: read, rename, read again")
	g.call("ada", "GET", "/api/v1/me", nil)
	g.call("ada", "PATCH", "/api/v1/me", `{"name":"Ada L."}`)
	g.call("ada", "PATCH", "/api/v1/me", `{}`)
	g.call("ada", "GET", "/api/v1/me", nil)
	g.call("nameless", "GET", "/api/v1/me", nil)

	g.step("statistics of a new player, then of one solo game played")
	g.call("ada", "GET", "/api/v1/me/stats", nil)
	id, _ := gameOf(g, g.mustCall(201, "ada", "POST", "/api/v1/games", `{"code":"DS1-D1N-AAAAAAB"}`))
	g.advance(2 * time.Second)
	g.call("ada", "POST", "/api/v1/games/"+id+"/actions", act(`{"type":"draw"}`))
	g.advance(3 * time.Second)
	g.call("ada", "POST", "/api/v1/games/"+id+"/actions", act(`{"type":"draw"}`))
	g.call("ada", "GET", "/api/v1/me/stats", nil)
	g.advance(time.Minute)
	g.call("ada", "POST", "/api/v1/me/stats/reset", nil)
	g.call("ada", "GET", "/api/v1/me/stats", nil)

	g.step("blocks: block, list, block again, unblock, refusals")
	bob, cy := g.player("bob"), g.player("cy")
	g.call("ada", "GET", "/api/v1/me/blocks", nil)
	g.call("ada", "POST", "/api/v1/players/"+bob.id+"/block", nil)
	g.advance(time.Second)
	g.call("ada", "POST", "/api/v1/players/"+cy.id+"/block", nil)
	g.call("ada", "POST", "/api/v1/players/"+bob.id+"/block", nil)
	g.call("ada", "GET", "/api/v1/me/blocks", nil)
	g.call("ada", "DELETE", "/api/v1/players/"+bob.id+"/block", nil)
	g.call("ada", "DELETE", "/api/v1/players/"+bob.id+"/block", nil)
	g.call("ada", "GET", "/api/v1/me/blocks", nil)
	g.call("ada", "POST", "/api/v1/players/"+g.player("ada").id+"/block", nil)
	g.call("ada", "POST", "/api/v1/players/bot/block", nil)
	g.call("ada", "POST", "/api/v1/players/nosuchplayer0000/block", nil)
	g.call("bob", "GET", "/api/v1/me/blocks", nil)

	g.step("export")
	g.call("ada", "GET", "/api/v1/me/export", nil)

	g.step("a transfer code signs a second device in")
	a = g.mustCall(201, "ada", "POST", "/api/v1/me/link", nil)
	var link struct{ Code string }
	a.decode(g.t, &link)
	g.call("", "POST", "/api/v1/link", `{"code":"0000-0000-0000"}`)
	g.call("", "POST", "/api/v1/link", `{"code":"nope"}`)
	a = g.mustCall(201, "", "POST", "/api/v1/link", map[string]string{"code": link.Code})
	a.decode(g.t, &p)
	g.players["ada-phone"] = &goldenPlayer{label: "ada-phone", id: p.ID, token: p.Token}
	g.call("", "POST", "/api/v1/link", map[string]string{"code": link.Code})
	g.call("ada-phone", "GET", "/api/v1/me", nil)
	g.advance(11 * time.Minute)
	a = g.mustCall(201, "ada", "POST", "/api/v1/me/link", nil)
	a.decode(g.t, &link)
	g.advance(11 * time.Minute)
	g.call("", "POST", "/api/v1/link", map[string]string{"code": link.Code})

	g.step("sign out: one device, then all")
	g.call("ada-phone", "POST", "/api/v1/me/logout", nil)
	g.call("ada-phone", "GET", "/api/v1/me", nil)
	g.call("ada", "GET", "/api/v1/me", nil)
	g.call("ada", "POST", "/api/v1/me/logout-all", nil)
	g.call("ada", "GET", "/api/v1/me", nil)

	g.step("delete a player's data: their race in play is resigned, its seat passes to the deleted player")
	r, inv := raceOf(g, g.mustCall(201, "cy", "POST", "/api/v1/races", `{"code":"DR1-D1UI-QWERTYU","public":false}`))
	g.mustCall(200, "bob", "POST", "/api/v1/races/"+r+"/join", map[string]string{"invite": inv})
	g.mustCall(200, "bob", "POST", "/api/v1/games/"+r+"/actions", act(`{"type":"draw"}`))
	g.call("cy", "DELETE", "/api/v1/me", nil)
	g.call("cy", "GET", "/api/v1/me", nil)
	g.call("bob", "GET", "/api/v1/games/"+r, nil)
	g.call("bob", "POST", "/api/v1/races/"+r+"/rematch", nil)
	g.call("bob", "GET", "/api/v1/me/blocks", nil)
	g.call("bob", "GET", "/api/v1/me/export", nil)
	g.call("bob", "GET", "/api/v1/me/stats", nil)
}

// ---- solo ----

// flowSolo: solo games over REST and the game socket (both protocols,
// resuming with since), hints, the live check, a win by the solver's line
// and a finish, the list of games, the statistics, the replay.
func flowSolo(g *golden) {
	code := mustParse(g.t, soloLineCode)
	line := lineToFinish(g.t, code, 100_000)

	g.step("create solo games: from a code, a random deal, a winnable deal")
	g.newPlayer("ada", "Ada")
	g.newPlayer("bob", "Bob")
	// A hint is worked out from arrangements drawn from a hash of the game
	// id and the seq: the game of the hints is the flow's first, so that its
	// id is the random source's first draw whatever the server draws later.
	hid, hseq := gameOf(g, g.mustCall(201, "ada", "POST", "/api/v1/games", `{"code":"DS1-D3N-AAAAAHT"}`))
	id, seq := gameOf(g, g.mustCall(201, "ada", "POST", "/api/v1/games", `{"code":"`+soloLineCode+`"}`))
	g.mustCall(201, "ada", "POST", "/api/v1/games", `{"draw":3,"scoring":"vegas"}`)
	g.mustCall(201, "ada", "POST", "/api/v1/games", `{"draw":1,"scoring":"normal","winnable":true}`)
	path := "/api/v1/games/" + id
	g.call("ada", "GET", path, nil)
	g.call("ada", "GET", "/api/v1/codes/"+soloLineCode, nil)
	g.call("ada", "GET", "/api/v1/codes/DR2-D3SM-00112233445566778899AABBCCDDEEFF", nil)

	g.step("act over REST: a move, a resent client id, a stale seq, an illegal move, an undo")
	n := 0 // the next action of the line
	g.mustCall(200, "ada", "POST", path+"/actions", actID("r1", line[n].String()))
	n, seq = n+1, seq+1
	g.call("ada", "POST", path+"/actions", actID("r1", line[n-1].String()))
	g.call("ada", "POST", path+"/actions", fmt.Sprintf(`{"action":%s,"seq":0}`, line[n]))
	g.call("ada", "POST", path+"/actions", act(`{"type":"move","from":"w","to":"f1"}`))
	g.call("ada", "POST", path+"/actions", act(`{"type":"recycle"}`))
	g.mustCall(200, "ada", "POST", path+"/actions", fmt.Sprintf(`{"action":%s,"seq":%d}`, line[n], seq))
	n, seq = n+1, seq+1
	g.mustCall(200, "ada", "POST", path+"/actions", actID("r2", `{"type":"undo"}`))
	seq++
	n--
	g.mustCall(200, "ada", "POST", path+"/actions", act(line[n].String()))
	n, seq = n+1, seq+1
	g.call("bob", "POST", path+"/actions", act(`{"type":"draw"}`))
	g.call("bob", "GET", path, nil)

	g.step("the game socket, protocol 1: state, actions, acks, events, rejects, pings")
	s1 := g.dial("ada", "ada#1", path+"/ws")
	s1.typ("state")
	s2 := g.dial("ada", "ada#2", path+fmt.Sprintf("/ws?v=2&since=%d", seq))
	s2.sync()
	s1.act("a1", line[n].String())
	s1.answer("a1")
	n, seq = n+1, seq+1
	s2.event(seq)
	s1.send(`{"type":"ping"}`)
	s1.typ("pong")
	s1.act("a1", line[n-1].String())
	s1.answer("a1")
	s1.send(fmt.Sprintf(`{"type":"action","id":"a2","action":%s,"seq":%d}`, line[n], seq-1))
	s1.answer("a2")
	s1.act("a3", `{"type":"move","from":"w","to":"f1"}`)
	s1.answer("a3")
	s1.act("a4", `{"type":"fly"}`)
	s1.answer("a4")
	s1.send(`{"type":"hello"}`)
	s1.typ("reject")
	s1.send(`not json`)
	s1.typ("reject")
	s1.send(`{"type":"action","id":"a5","action":{"type":"draw"},"extra":1}`)
	s1.answer("a5")

	g.step("the game socket, protocol 2: actions answered with deltas")
	s2.act("b1", line[n].String())
	s2.answer("b1")
	n, seq = n+1, seq+1
	s1.event(seq)
	s2.act("b2", line[n].String())
	s2.answer("b2")
	n, seq = n+1, seq+1
	s1.event(seq)
	s2.act("b3", `{"type":"undo"}`)
	s2.answer("b3")
	seq++
	n--
	s1.event(seq)
	s2.act("b4", line[n].String())
	s2.answer("b4")
	n, seq = n+1, seq+1
	s1.event(seq)
	s1.hangUp()

	g.step("resume with since: protocol 1 sends the events missed, protocol 2 the state")
	s3 := g.dial("ada", "ada#3", path+fmt.Sprintf("/ws?since=%d", seq-2))
	s3.event(seq)
	s3.sync()
	s3.hangUp()
	s4 := g.dial("ada", "ada#4", path+fmt.Sprintf("/ws?v=2&since=%d", seq-2))
	s4.typ("state")
	s4.sync()
	s4.hangUp()
	s5 := g.dial("ada", "ada#5", path+fmt.Sprintf("/ws?v=1&since=%d", seq))
	s5.sync()
	s5.hangUp()
	g.dialRefused("ada", path+"/ws?since=-1")
	g.dialRefused("ada", path+"/ws?since=x")
	g.dialRefused("ada", path+"/ws?v=3")
	g.dialRefused("bob", path+"/ws")
	g.dialRefused("", path+"/ws")
	g.dialRefused("ada", "/api/v1/games/nosuchgame00000/ws")
	g.dialRefused("ada", path+"/ws", "Origin", "https://evil.example")

	g.step("hints: asked, counted in the view; refused to another player")
	hpath := "/api/v1/games/" + hid
	h1 := g.dial("ada", "ada#h", hpath+"/ws?v=2")
	h1.typ("state")
	g.call("ada", "GET", hpath+"/hint", nil)
	g.call("ada", "GET", hpath, nil)
	g.mustCall(200, "ada", "POST", hpath+"/actions", act(`{"type":"draw"}`))
	hseq++
	h1.event(hseq)
	g.call("ada", "GET", hpath+"/hint", nil)
	g.call("bob", "GET", hpath+"/hint", nil)

	g.step("the live check: on, answered on the socket, again after every action")
	g.call("ada", "POST", hpath+"/check", `{"on":false}`)
	g.call("ada", "POST", hpath+"/check", `{}`)
	g.mustCall(200, "ada", "POST", hpath+"/check", `{"on":true}`)
	h1.typ("check")
	g.call("ada", "GET", hpath, nil)
	for range 3 {
		g.mustCall(200, "ada", "POST", hpath+"/actions", act(`{"type":"draw"}`))
		hseq++
		h1.event(hseq)
		h1.typ("check")
	}
	h2 := g.dial("ada", "ada#h2", hpath+"/ws")
	h2.typ("state")
	h2.typ("check")
	h2.hangUp()
	g.call("ada", "GET", hpath, nil)

	g.step("play the solver's line to the end over protocol 2, then finish")
	seq = playLine(g, s2, "L", line[n:], seq, 0)
	g.call("ada", "GET", path, nil)
	s2.act("fin", `{"type":"finish"}`)
	seq++
	mustAck(g, s2.expect(isAnswer("fin"), isType("over"))[0], seq)
	g.call("ada", "GET", path, nil)
	g.call("ada", "POST", path+"/actions", act(`{"type":"draw"}`))
	g.call("ada", "GET", path+"/hint", nil)
	g.call("ada", "POST", path+"/check", `{"on":true}`)
	s2.act("late", `{"type":"draw"}`)
	s2.answer("late")

	g.step("the list of games, the statistics")
	g.call("ada", "GET", "/api/v1/games", nil)
	g.call("bob", "GET", "/api/v1/games", nil)
	g.call("ada", "GET", "/api/v1/me/stats", nil)

	g.step("the replay of the won game; refused for a game in play")
	g.call("bob", "GET", path+"/replay", nil)
	g.call("ada", "GET", hpath+"/replay", nil)
}

// ---- race ----

// raceAces returns a mirrored draw-1 race code whose columns show an ace
// and the two of its suit on top (the same in both seats), those columns
// ("c1" …) and the two foundation slots of the suit: both seats can play
// them at once.
func raceAces(tb testing.TB) (code, ace, two, slot1, slot2 string) {
	tb.Helper()
	for d := uint64(0); d < 50000; d++ {
		c := cards.Code{Kind: cards.Race, Draw: 1, Mirrored: true, Deal: d}
		tops := map[string]int{}
		for i, col := range race.DealOf(c).Seats[0].Columns {
			tops[col[len(col)-1]] = i + 1
		}
		for row, s := range "SHDC" {
			a, ok1 := tops["A"+string(s)]
			t, ok2 := tops["2"+string(s)]
			if ok1 && ok2 {
				return c.String(), fmt.Sprintf("c%d", a), fmt.Sprintf("c%d", t),
					fmt.Sprintf("f%d", 2*row+1), fmt.Sprintf("f%d", 2*row+2)
			}
		}
	}
	tb.Fatal("no mirrored deal shows an ace and its two")
	return "", "", "", "", ""
}

// raceOf reads the id and invite of a race answer.
func raceOf(g *golden, a goldenAnswer) (id, invite string) {
	g.t.Helper()
	var v struct{ ID, Invite string }
	a.decode(g.t, &v)
	return v.ID, v.Invite
}

// flowRace: races from a chosen code: an invite, both seats and a
// spectator on sockets, simultaneous turns (too late included), presence
// and a claim, rematches accepted, declined and lapsed, alternating turns
// with a turn clock, a cancel, and a race against the bot, whose moves the
// clock brings.
func flowRace(g *golden) {
	code, ace, two, f1, f2 := raceAces(g.t)
	move := func(from, to string) string { return `{"type":"move","from":"` + from + `","to":"` + to + `"}` }

	g.step("create a race from a chosen code, look at it, join it by invite")
	g.newPlayer("ada", "Ada")
	g.newPlayer("bob", "Bob")
	g.newPlayer("cy", "Cy")
	r1, inv := raceOf(g, g.mustCall(201, "ada", "POST", "/api/v1/races", `{"code":"`+code+`","public":false}`))
	rpath := "/api/v1/races/" + r1
	gpath := "/api/v1/games/" + r1
	g.call("ada", "GET", gpath, nil)
	g.call("bob", "GET", gpath, nil)
	g.call("bob", "POST", rpath+"/join", `{"invite":"wrong"}`)
	g.call("bob", "POST", rpath+"/join", `{}`)
	g.call("ada", "POST", rpath+"/join", map[string]string{"invite": inv})
	g.mustCall(200, "bob", "POST", rpath+"/join", map[string]string{"invite": inv})
	g.call("bob", "POST", rpath+"/join", map[string]string{"invite": inv})
	g.call("cy", "POST", rpath+"/join", map[string]string{"invite": inv})
	g.call("bob", "GET", gpath, nil)

	g.step("both seats on sockets (protocol 2 and 1), a spectator (protocol 2)")
	sa := g.dial("ada", "ada", gpath+"/ws?v=2")
	sa.typ("state")
	sa.sync()
	sb := g.dial("bob", "bob", rpath+"/ws")
	sb.typ("state")
	sb.sync()
	sa.sync()
	sc := g.dial("cy", "cy", gpath+"/ws?v=2")
	sc.typ("state")
	sc.sync()
	sa.sync()
	sb.sync()

	g.step("simultaneous turns: both seats play their ace, then their two; the second two is too late")
	var seq int64
	sa.act("a1", move(ace, f1))
	sa.answer("a1")
	seq++
	sb.event(seq)
	sc.event(seq)
	sb.act("b1", move(ace, f2))
	sb.answer("b1")
	seq++
	sa.event(seq)
	sc.event(seq)
	sa.act("a2", move(two, f1))
	sa.answer("a2")
	seq++
	sb.event(seq)
	sc.event(seq)
	sb.act("b2", move(two, f1))
	sb.answer("b2")
	sb.act("b2", move(two, f1))
	sb.answer("b2")
	sb.act("b3", move(two, f2))
	sb.answer("b3")
	seq++
	sa.event(seq)
	sc.event(seq)
	sc.act("c1", `{"type":"draw"}`)
	sc.answer("c1")

	g.step("a seat acts over REST; what a race refuses")
	g.mustCall(200, "bob", "POST", gpath+"/actions", actID("rb1", `{"type":"draw"}`))
	seq++
	sa.event(seq)
	sb.event(seq)
	sc.event(seq)
	g.call("bob", "POST", gpath+"/actions", act(`{"type":"undo"}`))
	g.call("bob", "POST", gpath+"/actions", act(`{"type":"finish"}`))
	g.call("cy", "POST", gpath+"/actions", act(`{"type":"draw"}`))
	g.call("bob", "GET", gpath+"/hint", nil)
	g.call("bob", "POST", gpath+"/check", `{"on":true}`)
	g.call("ada", "GET", gpath+"/replay", nil)
	g.call("ada", "POST", rpath+"/rematch", nil)
	g.call("ada", "POST", rpath+"/cancel", nil)
	g.call("cy", "GET", gpath, nil)

	g.step("a seat leaves: presence, a claim too early, then in time")
	sb.hangUp()
	sa.typ("presence")
	sc.typ("presence")
	sa.act("a3", `{"type":"claim"}`)
	sa.answer("a3")
	g.advance(61 * time.Second)
	g.call("ada", "GET", gpath, nil)
	sa.act("a4", `{"type":"claim"}`)
	sa.expect(isAnswer("a4"), isType("over"))
	seq++
	sc.event(seq)
	sc.typ("over")
	g.call("bob", "GET", gpath, nil)
	g.call("bob", "POST", gpath+"/actions", act(`{"type":"draw"}`))

	g.step("rematch: offered by one, accepted by the other")
	g.mustCall(201, "bob", "POST", rpath+"/rematch", nil)
	sa.typ("rematch")
	sc.typ("rematch")
	g.call("bob", "POST", rpath+"/rematch", nil)
	g.call("cy", "POST", rpath+"/rematch", nil)
	a := g.mustCall(200, "ada", "POST", rpath+"/rematch", nil)
	r2, _ := raceOf(g, a)
	sa.typ("rematch")
	sc.typ("rematch")
	sa.hangUp()
	sc.hangUp()

	g.step("the rematch: both seats, then a resign ends it")
	g2 := "/api/v1/games/" + r2
	ta := g.dial("ada", "ada2", g2+"/ws?v=2")
	ta.typ("state")
	ta.sync()
	tb := g.dial("bob", "bob2", g2+"/ws")
	tb.typ("state")
	tb.sync()
	ta.sync()
	ta.act("x1", `{"type":"draw"}`)
	ta.answer("x1")
	tb.event(1)
	tb.act("y1", `{"type":"resign"}`)
	tb.expect(isAnswer("y1"), isType("over"))
	ta.event(2)
	ta.typ("over")
	g.call("ada", "GET", g2, nil)

	g.step("a rematch offered and declined")
	g.mustCall(201, "ada", "POST", "/api/v1/races/"+r2+"/rematch", nil)
	ta.typ("rematch")
	tb.typ("rematch")
	g.call("ada", "POST", "/api/v1/races/"+r2+"/decline", nil)
	g.mustCall(200, "bob", "POST", "/api/v1/races/"+r2+"/decline", nil)
	ta.typ("rematch")
	tb.typ("rematch")
	g.call("bob", "POST", "/api/v1/races/"+r2+"/rematch", nil)
	ta.hangUp()
	tb.hangUp()

	g.step("alternating turns with a turn clock: not your turn, a pass, a turn that runs out, a resign over REST, a rematch offer that lapses")
	r3, inv3 := raceOf(g, g.mustCall(201, "ada", "POST", "/api/v1/races",
		`{"code":"DR1-D3UI-QWERTYU","turns":"alternating","first":"creator","turnSeconds":30,"public":false}`))
	g3 := "/api/v1/games/" + r3
	g.mustCall(200, "bob", "POST", "/api/v1/races/"+r3+"/join", map[string]string{"invite": inv3})
	ua := g.dial("ada", "ada3", g3+"/ws?v=2")
	ua.typ("state")
	ua.sync()
	ub := g.dial("bob", "bob3", g3+"/ws?v=2")
	ub.typ("state")
	ub.sync()
	ua.sync()
	ub.act("n1", `{"type":"draw"}`)
	ub.answer("n1")
	ua.act("m1", `{"type":"draw"}`)
	ua.answer("m1")
	ub.event(1)
	ua.act("m2", `{"type":"draw"}`)
	ua.answer("m2")
	g.advance(10 * time.Second)
	ub.act("n2", `{"type":"pass"}`)
	ub.answer("n2")
	ua.event(2)
	ua.act("m3", `{"type":"draw"}`)
	ua.answer("m3")
	ub.event(3)
	// The view is read on the race's table, so after the table stopped
	// ada's turn clock and set bob's, both due at the same time.
	g.call("bob", "GET", g3, nil)
	g.advanceToTimer("bob's turn clock", 30*time.Second)
	ua.event(4)
	ub.event(4)
	g.mustCall(200, "bob", "POST", g3+"/actions", act(`{"type":"resign"}`))
	ua.expect(isEvent(5), isType("over"))
	ub.expect(isEvent(5), isType("over"))
	g.mustCall(201, "bob", "POST", "/api/v1/races/"+r3+"/rematch", nil)
	ua.typ("rematch")
	ub.typ("rematch")
	g.advanceToTimer("the rematch offer's lapse", time.Minute)
	ua.typ("rematch")
	ub.typ("rematch")
	g.call("ada", "POST", "/api/v1/races/"+r3+"/rematch", nil)
	g.call("ada", "GET", g3, nil)
	ua.hangUp()
	ub.hangUp()

	g.step("cancel a race still waiting")
	r4, inv4 := raceOf(g, g.mustCall(201, "ada", "POST", "/api/v1/races", `{"code":"`+code+`","public":false}`))
	g.call("bob", "POST", "/api/v1/races/"+r4+"/cancel", nil)
	g.mustCall(200, "ada", "POST", "/api/v1/races/"+r4+"/cancel", nil)
	g.call("ada", "POST", "/api/v1/races/"+r4+"/cancel", nil)
	g.call("bob", "POST", "/api/v1/races/"+r4+"/join", map[string]string{"invite": inv4})
	g.call("ada", "GET", "/api/v1/games/"+r4, nil)

	g.step("a race against the bot: its moves come as the clock reaches them")
	r5, _ := raceOf(g, g.mustCall(201, "ada", "POST", "/api/v1/races", `{"code":"`+code+`","bot":"fast"}`))
	g5 := "/api/v1/games/" + r5
	va := g.dial("ada", "ada5", g5+"/ws?v=2")
	va.typ("state")
	va.sync()
	seq = 0
	for range 3 {
		g.advanceToTimer("the bot's move", 300*time.Millisecond)
		seq++
		va.event(seq)
	}
	va.act("v1", move(ace, "f"))
	va.answer("v1")
	seq++
	for range 3 {
		g.advanceToTimer("the bot's move", 300*time.Millisecond)
		seq++
		va.event(seq)
	}
	va.act("v2", `{"type":"resign"}`)
	va.expect(isAnswer("v2"), isType("over"))
	g.call("ada", "GET", g5, nil)
	g.mustCall(201, "ada", "POST", "/api/v1/races/"+r5+"/rematch", nil)
	va.typ("rematch")
	g.call("ada", "GET", "/api/v1/games", nil)
	g.call("ada", "GET", "/api/v1/me/stats", nil)
}

// ---- daily ----

// flowDaily: the daily challenge: today's page, a game of one, a win at a
// person's pace, the leaderboard (ranked and unranked), the streak, and the
// day's close (the code appears, the games take no more actions).
func flowDaily(g *golden) {
	g.step("a player with a history: a solo game of 20 actions the day before")
	g.newPlayer("ada", "Ada")
	g.newPlayer("bob", "Bob")
	old, _ := gameOf(g, g.mustCall(201, "ada", "POST", "/api/v1/games", `{"code":"DS1-D1N-AAAAAAB"}`))
	for range 20 {
		g.mustCall(200, "ada", "POST", "/api/v1/games/"+old+"/actions", act(`{"type":"draw"}`))
	}
	g.advance(24 * time.Hour)
	day := goldenStart.Add(24 * time.Hour).Format("2006-01-02")

	g.step("today's challenges, a game of one, no code while the day is open")
	g.call("ada", "GET", "/api/v1/daily", nil)
	id, _ := gameOf(g, g.mustCall(201, "ada", "POST", "/api/v1/daily/D1N", nil))
	path := "/api/v1/games/" + id
	g.call("ada", "POST", "/api/v1/daily/D1N", nil)
	g.call("ada", "POST", "/api/v1/daily/D9X", nil)
	g.call("ada", "GET", path, nil)
	g.call("ada", "GET", path+"/replay", nil)
	g.call("ada", "GET", "/api/v1/games", nil)
	g.call("ada", "GET", "/api/v1/daily", nil)
	bid, _ := gameOf(g, g.mustCall(201, "bob", "POST", "/api/v1/daily/D1N", nil))
	bpath := "/api/v1/games/" + bid
	g.advance(2 * time.Second)
	g.call("bob", "POST", bpath+"/actions", act(`{"type":"draw"}`))
	g.advance(2 * time.Second)
	g.call("bob", "POST", bpath+"/actions", act(`{"type":"draw"}`))
	g.call("bob", "GET", "/api/v1/daily/"+day+"/D1N/leaderboard", nil)

	g.step("play the challenge to a win, at a person's pace")
	cs, err := g.st.DailyChallenges(context.Background(), day)
	if err != nil {
		g.t.Fatal(err)
	}
	var code cards.Code
	for _, c := range cs {
		if c.Mode == "D1N" {
			code = mustParse(g.t, c.Code)
		}
	}
	line := lineToFinish(g.t, code, daily.Budget)
	s := g.dial("ada", "ada", path+"/ws?v=2")
	s.typ("state")
	seq := playLine(g, s, "d", line, 0, time.Second)
	g.advance(time.Second)
	s.act("fin", `{"type":"finish"}`)
	mustAck(g, s.expect(isAnswer("fin"), isType("over"))[0], seq+1)
	g.call("ada", "GET", path, nil)
	g.call("ada", "GET", path+"/replay", nil)

	g.step("the day's state, the leaderboard, the streak")
	g.call("ada", "GET", "/api/v1/daily", nil)
	g.call("bob", "GET", "/api/v1/daily", nil)
	g.call("ada", "GET", "/api/v1/daily/"+day+"/D1N/leaderboard", nil)
	g.call("bob", "GET", "/api/v1/daily/"+day+"/D1N/leaderboard?limit=1", nil)
	g.call("bob", "GET", "/api/v1/daily/"+day+"/D3N/leaderboard", nil)
	g.call("bob", "GET", "/api/v1/daily/"+day+"/D1N/leaderboard?limit=0", nil)
	g.call("bob", "GET", "/api/v1/daily/"+day+"/D9X/leaderboard", nil)
	g.call("ada", "GET", "/api/v1/me/stats", nil)

	g.step("the day closes: the code appears, the games take no more actions")
	_, end, err := daily.Bounds(day)
	if err != nil {
		g.t.Fatal(err)
	}
	g.advance(end.Sub(g.clock.Now()) + time.Second)
	g.call("ada", "GET", path, nil)
	g.call("bob", "POST", bpath+"/actions", act(`{"type":"draw"}`))
	g.call("bob", "GET", bpath+"/hint", nil)
	g.call("bob", "POST", bpath+"/check", `{"on":true}`)
	g.call("bob", "GET", bpath, nil)
	g.call("bob", "GET", bpath+"/replay", nil)
	g.call("bob", "GET", path+"/replay", nil)
	g.call("bob", "GET", "/api/v1/daily/"+day, nil)
	g.call("bob", "GET", "/api/v1/daily/"+day+"/D1N/leaderboard", nil)
	g.call("bob", "GET", "/api/v1/games", nil)
	g.call("ada", "GET", "/api/v1/me/stats", nil)
	g.call("bob", "GET", "/api/v1/daily", nil)
	g.call("bob", "GET", "/api/v1/daily/2030-01-01", nil)
	g.call("bob", "GET", "/api/v1/daily/2030-13-01", nil)
	g.call("bob", "POST", "/api/v1/daily/D1N", nil)
}

// ---- replay ----

// flowReplay: replays of finished races (chosen, server-dealt, cancelled),
// refused while a game is in play. The replay of a won solo game is in
// flowSolo, of a closed daily challenge in flowDaily.
func flowReplay(g *golden) {
	code, ace, _, f1, _ := raceAces(g.t)

	g.step("a race played a little, then resigned: its replay, to a player and to anyone")
	g.newPlayer("ada", "Ada")
	g.newPlayer("bob", "Bob")
	g.newPlayer("cy", "Cy")
	r1, inv := raceOf(g, g.mustCall(201, "ada", "POST", "/api/v1/races", `{"code":"`+code+`","public":false}`))
	path := "/api/v1/games/" + r1
	g.call("ada", "GET", path+"/replay", nil)
	g.mustCall(200, "bob", "POST", "/api/v1/races/"+r1+"/join", map[string]string{"invite": inv})
	g.mustCall(200, "ada", "POST", path+"/actions", act(`{"type":"move","from":"`+ace+`","to":"`+f1+`"}`))
	g.advance(time.Second)
	g.mustCall(200, "bob", "POST", path+"/actions", act(`{"type":"draw"}`))
	g.advance(time.Second)
	g.mustCall(200, "bob", "POST", path+"/actions", act(`{"type":"draw"}`))
	g.call("cy", "GET", path+"/replay", nil)
	g.call("ada", "GET", path+"/replay", nil)
	g.advance(time.Second)
	g.mustCall(200, "ada", "POST", path+"/actions", act(`{"type":"resign"}`))
	g.call("ada", "GET", path+"/replay", nil)
	g.call("cy", "GET", path+"/replay", nil)

	g.step("a server-dealt race (its code and salt once over), and a cancelled one")
	r2, inv2 := raceOf(g, g.mustCall(201, "ada", "POST", "/api/v1/races", `{"draw":3,"redeal":"single","decks":"independent","public":false}`))
	g.mustCall(200, "bob", "POST", "/api/v1/races/"+r2+"/join", map[string]string{"invite": inv2})
	g.mustCall(200, "bob", "POST", "/api/v1/games/"+r2+"/actions", act(`{"type":"draw"}`))
	g.call("cy", "GET", "/api/v1/games/"+r2+"/replay", nil)
	g.mustCall(200, "bob", "POST", "/api/v1/games/"+r2+"/actions", act(`{"type":"resign"}`))
	g.call("cy", "GET", "/api/v1/games/"+r2+"/replay", nil)
	r3, _ := raceOf(g, g.mustCall(201, "ada", "POST", "/api/v1/races", `{"code":"`+code+`","public":false}`))
	g.mustCall(200, "ada", "POST", "/api/v1/races/"+r3+"/cancel", nil)
	g.call("cy", "GET", "/api/v1/games/"+r3+"/replay", nil)

	g.step("a solo game in play, an unknown game, no credentials")
	sid, _ := gameOf(g, g.mustCall(201, "ada", "POST", "/api/v1/games", `{"code":"DS1-D1N-AAAAAAB"}`))
	g.mustCall(200, "ada", "POST", "/api/v1/games/"+sid+"/actions", act(`{"type":"draw"}`))
	g.call("ada", "GET", "/api/v1/games/"+sid+"/replay", nil)
	g.call("bob", "GET", "/api/v1/games/"+sid+"/replay", nil)
	g.call("ada", "GET", "/api/v1/games/nosuchgame00000/replay", nil)
	g.call("", "GET", path+"/replay", nil)
}

// ---- quick match ----

// flowMatch: quick match: the match socket, queueing and leaving, a
// pairing, one race at a time, a rated race, options and blocks that keep
// players apart.
func flowMatch(g *golden) {
	g.step("the match socket of a player not in the queue")
	g.newPlayer("ada", "Ada")
	g.newPlayer("bob", "Bob")
	g.newPlayer("cy", "Cy")
	g.newPlayer("dan", "Dan")
	m0 := g.dial("ada", "ada#0", "/api/v1/match/ws")
	m0.typ("idle")
	m0.closedByServer()

	g.step("queue, follow, leave, queue again")
	g.call("ada", "POST", "/api/v1/match", `{}`)
	m1 := g.dial("ada", "ada#1", "/api/v1/match/ws")
	m1.typ("waiting")
	m1.sync()
	g.call("ada", "DELETE", "/api/v1/match", nil)
	m1.closedByServer()
	g.call("ada", "DELETE", "/api/v1/match", nil)
	g.advance(time.Second)
	g.call("ada", "POST", "/api/v1/match", `{}`)
	g.call("ada", "POST", "/api/v1/match", `{}`)
	m2 := g.dial("ada", "ada#2", "/api/v1/match/ws")
	m2.typ("waiting")

	g.step("a second player is paired at once; the first hears of it on the match socket")
	a := g.mustCall(201, "bob", "POST", "/api/v1/match", `{}`)
	r, _ := raceOf(g, a)
	m2.typ("matched")
	m2.closedByServer()
	g.call("ada", "GET", "/api/v1/games/"+r, nil)
	m3 := g.dial("ada", "ada#3", "/api/v1/match/ws")
	m3.typ("idle")
	m3.closedByServer()

	g.step("in a race: no second queue")
	g.call("ada", "POST", "/api/v1/match", `{}`)
	g.call("bob", "POST", "/api/v1/match", `{"draw":3}`)

	g.step("both play ten actions at a person's pace, then one resigns: the race is rated")
	for range 10 {
		g.advance(2 * time.Second)
		g.mustCall(200, "ada", "POST", "/api/v1/games/"+r+"/actions", act(`{"type":"draw"}`))
		g.advance(2 * time.Second)
		g.mustCall(200, "bob", "POST", "/api/v1/games/"+r+"/actions", act(`{"type":"draw"}`))
	}
	g.advance(2 * time.Second)
	g.mustCall(200, "ada", "POST", "/api/v1/games/"+r+"/actions", act(`{"type":"resign"}`))
	g.call("ada", "GET", "/api/v1/games/"+r, nil)
	g.call("ada", "GET", "/api/v1/me", nil)
	g.call("bob", "GET", "/api/v1/me", nil)
	g.call("bob", "GET", "/api/v1/me/stats", nil)

	g.step("the queue is open again")
	g.call("ada", "POST", "/api/v1/match", `{}`)
	g.call("ada", "DELETE", "/api/v1/match", nil)

	g.step("different options do not pair; nor do players who blocked each other")
	g.call("cy", "POST", "/api/v1/match", `{"draw":3}`)
	g.call("dan", "POST", "/api/v1/match", `{"draw":1}`)
	g.call("dan", "DELETE", "/api/v1/match", nil)
	g.call("dan", "POST", "/api/v1/players/"+g.player("cy").id+"/block", nil)
	g.call("dan", "POST", "/api/v1/match", `{"draw":3}`)
	g.call("cy", "DELETE", "/api/v1/match", nil)
	g.call("dan", "DELETE", "/api/v1/match", nil)

	g.step("what a quick match refuses")
	g.call("cy", "POST", "/api/v1/match", `{"code":"DR1-D1UI-QWERTYU"}`)
	g.call("cy", "POST", "/api/v1/match", `{"bot":"fast"}`)
	g.call("cy", "POST", "/api/v1/match", `{"draw":2}`)
	g.call("cy", "POST", "/api/v1/match", `{`)
	g.call("", "POST", "/api/v1/match", `{}`)
	g.dialRefused("", "/api/v1/match/ws")
}

// ---- lobby ----

// flowLobby: the lobby and its socket as public races are created,
// hidden by a block, joined and cancelled.
func flowLobby(g *golden) {
	g.step("an empty lobby, and its socket")
	g.newPlayer("ada", "Ada")
	g.newPlayer("bob", "Bob")
	g.newPlayer("cy", "Cy")
	g.call("bob", "GET", "/api/v1/lobby", nil)
	l := g.dial("bob", "bob", "/api/v1/lobby/ws")
	l.typ("lobby")
	l.sync()

	g.step("public races appear as they are created; a private one does not")
	r1, _ := raceOf(g, g.mustCall(201, "ada", "POST", "/api/v1/races", `{"code":"DR1-D1UI-QWERTYU"}`))
	l.typ("lobby")
	g.advance(time.Second)
	r2, _ := raceOf(g, g.mustCall(201, "cy", "POST", "/api/v1/races", `{"draw":3,"turns":"alternating","first":"creator","series":3}`))
	l.typ("lobby")
	g.call("bob", "GET", "/api/v1/lobby", nil)
	g.mustCall(201, "bob", "POST", "/api/v1/races", `{"code":"DR1-D1UI-QWERTYU","public":false}`)
	g.call("ada", "GET", "/api/v1/lobby", nil)
	l.sync()

	g.step("a block hides the races of the blocked player at once; an unblock shows them")
	g.mustCall(204, "bob", "POST", "/api/v1/players/"+g.player("cy").id+"/block", nil)
	l.typ("lobby")
	g.call("bob", "GET", "/api/v1/lobby", nil)
	g.call("bob", "POST", "/api/v1/races/"+r2+"/join", nil)
	g.mustCall(204, "bob", "POST", "/api/v1/players/"+g.player("cy").id+"/block", nil)
	g.mustCall(204, "bob", "DELETE", "/api/v1/players/"+g.player("cy").id+"/block", nil)
	l.typ("lobby")

	g.step("joined from the lobby (no invite), then cancelled: each leaves the list")
	g.call("bob", "POST", "/api/v1/races/"+r1+"/join", nil)
	g.call("cy", "POST", "/api/v1/races/"+r1+"/join", `{}`)
	l.typ("lobby")
	g.call("ada", "GET", "/api/v1/games/"+r1, nil)
	g.mustCall(200, "cy", "POST", "/api/v1/races/"+r2+"/cancel", nil)
	l.typ("lobby")
	g.call("bob", "GET", "/api/v1/lobby", nil)

	g.step("what the lobby socket takes: pings, nothing else")
	l.send(`{"type":"ping"}`)
	l.typ("pong")
	l.send(`{"type":"action","id":"x","action":{"type":"draw"}}`)
	l.typ("reject")
	l.send(`nope`)
	l.typ("reject")
	g.dialRefused("", "/api/v1/lobby/ws")
	g.dialRefused("bob", "/api/v1/lobby/ws", "Origin", "https://evil.example")
}

// ---- errors ----

// flowErrors: bad requests on every family of routes, the socket limits,
// the rate limits, and the operators' routes.
func flowErrors(g *golden) {
	g.newPlayer("ada", "Ada")
	g.newPlayer("bob", "Bob")
	id, _ := gameOf(g, g.mustCall(201, "ada", "POST", "/api/v1/games", `{"code":"DS1-D1N-AAAAAAB"}`))
	path := "/api/v1/games/" + id
	big := `{"name":"` + strings.Repeat("x", 17<<10) + `"}`

	g.step("routes, methods, credentials")
	g.call("ada", "GET", "/api/v1/nope", nil)
	g.call("ada", "PUT", "/api/v1/me", `{}`)
	g.call("ada", "DELETE", "/api/v1/games", nil)
	g.call("", "GET", "/api/v1/me", nil)
	g.call("", "GET", "/api/v1/me", nil, "Authorization", "Basic YWRhOmFkYQ==")
	g.call("", "GET", "/api/v1/me", nil, "Authorization", "Bearer nosuchtoken")
	g.call("", "GET", "/api/v1/me", nil, "Cookie", "dsol_session=nosuchtoken")
	g.call("", "POST", "/api/v1/games", `{}`, "Cookie", "dsol_session="+g.player("ada").token, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")

	g.step("bodies: not JSON, unknown fields, too large, keys twice")
	g.call("", "POST", "/api/v1/players", `{`)
	g.call("", "POST", "/api/v1/players", `{"nom":"x"}`)
	g.call("", "POST", "/api/v1/players", big)
	g.call("", "POST", "/api/v1/players", `{"name":"a","name":"b"}`)
	g.call("", "POST", "/api/v1/players", `{"name":"a"} {}`)
	g.call("", "POST", "/api/v1/players", "{\"name\":\"\xff\"}")
	g.call("ada", "PATCH", "/api/v1/me", `{"name":"   "}`)
	g.call("ada", "PATCH", "/api/v1/me", `{"name":"`+strings.Repeat("n", 25)+`"}`)

	g.step("solo games: bad codes and options, unknown and foreign games")
	g.call("ada", "POST", "/api/v1/games", `{"code":"DS9-D1N-AAAAAAB"}`)
	g.call("ada", "POST", "/api/v1/games", `{"code":"DR1-D1UI-QWERTYU"}`)
	g.call("ada", "POST", "/api/v1/games", `{"code":"DS1-D1N-AAAAAAB","draw":1}`)
	g.call("ada", "POST", "/api/v1/games", `{"code":"DS1-D1N-AAAAAAB","winnable":true}`)
	g.call("ada", "POST", "/api/v1/games", `{"draw":2}`)
	g.call("ada", "POST", "/api/v1/games", `{"scoring":"klondike"}`)
	g.call("ada", "POST", "/api/v1/games", `{"draw":"1"}`)
	g.call("ada", "POST", "/api/v1/games", `[]`)
	g.call("ada", "GET", "/api/v1/games/nosuchgame00000", nil)
	g.call("bob", "GET", path, nil)
	g.call("bob", "GET", path+"/replay", nil)
	g.call("ada", "GET", "/api/v1/codes/nope", nil)
	g.call("ada", "GET", "/api/v1/codes/DS1-D2N-AAAAAAB", nil)

	g.step("actions: malformed envelopes, client ids, seqs")
	g.call("ada", "POST", path+"/actions", `{}`)
	g.call("ada", "POST", path+"/actions", `{"action":{}}`)
	g.call("ada", "POST", path+"/actions", `{"action":{"type":"move"}}`)
	g.call("ada", "POST", path+"/actions", `{"action":{"type":"move","from":"c0","to":"f1"}}`)
	g.call("ada", "POST", path+"/actions", `{"action":{"type":"draw","extra":1}}`)
	g.call("ada", "POST", path+"/actions", `{"action":{"type":"draw"},"id":""}`)
	g.call("ada", "POST", path+"/actions", `{"action":{"type":"draw"},"id":"`+strings.Repeat("i", 65)+`"}`)
	g.call("ada", "POST", path+"/actions", `{"action":{"type":"draw","id":"a"},"id":"b"}`)
	g.call("ada", "POST", path+"/actions", `{"action":{"type":"draw"},"seq":-1}`)
	g.call("ada", "POST", path+"/actions", `{"action":{"type":"draw"},"seq":"0"}`)
	g.call("ada", "POST", path+"/actions", `{"action":{"type":"draw"}`)
	g.call("ada", "POST", path+"/actions", big)
	g.call("ada", "POST", "/api/v1/games/nosuchgame00000/actions", act(`{"type":"draw"}`))
	g.call("bob", "POST", path+"/actions", act(`{"type":"draw"}`))

	g.step("races: bad codes and options, unknown races")
	g.call("ada", "POST", "/api/v1/races", `{"code":"DS1-D1N-AAAAAAB"}`)
	g.call("ada", "POST", "/api/v1/races", `{"code":"DR1-D1UI-QWERTYU","draw":1}`)
	g.call("ada", "POST", "/api/v1/races", `{"turns":"sometimes"}`)
	g.call("ada", "POST", "/api/v1/races", `{"redeal":"twice"}`)
	g.call("ada", "POST", "/api/v1/races", `{"decks":"three"}`)
	g.call("ada", "POST", "/api/v1/races", `{"first":"me"}`)
	g.call("ada", "POST", "/api/v1/races", `{"series":0}`)
	g.call("ada", "POST", "/api/v1/races", `{"bot":"superfast"}`)
	g.call("ada", "POST", "/api/v1/races", `{"turnSeconds":-5}`)
	g.call("ada", "POST", "/api/v1/races/nosuchrace00000/join", `{}`)
	g.call("ada", "POST", "/api/v1/races/nosuchrace00000/cancel", nil)
	g.call("ada", "POST", "/api/v1/races/nosuchrace00000/rematch", nil)
	g.call("ada", "POST", "/api/v1/races/nosuchrace00000/decline", nil)
	g.call("ada", "POST", "/api/v1/races/"+id+"/join", `{}`)
	g.call("ada", "POST", "/api/v1/races/"+id+"/rematch", nil)

	g.step("sockets: too many frames, then too many refused ones; a frame too large; too many sockets")
	s := g.dial("ada", "ada#1", path+"/ws?v=2")
	s.typ("state")
	for range 61 {
		s.send(`{"type":"ping"}`)
	}
	s.closedByServer()
	s = g.dial("ada", "ada#2", path+"/ws")
	s.typ("state")
	s.send(`{"type":"ping","pad":"` + strings.Repeat("p", 9000) + `"}`)
	s.closedByServer()
	for i := range 8 {
		g.dial("bob", fmt.Sprintf("bob#%d", i+1), "/api/v1/lobby/ws").typ("lobby")
	}
	g.dialRefused("bob", "/api/v1/lobby/ws")

	g.step("daily and lobby: bad days, modes and limits")
	g.call("ada", "GET", "/api/v1/daily/yesterday", nil)
	g.call("ada", "GET", "/api/v1/daily/2030-01-02/D1N/leaderboard?limit=101", nil)
	g.call("ada", "GET", "/api/v1/daily/2030-01-02/D1N/leaderboard?limit=x", nil)
	g.call("ada", "POST", "/api/v1/daily/d1n", nil)
	g.call("", "GET", "/api/v1/lobby", nil)

	g.step("hints and checks: the hint bucket runs out")
	for range 6 {
		g.call("ada", "GET", path+"/hint", nil)
	}
	g.call("ada", "POST", path+"/check", `{"on":true}`)
	g.advance(time.Second)
	g.call("ada", "POST", path+"/check", `{"on":true}`)

	g.step("writes: the player's bucket runs out, and refills with time")
	for range 41 {
		g.call("bob", "POST", "/api/v1/games/nosuchgame00000/actions", act(`{"type":"draw"}`))
	}
	g.advance(time.Second)
	g.call("bob", "POST", "/api/v1/games/nosuchgame00000/actions", act(`{"type":"draw"}`))
	g.call("bob", "GET", "/api/v1/me", nil)

	g.step("the operators' routes and the API document (its SHA-256: it is a file of its own)")
	g.call("", "GET", "/healthz", nil)
	g.call("", "GET", "/readyz", nil)
	g.callDigest("", "GET", "/api/v1/openapi.json")
}
