package ws_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"dsol/internal/apitest"
	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/klondike"
	"dsol/internal/race"
	"dsol/internal/service"
	"dsol/internal/store"
	"dsol/internal/ws"
)

// raceJSON is what the tests read of a race answer.
type raceJSON struct {
	ID, Invite, Code string
}

// mustRace creates a race over REST.
func (p *player) mustRace(tb testing.TB, body string) raceJSON {
	tb.Helper()
	var v raceJSON
	p.MustJSON(tb, "POST", "/api/v1/races", body, 201, &v)
	return v
}

// mustJoin takes seat 2.
func (p *player) mustJoin(tb testing.TB, r raceJSON) {
	tb.Helper()
	p.MustJSON(tb, "POST", "/api/v1/races/"+r.ID+"/join", `{"invite":"`+r.Invite+`"}`, 200, nil)
}

// next reads the next frame that is not a presence notice.
func (c *conn) next() msg {
	c.tb.Helper()
	for {
		if m := c.mustRead(); m.Type != "presence" {
			return m
		}
	}
}

// answer reads up to the ack or reject of id and up to the event of seq
// until (0: none), returning the answer and the other frames seen.
func (c *conn) answer(id string, until int64) (msg, []msg) {
	c.tb.Helper()
	var ans msg
	var rest []msg
	var last int64
	for ans.Type == "" || last < until {
		m := c.next()
		switch {
		case (m.Type == "ack" || m.Type == "reject") && m.ID == id:
			ans = m
			if m.Type == "ack" && m.Seq > until {
				until = m.Seq
			}
			continue
		case m.Type == "event":
			last = m.Seq
		}
		rest = append(rest, m)
	}
	return ans, rest
}

// tooLateDeals finds mirrored deals whose face-up tops hold an ace and the
// two of its suit in both seats: (code, ace column, two column).
func tooLateDeals(n int) [][3]string {
	var out [][3]string
	for d := uint64(0); d < 50000 && len(out) < n; d++ {
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
				out = append(out, [3]string{code.String(), fmt.Sprint(a), fmt.Sprint(two)})
				break
			}
		}
	}
	return out
}

// foundationsOf returns the foundations of a frame's view.
func foundationsOf(tb testing.TB, m msg) string {
	var v struct {
		Foundations json.RawMessage `json:"foundations"`
	}
	if err := json.Unmarshal(m.Game, &v); err != nil || len(v.Foundations) == 0 {
		tb.Fatalf("no foundations in %s", m.raw)
	}
	return string(v.Foundations)
}

// TestRaceTooLate: both players send the same two onto the same foundation
// at the same moment, race after race: exactly one is acknowledged, the
// other gets too_late, and both sockets show the same foundations.
func TestRaceTooLate(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustEnv(t, st, nil)
		ada, bob := e.mustPlayer(t), e.mustPlayer(t)
		deals := tooLateDeals(12)
		if len(deals) < 12 {
			t.Fatalf("%d deals", len(deals))
		}
		wins := map[int]int{}
		for round, d := range deals {
			r := ada.mustRace(t, `{"code":"`+d[0]+`"}`)
			bob.mustJoin(t, r)
			ca, cb := ada.mustDial(t, r.ID, ""), bob.mustDial(t, r.ID, "")
			ca.next()
			cb.next()
			ca.Act("ace", `{"type":"move","from":"c`+d[1]+`","to":"f"}`)
			ack, evs := ca.answer("ace", 1)
			if ack.Type != "ack" || ack.Seq != 1 {
				t.Fatalf("round %d: ace %s", round, ack.raw)
			}
			var slot struct {
				To string `json:"to"`
			}
			json.Unmarshal(evs[len(evs)-1].Action, &slot)
			for cb.next().Type != "event" {
			}
			move := `{"type":"move","from":"c` + d[2] + `","to":"` + slot.To + `"}`
			var wg sync.WaitGroup
			res := make([]msg, 2)
			views := make([]msg, 2)
			for i, c := range []*conn{ca, cb} {
				wg.Go(func() { c.Act("two", move) })
				_ = i
			}
			wg.Wait()
			for i, c := range []*conn{ca, cb} {
				ans, evs := c.answer("two", 2)
				res[i], views[i] = ans, evs[len(evs)-1]
			}
			acked := 0
			for i, m := range res {
				switch {
				case m.Type == "ack" && m.Seq == 2:
					acked++
					wins[i+1]++
				case m.Type == "reject" && m.Error.Code == string(game.TooLate):
				default:
					t.Fatalf("round %d: seat %d got %s", round, i+1, m.raw)
				}
			}
			if acked != 1 {
				t.Fatalf("round %d: %d acks", round, acked)
			}
			if fa, fb := foundationsOf(t, views[0]), foundationsOf(t, views[1]); fa != fb || views[0].Seq != 2 || views[1].Seq != 2 {
				t.Fatalf("round %d: foundations differ:\n%s\n%s", round, fa, fb)
			}
			ca.Conn.CloseNow()
			cb.Conn.CloseNow()
		}
		t.Logf("wins by seat over %d rounds: %v", len(deals), wins)
	})
}

