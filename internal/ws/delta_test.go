package ws_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dsol/internal/apitest"
	"dsol/internal/delta"
	"dsol/internal/finishtest"
	"dsol/internal/store"
	"dsol/internal/ws"
)

// folder keeps a client's state of a game from protocol 2 messages.
type folder struct {
	tb    testing.TB
	c     *conn
	state map[string]any
	seq   int64
	sizes []int // event message bytes
}

func (f *folder) take(m msg) {
	f.tb.Helper()
	switch m.Type {
	case "state":
		f.state, f.seq = delta.GameState(decodeMap(f.tb, m.Game)), m.Seq
	case "event":
		if m.Seq != f.seq+1 {
			f.tb.Fatalf("event %d after %d", m.Seq, f.seq)
		}
		if m.Game != nil || m.D == nil {
			f.tb.Fatalf("a live protocol 2 event without a delta: %s", m.raw)
		}
		if strings.Contains(string(m.raw), `"game"`) {
			f.tb.Fatalf("a delta event carries the view: %s", m.raw)
		}
		if err := delta.Fold(f.state, m.Seq, decodeMap(f.tb, m.D)); err != nil {
			f.tb.Fatal(err)
		}
		f.seq = m.Seq
		f.sizes = append(f.sizes, len(m.raw))
	}
}

// drain reads everything the server had to say (up to a pong) and folds it.
func (f *folder) drain() []msg {
	f.tb.Helper()
	ms := f.c.sync()
	for _, m := range ms {
		f.take(m)
	}
	return ms
}

func decodeMap(tb testing.TB, b []byte) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatalf("%v: %s", err, b)
	}
	return m
}

// restState is a viewer's view over REST, as game state.
func restState(tb testing.TB, p *player, id string) map[string]any {
	tb.Helper()
	var v map[string]any
	p.MustJSON(tb, "GET", "/api/v1/games/"+id, "", 200, &v)
	return delta.GameState(v)
}

// randomActions are candidate actions of a seat; many are refused.
func randomAction(r *rand.Rand, cols int, undo bool) string {
	pile := func() string {
		if r.IntN(4) == 0 {
			return "w"
		}
		return fmt.Sprintf("c%d", 1+r.IntN(cols))
	}
	switch n := r.IntN(10); {
	case n < 3:
		return `{"type":"draw"}`
	case n < 4:
		return `{"type":"recycle"}`
	case n < 5 && undo:
		return `{"type":"undo"}`
	case n < 7:
		return `{"type":"tap","from":"` + pile() + `"}`
	case n < 9:
		return fmt.Sprintf(`{"type":"dtap","from":%q,"count":%d}`, pile(), 1+r.IntN(3))
	default:
		return fmt.Sprintf(`{"type":"move","from":%q,"to":"c%d","count":1}`, pile(), 1+r.IntN(cols))
	}
}

