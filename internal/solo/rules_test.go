package solo

import (
	"testing"

	k "dsol/internal/klondike"
)

// step is one action of a rule case: accepted with delta, or refused with err
// (and then the game must be unchanged).
type step struct {
	act   string
	err   k.ErrCode
	delta int
}

// ok and no build the steps of the rule table.
func ok(act string, delta int) step { return step{act: act, delta: delta} }
func no(act string) step            { return step{act: act, err: k.IllegalMove} }

type ruleCase struct {
	name  string
	pos   string
	steps []step
	want  string                      // piles afterwards; "" skips the check
	check func(t *testing.T, g *Game) // more checks afterwards
}

func runCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := mustPosition(t, tc.pos)
			for i, s := range tc.steps {
				if s.err != "" {
					mustRefuse(t, g, s.act, s.err)
					continue
				}
				score, moves := g.Score(), g.Moves()
				out := mustApply(t, g, s.act)
				if out.Delta != s.delta {
					t.Fatalf("step %d %s: delta %d, want %d", i, s.act, out.Delta, s.delta)
				}
				if g.Score() != score+s.delta {
					t.Fatalf("step %d %s: score %d, want %d", i, s.act, g.Score(), score+s.delta)
				}
				wantMoves := moves + 1
				if s.act == "undo" {
					wantMoves = moves
				}
				if g.Moves() != wantMoves {
					t.Fatalf("step %d %s: moves %d, want %d", i, s.act, g.Moves(), wantMoves)
				}
			}
			if tc.want != "" {
				wantPiles(t, g, tc.want)
			}
			if tc.check != nil {
				tc.check(t, g)
			}
		})
	}
}

func wantScore(n int) func(t *testing.T, g *Game) {
	return func(t *testing.T, g *Game) {
		t.Helper()
		if g.Score() != n {
			t.Errorf("score %d, want %d", g.Score(), n)
		}
	}
}

