package e2e_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"dsol/internal/cards"
)

// TestHint presses Hint on a phone and a desktop: the piles of the server's
// hint are marked (the source pile .hint-from with its moving cards .hinted,
// the target .hint-to), nothing is played, the next action takes the marks
// away and the H key asks again; hints asked faster than the limit get the
// polite notice; the race screens have no Hint button. Phone and desktop,
// light and dark.
func TestHint(t *testing.T) {
	// a deal with an ace on top: its first hint is a move
	code := soloCode(t, "DS1-D1N", func(tops []cards.Card) bool { _, ok := aceTop(tops); return ok })
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) {
		p := c.page(t, srv)
		p.open("/?code=" + code)
		p.waitJS(`document.body.dataset.mode === "solo" && document.body.dataset.seq === "0"`, "the solo table")
		// marks asks the API for the hint the page will show, lets press
		// ask for it, and checks the page marks its piles.
		marks := func(press func()) {
			t.Helper()
			var h struct {
				Action *struct{ Type, From, To string } `json:"action"`
				Reason string                           `json:"reason"`
			}
			p.apiJSON("GET", "/api/v1/games/"+p.gameID()+"/hint", nil, &h)
			if h.Action == nil {
				t.Fatalf("no hint: %q", h.Reason)
			}
			from, to := h.Action.From, []string{h.Action.To}
			if h.Action.Type != "move" {
				from, to = "s", []string{}
			}
			press()
			p.waitJS(`!!document.querySelector('#table .hint-from')`, "the hint marked")
			var marked struct {
				From, To []string
				Cards    int
			}
			p.eval(`({From: [...document.querySelectorAll('#table .hint-from')].map((e) => e.dataset.pile),
				To: [...document.querySelectorAll('#table .hint-to')].map((e) => e.dataset.pile),
				Cards: document.querySelectorAll('#table .card.hinted').length})`, &marked)
			if fmt.Sprint(marked.From) != fmt.Sprint([]string{from}) || fmt.Sprint(marked.To) != fmt.Sprint(to) || (from != "s" && marked.Cards == 0) {
				t.Fatalf("marked %+v; the hint is %+v", marked, *h.Action)
			}
			t.Logf("hint %+v (%s) marked", *h.Action, h.Reason)
		}
		marks(func() { p.tap(`[data-testid=hint]`) })
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
		p.waitJS(`document.body.dataset.seq === "1" && !document.querySelector('#table .hinted, #table .hint-from, #table .hint-to')`, "the marks gone with the draw")
		marks(func() {
			p.eval(`document.dispatchEvent(new KeyboardEvent('keydown', {key: 'h', bubbles: true})), true`, nil)
		})

		// The server refusing a hint as busy (its limits are tested in
		// internal/httpapi: TestHintLimits): the page's next hint request
		// is answered 429, as the server answers one over the limits.
		p.eval(`(() => {
			const real = window.fetch;
			window.fetch = (url, opts) => String(url).includes('/hint')
				? (window.fetch = real, Promise.resolve(new Response(JSON.stringify({error: {code: 'rate_limited', message: 'busy'}}), {status: 429, headers: {'Content-Type': 'application/json', 'Retry-After': '1'}})))
				: real(url, opts);
			document.querySelector('[data-testid=hint]').click();
			return true;
		})()`, nil)
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