func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestDeltaProtocol: on a protocol 2 socket (?v=2) every event carries what
// changed, and folding the events into the first state gives the server's
// view (REST) at every seq, for a solo game and for both seats and a
// spectator of a race, while a protocol 1 socket on the same game still gets
// whole views. The sender's ack and its event come in one frame.
func TestDeltaProtocol(t *testing.T) {
	forEachStore(t, func(t *testing.T, st store.Store) {
		e := mustEnv(t, st, func(c *ws.Config) { c.MessageRate, c.MessageBurst = 1e6, 1e6 })
		r := rand.New(rand.NewPCG(3, 4))

		ada := e.mustPlayer(t)
		g := ada.mustSolo(t)
		f := &folder{tb: t, c: ada.mustDial(t, g, "?v=2")}
		f.take(f.c.mustReadType("state"))
		old := ada.mustDial(t, g, "")
		old.mustReadType("state")
		framesBefore := f.c.frames
		acked := 0
		for i := range 150 {
			f.c.Act(fmt.Sprintf("s%d", i), randomAction(r, 9, true))
			for _, m := range f.drain() {
				if m.Type == "ack" {
					acked++
				}
			}
			if want := restState(t, ada, g); !reflect.DeepEqual(f.state, want) {
				t.Fatalf("solo seq %d: folded\n%v\nREST\n%v", f.seq, f.state, want)
			}
		}
		if acked < 50 {
			t.Fatalf("only %d of 150 actions applied", acked)
		}
		// An ack rides with its event: about one frame per action plus the
		// pongs, not two.
		if frames := f.c.frames - framesBefore; frames > 150*2+5 {
			t.Fatalf("%d frames for 150 actions and 150 pongs", frames)
		}
		for _, m := range old.sync() {
			if m.Type == "event" && m.Game == nil {
				t.Fatalf("a protocol 1 event without its view: %s", m.raw)
			}
		}
		t.Logf("solo: %d events, median event message %d bytes", len(f.sizes), median(f.sizes))

		// A race: both seats and a spectator follow it with deltas.
		bob, cy := e.mustPlayer(t), e.mustPlayer(t)
		rc := ada.mustRace(t, `{"draw":1}`)
		bob.mustJoin(t, rc)
		seats := []*player{ada, bob, cy}
		fs := make([]*folder, 3)
		for i, p := range seats {
			fs[i] = &folder{tb: t, c: p.mustDial(t, rc.ID, "?v=2")}
			fs[i].take(fs[i].c.mustReadType("state"))
		}
		for i := range 200 {
			seat := r.IntN(2)
			fs[seat].c.Act(fmt.Sprintf("r%d", i), randomAction(r, 7, false))
			// The sender's answer comes after the event went to every
			// subscriber: then the others' pongs follow it too.
			fs[seat].drain()
			for j, fl := range fs {
				if j != seat {
					fl.drain()
				}
				if j == 2 || i%10 == 0 {
					if want := restState(t, seats[j], rc.ID); !reflect.DeepEqual(fl.state, want) {
						t.Fatalf("race viewer %d seq %d: folded\n%v\nREST\n%v", j, fl.seq, fl.state, want)
					}
				}
			}
		}
		// The end of the race: code, salt, result and series arrive in the
		// delta of the event that ended it.
		fs[0].c.Act("resign", `{"type":"resign"}`)
		fs[0].drain()
		for j, fl := range fs {
			if j != 0 {
				fl.drain()
			}
			want := restState(t, seats[j], rc.ID)
			if want["status"] != "over" || want["code"] == nil {
				t.Fatalf("after the resign: %v", want)
			}
			if !reflect.DeepEqual(fl.state, want) {
				t.Fatalf("race viewer %d, over: folded\n%v\nREST\n%v", j, fl.state, want)
			}
		}
		var all []int
		for _, fl := range fs {
			all = append(all, fl.sizes...)
		}
		t.Logf("race: %d events over 3 viewers, median event message %d bytes", len(all), median(all))
	})
}

// TestDeltaFinish: the event of a finish, which plays many cards up at once,
// folds into the view the server then serves, and the view's finish key
// arrives in deltas as it comes and goes.
func TestDeltaFinish(t *testing.T) {
	code, line := finishtest.Line(t, 3)
	e := mustEnv(t, apitest.SQLite(t), func(c *ws.Config) { c.MessageRate, c.MessageBurst = 1e6, 1e6 })
	ada := e.mustPlayer(t)
	var g struct{ ID string }
	ada.MustJSON(t, "POST", "/api/v1/games", `{"code":"`+code.String()+`"}`, 201, &g)
	f := &folder{tb: t, c: ada.mustDial(t, g.ID, "?v=2")}
	f.take(f.c.mustReadType("state"))
	for i, a := range line {
		f.c.Act(fmt.Sprintf("l%d", i), string(a.AppendJSON(nil)))
		if i%20 == 19 || i == len(line)-1 {
			f.drain()
		}
	}
	if want := restState(t, ada, g.ID); f.state["finish"] != true || !reflect.DeepEqual(f.state, want) {
		t.Fatalf("at the end of the line: folded\n%v\nREST\n%v", f.state, want)
	}
	f.c.Act("fin", `{"type":"finish"}`)
	f.drain()
	if want := restState(t, ada, g.ID); want["status"] != "won" || f.state["finish"] != false || !reflect.DeepEqual(f.state, want) {
		t.Fatalf("after the finish: folded\n%v\nREST\n%v", f.state, want)
	}
}

// TestProtocolVersion: v is 1, 2 or absent.
func TestProtocolVersion(t *testing.T) {
	e := mustEnv(t, apitest.SQLite(t), nil)
	p := e.mustPlayer(t)
	g := p.mustSolo(t)
	for _, q := range []string{"?v=3", "?v=two", "?v=0"} {
		_, res, err := p.Handshake(t.Context(), "/api/v1/games/"+g+"/ws"+q, nil)
		if err == nil || res == nil || res.StatusCode != 400 || errorCode(t, res) != "bad_request" {
			t.Fatalf("%s: %v", q, err)
		}
	}
	p.mustDial(t, g, "?v=1").mustReadType("state")
}
