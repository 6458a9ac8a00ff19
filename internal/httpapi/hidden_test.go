package httpapi

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"dsol/internal/apitest"
	"dsol/internal/cards"
	"dsol/internal/klondike"
	"dsol/internal/solo"
	"dsol/internal/store"
)

// cardWord finds card names inside free text (error messages).
var cardWord = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])([A2-9TJQK][SHDC])(?:$|[^A-Za-z0-9_])`)

// cardsIn collects every card named in a JSON document: string values that
// are a card, and card names inside other strings (ids and codes excepted).
func cardsIn(tb testing.TB, raw []byte) map[string]int {
	tb.Helper()
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		tb.Fatalf("%v: %s", err, raw)
	}
	out := map[string]int{}
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(k, x)
			}
		case []any:
			for _, x := range v {
				walk(key, x)
			}
		case string:
			if key == "id" || key == "code" {
				return
			}
			if _, err := cards.Parse(v); err == nil {
				out[v]++
				return
			}
			for _, m := range cardWord.FindAllStringSubmatch(v, -1) {
				out[m[1]]++
			}
		}
	}
	walk("", doc)
	return out
}

// visible is the multiset of the cards a player may see now: face-up column
// cards, the waste and the foundations.
func visible(g *solo.Game) map[string]int {
	out := map[string]int{}
	b, f := g.Board(), g.Foundations()
	for i := range solo.Columns {
		for _, c := range b.Cols[i].Up() {
			out[c.String()]++
		}
	}
	for _, c := range b.Waste[:b.NWaste] {
		out[c.String()]++
	}
	for i := range f.Piles {
		for _, c := range f.Piles[i][:f.N[i]] {
			out[c.String()]++
		}
	}
	return out
}

// checkNoHidden fails when a response names a card more often than the
// player can see it: a face-down or stock card leaked.
func checkNoHidden(tb testing.TB, what string, raw []byte, allowed map[string]int) {
	tb.Helper()
	for c, n := range cardsIn(tb, raw) {
		if n > allowed[c] {
			tb.Fatalf("%s: %s appears %d times but only %d are face up: %s", what, c, n, allowed[c], raw)
		}
	}
}

// TestNoHiddenCardLeaves plays a random game, legal and illegal actions
// alike, and checks every JSON answer: its columns hold exactly the face-up
// cards by position, and no card is named that the player cannot see.
func TestNoHiddenCardLeaves(t *testing.T) {
	ts := mustServer(t, apitest.SQLite(t))
	c := ts.mustPlayer(t)
	const code = "DS1-D3N-BCDEFGH"
	raw := c.MustJSON(t, "POST", "/api/v1/games", map[string]string{"code": code}, 201, nil)
	deal := solo.DealOf(mustCode(t, code))
	start := map[string]int{}
	for _, col := range deal.Columns {
		start[col[len(col)-1]]++ // only the last card of each column is face up
	}
	checkNoHidden(t, "new game", raw, start)
	// The check itself sees a leak: the full deal names hidden cards.
	full, _ := json.Marshal(deal)
	leaks := 0
	for c, n := range cardsIn(t, full) {
		leaks += max(0, n-start[c])
	}
	if leaks != 104-9 {
		t.Fatalf("the full deal shows %d hidden cards to the check, want 95", leaks)
	}
	var v view
	json.Unmarshal(raw, &v)
	for i, col := range v.Columns {
		if col.Down != len(deal.Columns[i])-1 || len(col.Up) != 1 || col.Up[0] != deal.Columns[i][len(deal.Columns[i])-1] {
			t.Fatalf("column %d: %+v, deal %v", i+1, col, deal.Columns[i])
		}
	}

	mirror := mustSolo(t, code)
	rng := rand.New(rand.NewPCG(3, 4))
	cands := candidates()
	path := "/api/v1/games/" + v.ID
	accepted, refused := 0, 0
	for i := range 400 {
		a := cands[rng.IntN(len(cands))]
		if i%3 == 0 {
			if l, ok := legalOf(mirror, cands, rng); ok {
				a = l
			}
		}
		_, err := mirror.Apply(a)
		status, raw := c.Do(t, "POST", path+"/actions", map[string]any{"action": a, "id": fmt.Sprint("a", i)})
		if (err == nil) != (status == 200) {
			t.Fatalf("%v: engine says %v, server %d %s", a, err, status, raw)
		}
		checkNoHidden(t, a.String(), raw, visible(mirror))
		if status != 200 {
			refused++
		} else {
			accepted++
			var got view
			json.Unmarshal(raw, &got)
			want := mirror.View()
			if fmt.Sprint(got.View) != fmt.Sprint(want) {
				t.Fatalf("after %v: view %+v, want %+v", a, got.View, want)
			}
		}
		if i%50 == 0 {
			_, raw := c.Do(t, "GET", path, nil)
			checkNoHidden(t, "get", raw, visible(mirror))
		}
	}
	if accepted < 100 || refused < 100 {
		t.Fatalf("%d accepted, %d refused: not a fair walk", accepted, refused)
	}
	for _, p := range []string{"/api/v1/games", "/api/v1/games?status=playing", "/api/v1/codes/" + code, "/api/v1/me"} {
		_, raw := c.Do(t, "GET", p, nil)
		checkNoHidden(t, p, raw, map[string]int{})
	}
}

// candidates lists actions worth trying on a solo game: many illegal.
func candidates() []klondike.Action {
	as := []klondike.Action{klondike.Simple(klondike.Draw), klondike.Simple(klondike.Recycle),
		klondike.Simple(klondike.Undo), klondike.FromPile(klondike.Tap, klondike.Waste, 1)}
	for i := range solo.Columns {
		c := klondike.ColPile(i)
		as = append(as, klondike.FromPile(klondike.Tap, c, 1), klondike.FromPile(klondike.DTap, c, 1),
			klondike.NewMove(klondike.Waste, c, 1), klondike.NewMove(c, klondike.AnyF, 1))
		for j := range solo.Columns {
			if j != i {
				for n := 1; n <= 3; n++ {
					as = append(as, klondike.NewMove(c, klondike.ColPile(j), n))
				}
			}
		}
		for f := range 8 {
			as = append(as, klondike.NewMove(klondike.Slot(f), c, 1))
		}
	}
	return as
}

// legalOf returns a random legal action of g among cands.
func legalOf(g *solo.Game, cands []klondike.Action, rng *rand.Rand) (klondike.Action, bool) {
	var ok []klondike.Action
	for _, a := range cands {
		cp := *g
		if _, err := cp.Apply(a); err == nil {
			ok = append(ok, a)
		}
	}
	if len(ok) == 0 {
		return klondike.Action{}, false
	}
	return ok[rng.IntN(len(ok))], true
}

// mustNotName fails when raw, sent while the race of header g is in play,
// names anything its deal follows from: the code, the code's deal part (the
// deal letters or the secret, in either case), or the salt; or has a "code"
// or "salt" key anywhere.
func mustNotName(tb testing.TB, raw []byte, g store.Game) {
	tb.Helper()
	text := strings.ToLower(string(raw))
	parts := strings.Split(g.Code, "-")
	for what, s := range map[string]string{"code": g.Code, "deal": parts[len(parts)-1], "salt": hex.EncodeToString(g.Salt)} {
		if s != "" && strings.Contains(text, strings.ToLower(s)) {
			tb.Fatalf("an answer during play names the race's %s %s: %s", what, s, raw)
		}
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return // not JSON: the text check above is all
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "code" || k == "salt" {
					tb.Fatalf("an answer during play has a %q key: %s", k, raw)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
}
