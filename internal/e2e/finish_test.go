package e2e_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"dsol/internal/finishtest"
	"dsol/internal/klondike"
)

// TestSoloFinish brings a game along the solver's line (over the API) to
// the position before the first one where a finish is legal and opens it:
// Finish is not offered; the line's last action, played from the page,
// brings the Finish button, and a tap on it (on a desktop, the key E) wins
// the game in one action, with the win cascade and dialog of any win (phone
// and desktop, light and dark).
func TestSoloFinish(t *testing.T) {
	code, line := finishtest.Line(t, 1)
	last := len(line) - 1
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) {
		p := c.page(t, srv)
		p.open("/")
		var g struct{ ID string }
		p.apiJSON("POST", "/api/v1/games", map[string]string{"code": code.String()}, &g)
		p.postActions(g.ID, line[:last])
		p.open("/?game=" + g.ID)
		finish := `[data-testid=finish]`
		p.waitJS(fmt.Sprintf(`+document.body.dataset.seq === %d`, last), "the game near its end")
		if !p.hidden(finish) {
			t.Fatal("Finish shows before a finish is legal")
		}
		p.postActions(g.ID, line[last:])
		p.waitJS(fmt.Sprintf(`+document.body.dataset.seq === %d && !document.querySelector(%q).hidden`, len(line), finish), "the Finish button")
		before := p.apiView()
		p.visible(finish, `[data-testid=score]`, `[data-testid=moves]`, `[data-testid=time]`, `[data-testid=undo]`, `[data-testid=help]`, `[data-testid=settings]`, `[data-testid=code]`)
		p.shot("finish-"+c.name, "offered")
		p.axe("the HUD with Finish on a "+c.name, ".hud")
		if c.vp == desktop {
			p.key("e")
		} else {
			p.tap(finish)
		}
		p.waitJS(`document.body.dataset.status === "won"`, "the game won")
		p.waitJS(`document.querySelector('#dlg-win').open`, "the win dialog")
		v := p.apiView()
		if v.Seq != len(line)+1 || v.Moves <= before.Moves || p.text(`[data-testid=win-moves]`) != fmt.Sprint(v.Moves) {
			t.Fatalf("after the finish: seq %d, moves %d (before %d), the dialog says %q", v.Seq, v.Moves, before.Moves, p.text(`[data-testid=win-moves]`))
		}
		if !p.hidden(finish) {
			t.Error("Finish still shows once the game is won")
		}
		p.shot("finish-"+c.name, "won")
	})
}

// postActions posts actions to a game, in order, from inside the page.
func (p *page) postActions(id string, acts []klondike.Action) {
	p.t.Helper()
	j, err := json.Marshal(acts)
	if err != nil {
		p.t.Fatal(err)
	}
	var bad string
	p.eval(fmt.Sprintf(`(async () => {
  for (const a of %s) {
    const r = await fetch('/api/v1/games/%s/actions', {method: 'POST', credentials: 'same-origin', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({action: a})});
    if (!r.ok) return r.status + ' ' + await r.text() + ' for ' + JSON.stringify(a);
  }
  return '';
})()`, j, id), &bad)
	if bad != "" {
		p.t.Fatal(bad)
	}
}

// hidden reports whether the element sel is hidden (or missing).
func (p *page) hidden(sel string) bool {
	p.t.Helper()
	var h bool
	p.eval(fmt.Sprintf(`document.querySelector(%q)?.hidden ?? true`, sel), &h)
	return h
}