// TestRaceSeats: a spectator follows but cannot act; a player acts only for
// their own seat and only on their turn in alternating mode.
func TestRaceSeats(t *testing.T) {
	e := mustEnv(t, apitest.SQLite(t), nil)
	ada, bob, eve := e.mustPlayer(t), e.mustPlayer(t), e.mustPlayer(t)
	r := ada.mustRace(t, `{"code":"DR1-D1UI-QWERTYU","turns":"alternating","first":"creator"}`)
	bob.mustJoin(t, r)
	ca, cb, ce := ada.mustDial(t, r.ID, ""), bob.mustDial(t, r.ID, ""), eve.mustDial(t, r.ID, "")
	for _, c := range []*conn{ca, cb, ce} {
		if s := c.next(); s.Type != "state" {
			t.Fatalf("first frame %s", s.raw)
		}
	}
	ce.Act("e1", `{"type":"draw"}`)
	if m, _ := ce.answer("e1", 0); m.Type != "reject" || m.Error.Code != string(game.Forbidden) {
		t.Fatalf("spectator action: %s", m.raw)
	}
	cb.Act("b1", `{"type":"draw"}`)
	if m, _ := cb.answer("b1", 0); m.Type != "reject" || m.Error.Code != string(game.NotYourTurn) {
		t.Fatalf("off-turn action: %s", m.raw)
	}
	cb.Act("b2", `{"type":"draw","seat":1}`)
	if m, _ := cb.answer("b2", 0); m.Type != "reject" || m.Error.Code != string(game.BadRequest) {
		t.Fatalf("action for the other seat: %s", m.raw)
	}
	ca.Act("a1", `{"type":"draw"}`)
	if m, _ := ca.answer("a1", 1); m.Type != "ack" || m.Seq != 1 {
		t.Fatalf("on-turn action: %s", m.raw)
	}
	// Everyone sees the event, each with their own view.
	for i, c := range []*conn{cb, ce} {
		m := c.next()
		var v struct {
			You *int `json:"you"`
		}
		json.Unmarshal(m.Game, &v)
		if m.Type != "event" || m.Seq != 1 || m.Seat != 1 || (i == 0) != (v.You != nil && *v.You == 2) || (i == 1 && v.You != nil) {
			t.Fatalf("viewer %d: %s", i, m.raw)
		}
	}
}

// TestRaceAgainstBot: a client plays seat 1 over the WebSocket with the
// engine's bot against the server's bot in seat 2 until the race is over.
func TestRaceAgainstBot(t *testing.T) {
	tc := apitest.NewClock()
	// The rate clock of the sockets stands still: a burst for the whole race.
	e := mustEnv(t, apitest.SQLite(t), func(c *ws.Config) { c.MessageBurst = 1 << 20 },
		func(c *service.Config) { c.Clock, c.Live.AfterFunc = tc.Now, tc.AfterFunc })
	ada := e.mustPlayer(t)
	r := ada.mustRace(t, `{"code":"DR1-D1UI-HELLOXY","turns":"alternating","first":"creator","bot":"normal"}`)
	code, _ := cards.ParseCode("DR1-D1UI-HELLOXY") // a chosen deal: the test knows it, the views do not tell it
	shadow, err := race.New(code, race.Options{Turns: race.Alternating, First: race.FirstCreator, FirstSeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := ada.mustDial(t, r.ID, "")
	if s := c.next(); s.Type != "state" {
		t.Fatalf("first frame %s", s.raw)
	}
	var applied int64
	var over *msg
	apply := func(ms []msg) {
		for _, m := range ms {
			switch m.Type {
			case "event":
				if m.Seq != applied+1 {
					t.Fatalf("event %d after %d", m.Seq, applied)
				}
				a, err := klondike.DecodeAction(m.Action)
				if err == nil {
					_, err = shadow.Apply(m.Seat, a)
				}
				if err != nil {
					t.Fatalf("replay %s: %v", m.raw, err)
				}
				applied = m.Seq
			case "over":
				over = &m
			}
		}
	}
	var me race.Bot
	for i := 0; i < 20000 && shadow.Status() == race.Playing; i++ {
		if shadow.Turn() == 2 {
			tc.Advance(time.Second) // the bot thinks for 900ms
			apply(c.sync())
			continue
		}
		a, _ := me.Next(shadow.Seen(1))
		id := fmt.Sprintf("m%d", i)
		c.Act(id, string(a.AppendJSON(nil)))
		ans, evs := c.answer(id, 0)
		if ans.Type != "ack" {
			t.Fatalf("move %s: %s", a.AppendJSON(nil), ans.raw)
		}
		apply(evs)
		for applied < ans.Seq {
			m := c.next()
			apply([]msg{m})
		}
	}
	if shadow.Status() != race.Over {
		t.Fatalf("race not over after %d events", applied)
	}
	for over == nil {
		m := c.next()
		apply([]msg{m})
	}
	var res struct {
		Counts [2]int `json:"counts"`
	}
	if err := json.Unmarshal(over.Result, &res); err != nil || res.Counts != shadow.Result().Counts {
		t.Fatalf("over %s, shadow %+v", over.raw, shadow.Result())
	}
	t.Logf("race over after %d events: %s", applied, over.Result)
}
