package engine

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"dsol/internal/cards"
	"dsol/internal/delta"
	"dsol/internal/finishtest"
	"dsol/internal/klondike"
	"dsol/internal/protocol"
	"dsol/internal/store"
)

// decode turns JSON into generic values, failing the test on bad JSON.
func decode(tb testing.TB, b []byte) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatalf("%v: %s", err, b)
	}
	return m
}

// gameState is the part of a view that is game state at a seq.
func gameState(tb testing.TB, v protocol.View) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return delta.GameState(decode(tb, b))
}

// randomAction picks an action for seat of a game; many are refused, which
// the caller skips.
func randomAction(r *rand.Rand, race bool) klondike.Action {
	cols := 9
	if race {
		cols = 7
	}
	pile := func() klondike.Pile {
		if r.IntN(4) == 0 {
			return klondike.Waste
		}
		return klondike.ColPile(r.IntN(cols))
	}
	switch n := r.IntN(20); {
	case n < 5:
		return klondike.Simple(klondike.Draw)
	case n < 6:
		return klondike.Simple(klondike.Recycle)
	case n < 7 && !race:
		return klondike.Simple(klondike.Undo)
	case n < 11:
		return klondike.FromPile(klondike.Tap, pile(), 1)
	case n < 15:
		return klondike.FromPile(klondike.DTap, pile(), 1+r.IntN(4))
	case n < 16 && !race:
		return klondike.NewMove(klondike.Slot(r.IntN(8)), klondike.ColPile(r.IntN(cols)), 1)
	default:
		return klondike.NewMove(pile(), klondike.ColPile(r.IntN(cols)), 1+r.IntN(3))
	}
}

// deltaCase is one game of the golden file the JavaScript fold is tested
// on: the view at seq 0, then each event's seq, delta and the view after.
type deltaCase struct {
	Start  map[string]any `json:"start"`
	Events []deltaStep    `json:"events"`
}

type deltaStep struct {
	Seq  int64           `json:"seq"`
	D    json.RawMessage `json:"d"`
	View map[string]any  `json:"view"`
}

// folder applies actions to an engine and checks at every seq that folding
// the delta into the previous state gives the view; with c set it records
// each event for the golden file.
type folder struct {
	tb     testing.TB
	eng    Engine
	viewer int
	seq    int64
	prev   protocol.View
	state  map[string]any
	c      *deltaCase
}

func newFolder(tb testing.TB, eng Engine, viewer int, seq int64, c *deltaCase) *folder {
	f := &folder{tb: tb, eng: eng, viewer: viewer, seq: seq, prev: eng.View(viewer, "g", seq)}
	f.state = gameState(tb, f.prev)
	if c != nil {
		c.Start = gameState(tb, f.prev)
	}
	f.c = c
	return f
}

// apply applies an action of seat and reports whether the engine took it.
func (f *folder) apply(seat int, a klondike.Action) bool {
	if _, err := f.eng.Apply(seat, a); err != nil {
		return false
	}
	if e, ok := f.eng.(*Solo); ok {
		e.still = nil // as the table's startCheck: not known yet at the new seq
	}
	f.seq++
	v := f.eng.View(f.viewer, "g", f.seq)
	d := v.AppendDelta(nil, f.prev)
	if err := delta.Fold(f.state, f.seq, decode(f.tb, d)); err != nil {
		f.tb.Fatal(err)
	}
	want := gameState(f.tb, v)
	if !reflect.DeepEqual(f.state, want) {
		f.tb.Fatalf("seq %d: folding %s gives\n%v\nwant\n%v", f.seq, d, f.state, want)
	}
	if f.c != nil {
		f.c.Events = append(f.c.Events, deltaStep{Seq: f.seq, D: d, View: want})
	}
	f.prev = v
	return true
}

// check gives a solo engine the live check's answer at the current seq as
// a check notice does: the client sets the key, and the table's delta base
// takes the answer, so the next delta must say when it changes.
func (f *folder) check(v *bool) {
	e, ok := f.eng.(*Solo)
	if !ok {
		return
	}
	e.still = v
	if v == nil {
		f.state["stillWinnable"] = nil
	} else {
		f.state["stillWinnable"] = *v
	}
	f.prev = f.eng.View(f.viewer, "g", f.seq)
}

// playFolded plays a random game through an engine, folding every event;
// without a golden case, a solo game also gets random check answers
// between its actions.
func playFolded(tb testing.TB, r *rand.Rand, eng Engine, viewer int, actions int, race bool, c *deltaCase) {
	f := newFolder(tb, eng, viewer, 0, c)
	answers := []*bool{nil, new(bool), new(bool)}
	*answers[2] = true
	for tries := 0; f.seq < int64(actions) && tries < actions*40; tries++ {
		seat := 1
		if race {
			seat = 1 + r.IntN(2)
		}
		if eng.Check(seat) != nil {
			break
		}
		if c == nil && r.IntN(2) == 0 {
			f.check(answers[r.IntN(3)])
		}
		f.apply(seat, randomAction(r, race))
	}
}

