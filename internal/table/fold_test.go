package table

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"dsol/internal/cards"
	"dsol/internal/delta"
	"dsol/internal/klondike"
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
func gameState(tb testing.TB, v View) map[string]any {
	return delta.GameState(decode(tb, appendJSON(nil, v)))
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

// playFolded plays a random game through an engine and checks at every seq
// that folding the delta into the previous state gives the view.
func playFolded(tb testing.TB, r *rand.Rand, eng Engine, viewer int, actions int, race bool, c *deltaCase) {
	prev := eng.View(viewer, "g", 0)
	state := gameState(tb, prev)
	if c != nil {
		c.Start = gameState(tb, prev)
	}
	seq := int64(0)
	for tries := 0; seq < int64(actions) && tries < actions*40; tries++ {
		seat := 1
		if race {
			seat = 1 + r.IntN(2)
		}
		if eng.Check(seat) != nil {
			break
		}
		if _, err := eng.Apply(seat, randomAction(r, race)); err != nil {
			continue
		}
		seq++
		v := eng.View(viewer, "g", seq)
		d := v.AppendDelta(nil, prev)
		if err := delta.Fold(state, seq, decode(tb, d)); err != nil {
			tb.Fatal(err)
		}
		want := gameState(tb, v)
		if !reflect.DeepEqual(state, want) {
			tb.Fatalf("seq %d: folding %s gives\n%v\nwant\n%v", seq, d, state, want)
		}
		if c != nil {
			c.Events = append(c.Events, deltaStep{Seq: seq, D: d, View: want})
		}
		prev = v
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
// folding each event's delta into the state before it gives exactly the
// view after it.
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
		t.Fatalf("%s is not what this code makes (%v): run go test ./internal/table -run TestDeltaGolden -update", path, err)
	}
}
