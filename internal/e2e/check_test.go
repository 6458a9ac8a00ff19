package e2e_test

import (
	"fmt"
	"testing"

	"dsol/internal/klondike"
)

// TestSoloStillWinnable: with "Tell me when the game can no longer be won"
// ticked in the settings (off by default, remembered), the games the page
// opens have the live check on, and the footer says each answer in words:
// still winnable (a deal the solver wins), no longer winnable (a Vegas
// draw-3 deal whose single pass was drawn without a move), can't tell (a
// Vegas draw-1 deal the budget does not decide). Phone and desktop, light
// and dark, with screenshots and axe-core on the footer.
func TestSoloStillWinnable(t *testing.T) {
	srv := startServer(t)
	draws := make([]klondike.Action, 20)
	for i := range draws {
		draws[i] = klondike.Simple(klondike.Draw)
	}
	eachCombo(t, func(t *testing.T, c combo) {
		p := c.page(t, srv)
		p.open("/")
		p.onScreen("home")
		p.tap(`[data-testid=home-settings]`)
		p.waitJS(`document.querySelector('#dlg-set').open && !document.querySelector('[data-testid=set-check]').checked`, "the settings, the check off by default")
		// the dialog grows once the blocked players are read: then the box stays put
		p.waitJS(`!document.querySelector('[data-testid=blocked-none]').hidden || !document.querySelector('[data-testid=blocked-list]').hidden`, "the settings read")
		p.tap(`[data-testid=set-check]`)
		p.shot("still-"+c.name, "settings")
		p.waitJS(`(JSON.parse(localStorage.getItem('dsol.settings')) || {}).stillCheck === true`, "the setting remembered")
		p.eval(`document.querySelector('#dlg-set').close()`, nil)
		for _, g := range []struct {
			state, text, code string
			actions           []klondike.Action
		}{
			{"yes", "Still winnable", "DS1-D1N-AAAAAAB", nil},
			{"no", "No longer winnable", "DS1-D3V-AAAAAAB", draws},
			{"unknown", "Can't tell if still winnable", "DS1-D1V-AAAAAAB", nil},
		} {
			var v struct{ ID string }
			p.apiJSON("POST", "/api/v1/games", map[string]string{"code": g.code}, &v)
			if len(g.actions) > 0 {
				p.postActions(v.ID, g.actions)
			}
			p.open("/?game=" + v.ID)
			sel := `[data-testid=still]`
			p.waitJS(fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !e.hidden && e.dataset.state === %q && e.textContent === %q && e.getAttribute('role') === 'status'; })()`, sel, g.state, g.text),
				"the footer saying "+g.text)
			var view struct{ StillWinnable *bool }
			p.apiJSON("GET", "/api/v1/games/"+v.ID, nil, &view)
			if want := map[string]string{"yes": "true", "no": "false", "unknown": "null"}[g.state]; fmtBool(view.StillWinnable) != want {
				t.Fatalf("%s: the view's stillWinnable is %s, want %s", g.code, fmtBool(view.StillWinnable), want)
			}
			p.shot("still-"+c.name, g.state)
			p.axe("the footer saying "+g.text+" on a "+c.name, ".foot")
		}
		// the setting off: the footer says nothing
		p.tap(`[data-testid=settings]`)
		p.waitJS(`document.querySelector('#dlg-set').open && document.querySelector('[data-testid=set-check]').checked`, "the settings, the check on")
		p.waitJS(`!document.querySelector('[data-testid=blocked-none]').hidden || !document.querySelector('[data-testid=blocked-list]').hidden`, "the settings read")
		p.tap(`[data-testid=set-check]`)
		p.eval(`document.querySelector('#dlg-set').close()`, nil)
		p.waitJS(`document.querySelector('[data-testid=still]').hidden`, "no answer shown with the setting off")
	})
}

// fmtBool is a *bool as JSON.
func fmtBool(b *bool) string {
	if b == nil {
		return "null"
	}
	return fmt.Sprint(*b)
}
