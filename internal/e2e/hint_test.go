package e2e_test

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestHint presses Hint on a phone and a desktop: the piles of the server's
// hint are marked (the source pile .hint-from with its moving cards .hint,
// the target .hint-to), nothing is played, the next action takes the marks
// away and the H key asks again; hints asked faster than the limit get the
// polite notice; the race screens have no Hint button.
func TestHint(t *testing.T) {
	srv := startServer(t)
	for _, c := range []struct {
		name string
		vp   viewport
	}{{"phone", phone}, {"desktop", desktop}} {
		t.Run(c.name, func(t *testing.T) {
			p := openSolo(t, srv, c.vp, "DS1-D1N-AAAAAAB")
			var h struct {
				Action *struct{ Type, From, To string } `json:"action"`
				Reason string                           `json:"reason"`
			}
			p.apiJSON("GET", "/api/v1/games/"+p.gameID()+"/hint", nil, &h)
			if h.Action == nil {
				t.Fatalf("no hint at the deal: %q", h.Reason)
			}
			from, to := h.Action.From, h.Action.To
			if h.Action.Type != "move" {
				from, to = "s", ""
			}
			p.tap(`[data-testid=hint]`)
			p.waitJS(`!!document.querySelector('#table .hint-from')`, "the hint marked")
			var marked struct{ From, To []string }
			p.eval(`({From: [...document.querySelectorAll('#table .hint-from')].map((e) => e.dataset.pile),
				To: [...document.querySelectorAll('#table .hint-to')].map((e) => e.dataset.pile)})`, &marked)
			wantTo := []string{}
			if to != "" {
				wantTo = []string{to}
			}
			if fmt.Sprint(marked.From) != fmt.Sprint([]string{from}) || fmt.Sprint(marked.To) != fmt.Sprint(wantTo) {
				t.Fatalf("marked %+v; the hint is %+v", marked, *h.Action)
			}
			var cardsMarked int
			p.eval(`document.querySelectorAll('#table .card.hint').length`, &cardsMarked)
			if from != "s" && cardsMarked == 0 {
				t.Fatal("no card of the hint marked")
			}
			var v struct {
				Seq   int `json:"seq"`
				Hints int `json:"hints"`
			}
			p.apiJSON("GET", "/api/v1/games/"+p.gameID(), nil, &v)
			if v.Seq != 0 || v.Hints != 2 {
				t.Fatalf("after two hints: seq %d, %d hints", v.Seq, v.Hints)
			}
			p.axe("solo table with a hint "+c.name, "#table", "header.hud")
			p.shot("hint-"+c.name, "marked")

			p.tap(`[data-testid=stock]`)
			p.waitJS(`document.body.dataset.seq === "1" && !document.querySelector('#table .hint, #table .hint-from, #table .hint-to')`, "the marks gone with the draw")
			p.eval(`document.dispatchEvent(new KeyboardEvent('keydown', {key: 'h', bubbles: true})), true`, nil)
			p.waitJS(`!!document.querySelector('#table .hint-from')`, "the hint of the H key marked")

			// Many at once: beyond the player's burst or the server's slots.
			p.eval(`(() => { for (let i = 0; i < 8; i++) document.querySelector('[data-testid=hint]').click(); return true; })()`, nil)
			var busy string
			p.eval(`(async () => {
				const url = performance.getEntriesByType('resource').map((e) => e.name).find((n) => n.endsWith('/js/i18n.js'));
				return (await import(url)).t('hint.busy');
			})()`, &busy)
			if busy == "" || busy == "hint.busy" {
				t.Fatalf("the busy notice's text: %q", busy)
			}
			p.waitJS(fmt.Sprintf(`document.querySelector('#toast').textContent === %s`, mustJSON(busy)), "the busy notice")
			p.shot("hint-"+c.name, "busy")
		})
	}
	t.Run("race", func(t *testing.T) {
		p := newPage(t, srv, phone)
		p.open("/?mode=race")
		p.waitJS(`document.body.dataset.mode === "race"`, "the lobby")
		var shown bool
		p.eval(`document.querySelector('[data-testid=hint]').offsetParent !== null`, &shown)
		if shown {
			t.Fatal("the Hint button shows in the race lobby")
		}
	})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