// The rules of docs/rules.md §2, one subtest each.
func TestRules(t *testing.T) {
	rules := []struct {
		rule  string
		cases []ruleCase
	}{
		{"TableauBuild", []ruleCase{
			{name: "opposite colour one lower",
				pos:   "c1: 7H\nc2: 8S\nc3: 8C\nc4: 8H\nc5: 9S\nc6: 6S",
				steps: []step{no("c1>c4"), no("c1>c5"), no("c1>c6"), ok("c1>c2", 0), ok("undo", 0), ok("c1>c3", 0)},
				want:  "c2: 8S\nc3: 8C 7H\nc4: 8H\nc5: 9S\nc6: 6S"},
			{name: "duplicates give four targets",
				pos: "c1: 6S\nc2: 7H\nc3: 7H\nc4: 7D\nc5: 7D\nw: 6C",
				steps: []step{ok("c1>c2", 0), ok("undo", 0), ok("c1>c3", 0), ok("undo", 0),
					ok("c1>c4", 0), ok("undo", 0), ok("c1>c5", 0), ok("w>c4", 5)},
				want: "c2: 7H\nc3: 7H\nc4: 7D 6C\nc5: 7D 6S"},
		}},
		{"SequenceMove", []ruleCase{
			{name: "only the first card must fit",
				pos:   "c1: #4D 9S 8H 7C\nc2: TD\nc3: 8D",
				steps: []step{no("c1>c2 x2"), no("c1>c2"), no("c1>c2 x4"), ok("c1>c3", 0), ok("c1>c2 x2", 5)},
				want:  "c1: 4D\nc2: TD 9S 8H\nc3: 8D 7C"},
			{name: "middle of a run",
				pos:   "c1: KS QH JC TD 9C\nc2: QD",
				steps: []step{ok("c1>c2 x3", 0)},
				want:  "c1: KS QH\nc2: QD JC TD 9C"},
		}},
		{"EmptyColumn", []ruleCase{
			{name: "only a king, alone or with its run",
				pos: "c1: #5H QS JD\nc3: ## KH QC\nc4: #3C KS\nw: QD\nf1: AS..KS",
				steps: []step{no("c1>c2 x2"), no("c1>c2"), no("w>c2"), ok("c3>c2 x2", 5), ok("undo", -5),
					ok("c4>c2", 5), no("f1>c3")},
				want: "c1: ## QS JD\nc2: KS\nc3: ## KH QC\nc4: 3C\nw: QD\nf1: AS..KS"},
			{name: "a king from the waste or a foundation",
				pos:   "c1: 5H\nw: KD\nf1: AS..KS",
				steps: []step{ok("w>c2", 5), ok("f1>c3", 0), no("f1>c4")},
				want:  "c1: 5H\nc2: KD\nc3: KS\nf1: AS..QS"},
		}},
		{"Foundations", []ruleCase{
			{name: "suit rows and slots",
				pos: "c1: AS\nc2: AS\nc3: 2S\nc4: AH\nc5: 2H\nw: 3S",
				steps: []step{no("c4>f1"), no("c4>f2"), no("c4>f5"), ok("c4>f3", 10), ok("c1>f", 10), ok("c2>f2", 10),
					ok("c3>f", 10), no("w>f2"), ok("w>f", 10), no("c5>f4"), ok("c5>f3", 10)},
				want: "f1: AS 2S 3S\nf2: AS\nf3: AH 2H"},
			{name: "f picks f1 before f2",
				pos:   "c1: 2S\nc2: 2S\nf1: AS\nf2: AS",
				steps: []step{ok("c1>f", 10), ok("c2>f", 10)},
				want:  "f1: AS 2S\nf2: AS 2S"},
			{name: "f skips a slot that does not accept",
				pos:   "c1: 2S\nf1: AS 2S\nf2: AS",
				steps: []step{no("c1>f1"), ok("c1>f", 10)},
				want:  "f1: AS 2S\nf2: AS 2S"},
			{name: "an ace goes to the second slot of its row",
				pos:   "c1: AD\nf5: AD",
				steps: []step{no("c1>f5"), no("c1>f3"), ok("c1>f", 10)},
				want:  "f5: AD\nf6: AD"},
			{name: "only single cards",
				pos:   "c1: 3S 2H\nf1: AS 2S\nf3: AH",
				steps: []step{no("c1>f x2"), no("c1>f1 x2"), no("c1>f3 x2"), ok("c1>f", 10), ok("c1>f", 10)},
				want:  "f1: AS 2S 3S\nf3: AH 2H"},
		}},
		{"WasteTopOnly", []ruleCase{
			{name: "the top plays, then the one under it",
				pos:   "c1: 6S\nw: 5H 2C\nf7: AC",
				steps: []step{no("w>c1 x2"), no("w>c1"), ok("w>f", 10), ok("w>c1", 5)},
				want:  "c1: 6S 5H\nf7: AC 2C"},
		}},
		{"AutoFlip", []ruleCase{
			{name: "the flip is part of the move",
				pos:   "c1: #9D 5H\nc2: 6S",
				steps: []step{ok("c1>c2", 5)},
				want:  "c1: 9D\nc2: 6S 5H",
				check: func(t *testing.T, g *Game) {
					out := mustApply(t, g, "undo")
					if !out.Flipped || out.Delta != -5 {
						t.Errorf("undo outcome %+v, want the flip undone with -5", out)
					}
					wantPiles(t, g, "c1: ## 5H\nc2: 6S")
					if g.UndoAvailable() != 0 {
						t.Errorf("%d undo steps left, want 0: the flip is not a step of its own", g.UndoAvailable())
					}
				}},
			{name: "a flip by a foundation play",
				pos:   "c1: #9D AS",
				steps: []step{ok("c1>f", 15)},
				want:  "c1: 9D\nf1: AS"},
		}},
		{"Recovery", []ruleCase{
			{name: "to a column by tableau rules, never to the waste",
				pos: "c1: 6H\nc2: 6D\nc3: 6S\nw: 3C\nf1: AS..5S",
				steps: []step{no("f1>w"), no("f1>f2"), no("f1>c1 x2"), no("f1>c3"), no("f1>c4"), no("f1>s"),
					ok("f1>c1", 0), ok("undo", 0), ok("f1>c2", 0), ok("c2>f", 10)},
				want: "c1: 6H\nc2: 6D\nc3: 6S\nw: 3C\nf1: AS..5S"},
			{name: "vegas recovery is free and earns again",
				pos:   "c1: 6H\nf1: AS..5S\nscoring: vegas score: -79",
				steps: []step{ok("f1>c1", 0), ok("c1>f1", 5)},
				check: wantScore(-74)},
		}},
		{"Draw", []ruleCase{
			{name: "draw 1",
				pos:   "s: 2C 3C 4C",
				steps: []step{ok("draw", 0), ok("draw", 0)},
				want:  "w: 2C 3C\ns: 4C"},
			{name: "draw 3, fewer when fewer left, only the last plays",
				pos: "c1: 7H\nc2: 6D\ns: 2C 3C 4C 5C 6C\ndraw: 3",
				steps: []step{ok("draw", 0), no("w>c1"), ok("draw", 0), no("draw"), no("w>c2"), no("w>c1 x2"),
					ok("w>c1", 5), ok("w>c2", 5)},
				want: "c1: 7H 6C\nc2: 6D 5C\nw: 2C 3C 4C"},
		}},
		{"RecycleOrder", []ruleCase{
			{name: "draw 1",
				pos:   "s: 2C 3C 4C",
				steps: []step{ok("draw", 0), ok("draw", 0), ok("draw", 0), no("draw"), ok("recycle", 0)},
				want:  "s: 2C 3C 4C"},
			{name: "draw 3 after a card was played",
				pos:   "c1: 6D\ns: 2C 3C 4C 5C\ndraw: 3",
				steps: []step{ok("draw", 0), ok("draw", 0), ok("w>c1", 5), ok("recycle", -5), ok("draw", 0)},
				want:  "c1: 6D 5C\nw: 2C 3C 4C"},
		}},
		{"RecycleCost", []ruleCase{
			{name: "100 when the score allows",
				pos: "w: 2C\nscore: 250", steps: []step{ok("recycle", -100)}, check: wantScore(150)},
			{name: "never below 0",
				pos: "w: 2C\nscore: 30", steps: []step{ok("recycle", -30), ok("draw", 0), ok("recycle", 0)}, check: wantScore(0)},
			{name: "undo gives back what was taken",
				pos: "w: 2C\nscore: 30", steps: []step{ok("recycle", -30), ok("undo", 30)}, check: wantScore(30)},
		}},
		{"VegasNoRecycle", []ruleCase{
			{name: "draw 1", pos: "w: 2C 3C\nscoring: vegas", steps: []step{no("recycle"), no("draw")}},
			{name: "draw 3", pos: "w: 2C 3C\ndraw: 3 scoring: vegas", steps: []step{no("recycle"), no("draw")}},
		}},
		{"VegasScoring", []ruleCase{
			{name: "+5 per foundation card, nothing else",
				pos:   "c1: #8S AS\nc2: TC\nw: 9H\nscoring: vegas",
				steps: []step{ok("c1>f", 5), ok("w>c2", 0), ok("c1>c2", 0)},
				check: wantScore(-99)},
			{name: "the 21st foundation card turns the score positive",
				pos:   "c1: AD\nf1: AS..KS\nf3: AH..7H\nscoring: vegas score: -4",
				steps: []step{ok("c1>f", 5)},
				check: wantScore(1)},
		}},
		{"Win", []ruleCase{
			{name: "the 104th card wins and ends the game",
				pos: "c1: KC\nf1: AS..KS\nf2: AS..KS\nf3: AH..KH\nf4: AH..KH\nf5: AD..KD\nf6: AD..KD\nf7: AC..KC\nf8: AC..QC\nscore: 1210",
				steps: []step{ok("tap c1", 10),
					{act: "undo", err: k.GameOver}, {act: "draw", err: k.GameOver}, {act: "recycle", err: k.GameOver},
					{act: "f8>c1", err: k.GameOver}, {act: "tap c1", err: k.GameOver}},
				check: func(t *testing.T, g *Game) {
					if g.Status() != Won || g.Score() != 1220 || g.Stuck() {
						t.Errorf("status %s score %d stuck %v, want won 1220 not stuck", g.Status(), g.Score(), g.Stuck())
					}
				}},
		}},
		{"Tap", []ruleCase{
			{name: "first foundation that accepts",
				pos:   "c1: 3S\nc2: 5D\nc3: 2S\nw: AH\nf1: AS 2S\nf2: AS",
				steps: []step{ok("tap c1", 10), ok("tap w", 10), no("tap c2"), no("tap c4"), no("tap f1"), ok("tap c3", 10)},
				want:  "c2: 5D\nf1: AS 2S 3S\nf2: AS 2S\nf3: AH"},
		}},
		{"DoubleTap", []ruleCase{
			{name: "most cards, face-down included",
				pos:   "c1: 7H\nc2: 9D 8C\nc3: ## ## 8S\nc4: 5C",
				steps: []step{ok("dtap c1", 0)},
				want:  "c2: 9D 8C\nc3: ## ## 8S 7H\nc4: 5C"},
			{name: "ties go left",
				pos:   "c1: 7H\nc2: 5C\nc3: ## 8S\nc4: ## 8C",
				steps: []step{ok("dtap c1", 0)},
				want:  "c2: 5C\nc3: ## 8S 7H\nc4: ## 8C"},
			{name: "never its own column",
				pos:   "c1: ## ## ## 8S 7H\nc2: 8C",
				steps: []step{ok("dtap c1", 0)},
				want:  "c1: ## ## ## 8S\nc2: 8C 7H"},
			{name: "a run with the card",
				pos:   "c1: #2C 6D 5S 4H\nc2: 7C\nc3: 5C",
				steps: []step{ok("dtap c1 x3", 5)},
				want:  "c1: 2C\nc2: 7C 6D 5S 4H\nc3: 5C"},
			{name: "the waste top",
				pos:   "c1: 8S\nw: 7H",
				steps: []step{ok("dtap w", 5), no("dtap w x2")},
				want:  "c1: 8S 7H"},
			{name: "a king goes to the leftmost empty column",
				pos:   "c1: 5D\nc2: #4S KH QS\nc3: 4C",
				steps: []step{ok("dtap c2 x2", 5)},
				want:  "c1: 5D\nc2: 4S\nc3: 4C\nc4: KH QS"},
			{name: "a king prefers... no column but an empty one",
				pos:   "c1: KH\nc2: 5D",
				steps: []step{ok("dtap c1", 0)},
				want:  "c2: 5D\nc3: KH"},
			{name: "otherwise nothing happens",
				pos:   "c1: 5D\nc2: 9C\nw: QS",
				steps: []step{no("dtap c1"), no("dtap w"), no("dtap f1"), no("dtap c2 x2")}},
		}},
		{"Refusals", []ruleCase{
			{name: "nothing changes",
				pos: "c1: 8S 7H\nc2: 6S\nw: 2C 3C\ns: 4C\nf1: AS 2S",
				steps: []step{no("recycle"), no("c1>c1"), no("c2>c2"), no("w>c1 x2"), no("f1>c1 x2"), no("s>c1"),
					no("c1>w"), no("c1>s"), no("c3>c1"), ok("draw", 0), no("draw")}},
			{name: "recycle an empty waste", pos: "c1: 5H", steps: []step{no("recycle"), no("draw")}},
			{name: "undo with nothing to undo", pos: "c1: 5H", steps: []step{no("undo")}},
		}},
		{"Undo", []ruleCase{
			{name: "each action is one step",
				pos: "c1: #4D 6S\nc2: 7H\nw: 5D\ns: 9C\nf1: AS 2S 3S\nscore: 40",
				steps: []step{ok("c1>c2", 5), ok("w>c2", 5), ok("draw", 0), ok("f1>c1", 0), ok("tap c1", 10),
					ok("undo", -10), ok("undo", 0), ok("undo", 0), ok("undo", -5), ok("undo", -5), no("undo")},
				want:  "c1: ## 6S\nc2: 7H\nw: 5D\ns: 9C\nf1: AS 2S 3S",
				check: wantScore(40)},
		}},
		{"Scoring", []ruleCase{
			{name: "normal table",
				pos: "c1: #4S 2S\nc2: 9C 8H\nc3: 9S\nc4: 3H\nw: 7S AS\ns: 5C\nf3: AH 2H",
				steps: []step{ok("w>f", 10), ok("w>c2", 5), ok("c1>f", 15), ok("c4>f", 10), ok("c2>c3 x2", 0),
					ok("f3>c1", 0), ok("draw", 0), ok("c3>c2 x2", 0)}},
		}},
	}
	for _, r := range rules {
		t.Run(r.rule, func(t *testing.T) { runCases(t, r.cases) })
	}
}

