package e2e_test

import (
	"fmt"
	"testing"
)

// TestBlock: a lobby row's Block takes the host's race off the page; on a
// race's result screen the player blocks the opponent (after the
// confirmation) and the rematch goes; Settings lists the player blocked,
// and Unblock ends the block. Screenshots and axe-core on each, on a phone
// and a desktop, light and dark.
func TestBlock(t *testing.T) {
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, tc combo) {
		a := tc.page(t, srv)
		a.open("/?mode=race")
		a.waitJS(`document.body.dataset.status === "lobby"`, "the lobby")
		me := a.me()

		// The lobby: Block on another host's row.
		cy := newAPIClient(t, srv, "Cy "+tc.name)
		var open struct{ ID string }
		cy.call("POST", "/api/v1/races", map[string]any{"draw": 1}, &open)
		row := fmt.Sprintf(`li[data-race=%q]`, open.ID)
		a.waitJS(fmt.Sprintf(`!!document.querySelector('%s [data-testid=block-host]')`, row), "the Block of cy's row")
		a.screenshot("block-lobby-" + tc.name)
		a.axe("lobby rows with Block "+tc.name, `.llist`)
		a.tap(row + ` [data-testid=block-host]`)
		a.waitJS(`document.querySelector('[data-testid=confirm-dialog]').open`, "the confirmation")
		a.screenshot("block-confirm-" + tc.name)
		a.axe("the block's confirmation "+tc.name, `[data-testid=confirm-dialog]`)
		a.tap(`[data-testid=confirm-yes]`)
		a.waitJS(fmt.Sprintf(`!document.querySelector('%s')`, row), "cy's race off the list")

		// A race against bob, which bob resigns: Block on the result.
		bob := newAPIClient(t, srv, "Bob "+tc.name)
		var r struct{ ID, Invite string }
		bob.call("POST", "/api/v1/races", map[string]any{"draw": 1, "public": false}, &r)
		a.apiJSON("POST", "/api/v1/races/"+r.ID+"/join", map[string]string{"invite": r.Invite}, nil)
		a.open("/?race=" + r.ID)
		a.waitJS(`document.body.dataset.status === "playing"`, "the race")
		bob.call("POST", "/api/v1/games/"+r.ID+"/actions", map[string]any{"action": map[string]string{"type": "resign"}}, nil)
		a.waitJS(`document.querySelector('[data-testid=result]').open`, "the result")
		a.waitJS(`document.getAnimations().every((x) => x.playState !== 'running')`, "the dialog settled")
		a.visible(`[data-testid=result-block]`, `[data-testid=rematch]`)
		a.fitsDialog()
		a.screenshot("block-result-" + tc.name)
		a.axe("the result with Block "+tc.name, `[data-testid=result]`)
		a.tap(`[data-testid=result-block]`)
		a.waitJS(`document.querySelector('[data-testid=confirm-dialog]').open`, "the confirmation")
		a.tap(`[data-testid=confirm-yes]`)
		a.waitJS(`document.querySelector('[data-testid=result-block]').hidden && document.querySelector('[data-testid=rematch]').hidden`, "Block and Rematch gone")
		var bl struct {
			Blocked []struct{ ID, Name string } `json:"blocked"`
		}
		a.apiJSON("GET", "/api/v1/me/blocks", nil, &bl)
		if len(bl.Blocked) != 2 || bl.Blocked[0].ID != cy.id || bl.Blocked[1].ID != bob.id {
			t.Fatalf("%s's blocks %+v, want cy then bob", me, bl.Blocked)
		}

		// Settings: both listed; Unblock bob.
		a.eval(`document.querySelector('[data-testid=result]').close()`, nil)
		a.tap(`#race [data-testid=settings]`)
		a.waitJS(`document.querySelectorAll('[data-testid=blocked-list] li').length === 2`, "the blocked players in Settings")
		a.eval(`document.querySelector('[data-testid=blocks]').scrollIntoView()`, nil)
		a.screenshot("block-settings-" + tc.name)
		a.axe("settings with the blocked players "+tc.name, `[data-testid=settings-dialog]`)
		a.tap(`[data-testid=blocked-list] li:last-child [data-testid=unblock]`)
		a.waitJS(`document.querySelectorAll('[data-testid=blocked-list] li').length === 1`, "bob unblocked")
		a.apiJSON("GET", "/api/v1/me/blocks", nil, &bl)
		if len(bl.Blocked) != 1 || bl.Blocked[0].ID != cy.id {
			t.Fatalf("blocks after Unblock %+v, want cy alone", bl.Blocked)
		}
		a.tap(`[data-testid=blocked-list] li [data-testid=unblock]`)
		a.waitJS(`document.querySelector('[data-testid=blocked-list]').hidden && !document.querySelector('[data-testid=blocked-none]').hidden`, "nobody blocked")
		a.screenshot("block-settings-none-" + tc.name)
		a.axe("settings with nobody blocked "+tc.name, `[data-testid=settings-dialog]`)
	})
}