// finishFolded plays a solo game of draw 1 or 3 along the solver's line to
// where a finish is legal and finishes it, folding the events from the
// action before the last of the line (with c set, only those are
// recorded): the finish changes many piles at once.
func finishFolded(tb testing.TB, draw int, c *deltaCase) {
	code, line := finishtest.Line(tb, draw)
	eng, err := NewSolo(store.Game{ID: "g", Kind: "solo", Code: code.String()})
	if err != nil {
		tb.Fatal(err)
	}
	last := len(line) - 1
	for _, a := range line[:last] {
		if _, err := eng.Apply(1, a); err != nil {
			tb.Fatal(err)
		}
	}
	f := newFolder(tb, eng, 1, int64(last), c)
	if !f.apply(1, line[last]) || !f.apply(1, klondike.Simple(klondike.Finish)) {
		tb.Fatalf("%s: the last action of the line or the finish is refused", code)
	}
	if eng.Status() != "won" {
		tb.Fatalf("%s: finished but %s", code, eng.Status())
	}
}

func soloEngine1(tb testing.TB, r *rand.Rand) Engine {
	code := cards.Code{Kind: cards.Solo, Draw: 1 + 2*r.IntN(2), Vegas: r.IntN(2) == 0, Deal: r.Uint64N(cards.DealCount)}
	e, err := NewSolo(store.Game{ID: "g", Kind: "solo", Code: code.String()})
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

func raceEngine1(tb testing.TB, r *rand.Rand) Engine {
	code := cards.Code{Kind: cards.Race, Draw: 1 + 2*r.IntN(2), Single: r.IntN(2) == 0, Mirrored: r.IntN(2) == 0, Deal: r.Uint64N(cards.DealCount)}
	e, err := NewRace(store.Game{ID: "g", Kind: "race", Code: code.String(), Options: []byte(`{}`), Salt: make([]byte, 16)})
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// TestPropertyDeltasFold: for random solo games and races, every viewer,
// and solo games finished by the finish action, folding each event's delta
// into the state before it gives exactly the view after it.
func TestPropertyDeltasFold(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	games := 40
	if testing.Short() {
		games = 10
	}
	for range games {
		playFolded(t, r, soloEngine1(t, r), 1, 200, false, nil)
	}
	for range games {
		viewer := r.IntN(3)
		playFolded(t, r, raceEngine1(t, r), viewer, 200, true, nil)
	}
	for _, draw := range []int{1, 3} {
		finishFolded(t, draw, nil)
	}
}

var update = flag.Bool("update", false, "rewrite the golden files")

// TestDeltaGolden keeps web/test/testdata/deltas.json, the cases the JavaScript
// fold is tested on, the deltas this code makes (go test -update rewrites
// it).
func TestDeltaGolden(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	var cases []deltaCase
	for i := range 4 {
		var c deltaCase
		if i%2 == 0 {
			playFolded(t, r, soloEngine1(t, r), 1, 60, false, &c)
		} else {
			playFolded(t, r, raceEngine1(t, r), 1+i/2, 60, true, &c)
		}
		cases = append(cases, c)
	}
	var c deltaCase
	finishFolded(t, 1, &c)
	cases = append(cases, c)
	b, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	const path = "../../web/test/testdata/deltas.json"
	if *update {
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != string(b)+"\n" {
		t.Fatalf("%s is not what this code makes (%v): run go test ./internal/engine -run TestDeltaGolden -update", path, err)
	}
}

// TestRaceDeltaSameForEveryViewer: in random races, the delta of every event
// is the same for both seats and a spectator, which lets the table build it
// once per event (Frame.like).
func TestRaceDeltaSameForEveryViewer(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for range 20 {
		eng := raceEngine1(t, r)
		var prev [3]protocol.View
		for v := range prev {
			prev[v] = eng.View(v, "g", 0)
		}
		for seq, tries := int64(1), 0; seq <= 150 && tries < 6000 && eng.Check(1) == nil; tries++ {
			if _, err := eng.Apply(1+r.IntN(2), randomAction(r, true)); err != nil {
				continue
			}
			var ds [3][]byte
			for v := range prev {
				next := eng.View(v, "g", seq)
				ds[v] = next.AppendDelta(nil, prev[v])
				prev[v] = next
			}
			if string(ds[0]) != string(ds[1]) || string(ds[1]) != string(ds[2]) {
				t.Fatalf("seq %d: the viewers' deltas differ:\n%s\n%s\n%s", seq, ds[0], ds[1], ds[2])
			}
			seq++
		}
	}
}