func TestUndoLimit(t *testing.T) {
	g := mustPosition(t, "c1: 5H\ns: 2C 3C\nscore: 500")
	for g.Moves() < UndoLimit+1 {
		if g.Board().NStock > 0 {
			mustApply(t, g, "draw")
		} else {
			mustApply(t, g, "recycle")
		}
	}
	for i := 0; i < UndoLimit; i++ {
		mustApply(t, g, "undo")
	}
	mustRefuse(t, g, "undo", k.IllegalMove)
	if g.Moves() != UndoLimit+1 {
		t.Errorf("moves %d after undos, want %d", g.Moves(), UndoLimit+1)
	}
	// One action was beyond the limit: the game is one draw past the start,
	// and the score has back what the later recycles cost.
	if g.Board().NWaste != 1 || g.Score() != 500 {
		t.Errorf("after 200 undos: waste %d score %d, want 1 and 500", g.Board().NWaste, g.Score())
	}
	mustApply(t, g, "draw")
	if g.UndoAvailable() != 1 {
		t.Errorf("undo available %d, want 1", g.UndoAvailable())
	}
}

func TestNewGameScore(t *testing.T) {
	for code, want := range map[string]int{"DS1-D1N-AAAAAAB": 0, "DS1-D3V-AAAAAAB": VegasStart, "DS1-D1V-ZZZZZZZ": -104} {
		g := mustNew(t, code)
		if g.Score() != want || g.Moves() != 0 || g.UndoAvailable() != 0 || g.Status() != Playing {
			t.Errorf("%s: score %d moves %d undo %d status %s", code, g.Score(), g.Moves(), g.UndoAvailable(), g.Status())
		}
	}
	if _, err := New(mustCode(t, "DR1-D1UI-AAAAAAB")); err == nil {
		t.Error("New accepted a race code")
	}
}

func TestStuck(t *testing.T) {
	cases := []struct {
		name  string
		pos   string
		stuck bool
	}{
		{"nothing moves", "c1: ## 5H\nc2: 9S", true},
		{"a stock that cycles uselessly", "c1: ## 5H\nc2: 9S\ns: 9C TD\nw: JC", true},
		{"a draw unlocks a flip", "c1: ## 5H\nc2: 7D\ns: 9C 6C", false},
		{"a foundation play", "c1: ## 5H\nf3: AH..4H", false},
		{"a waste card to a foundation after draws", "c1: ## 5H\ns: 9C 3D TH\nf5: AD 2D", false},
		{"a recycle unlocks a flip", "c1: ## 5H\nc2: 7D\nw: 6C 9C", false},
		{"vegas cannot recycle", "c1: ## 5H\nc2: 7D\nw: 6C 9C\nscoring: vegas", true},
		{"draw 3 never shows the card", "c1: ## 5H\nc2: 7D\ns: 6C 2C 3C\ndraw: 3", true},
		{"draw 3 shows the card", "c1: ## 5H\nc2: 7D\ns: 2C 3C 6C\ndraw: 3", false},
		{"draw 3 shows it after a play", "c1: ## 5H\nc2: 7D\nc3: 4D\ns: 2C 6C 3C 4C\ndraw: 3", false},
		{"a column move uncovers a target", "c1: ## 5H\nc2: 7H 6C 5D\nc3: 6S", false},
		{"the uncovering move has no target", "c1: ## 5H\nc2: 7H 6C 5D\nc3: 6H", true},
		{"a king to an empty column flips", "c1: ## KH", false},
		{"a queen never goes to an empty column", "c1: ## QH", true},
		{"a whole column moves to free a king spot", "c1: ## KH\nc2: 7H\nc3: 8S\nc4: 4D\nc5: 4D\nc6: 4H\nc7: 4H\nc8: 2C\nc9: 2C", false},
		{"a partial run moves to expose a playable card", "c1: ## 9C\nc2: 3D 2S\nc3: 3H\nf1: AS", false},
		{"a waste card builds a bridge", "c1: ## 5H\nc2: 8S\nw: 6C 7D", false},
		{"the bridge needs the waste order", "c1: ## 5H\nc2: 8S\nw: 7D 6C\nscoring: vegas", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := mustPosition(t, tc.pos)
			before := *g
			if got := g.Stuck(); got != tc.stuck {
				t.Errorf("Stuck() = %v, want %v\n%s", got, tc.stuck, formatPosition(g))
			}
			if *g != before {
				t.Error("Stuck changed the game")
			}
			if got := naiveBlocked(g); got != tc.stuck {
				t.Errorf("naive search says %v, want %v", got, tc.stuck)
			}
		})
	}
}
