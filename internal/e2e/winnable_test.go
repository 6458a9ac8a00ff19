package e2e_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSoloWinnableDeal: the new game dialog deals winnable deals by default
// and the table says so; unticked, the choice is remembered after a reload
// and the next deal is a plain one.
func TestSoloWinnableDeal(t *testing.T) {
	srv := startServer(t)
	p := newPage(t, srv, desktop)
	p.run(chromedp.Navigate(srv.URL + "/"))
	p.waitJS(`document.querySelector('#dlg-new').open && !!document.querySelector('[data-testid=resume-list] li')`, "the new game dialog")
	p.waitJS(`document.querySelector('[data-testid=winnable]').checked`, "winnable deals ticked by default")
	p.tap(`[data-testid=deal]`)
	p.waitJS(`document.body.dataset.mode === "solo" && !!document.body.dataset.seq`, "the solo table")
	var v struct{ Winnable bool }
	p.apiJSON("GET", "/api/v1/games/"+p.gameID(), nil, &v)
	if !v.Winnable {
		t.Fatal("the game dealt is not winnable")
	}
	p.waitJS(`!document.querySelector('[data-testid=winnable-mark]').hidden`, "the winnable mark")
	p.checkShown()

	p.tap(`[data-testid=new]`)
	// The dialog is centred: wait for its list of games, which moves it.
	p.waitJS(`document.querySelector('#dlg-new').open && !!document.querySelector('[data-testid=resume-list] button')`, "the new game dialog again")
	p.tap(`[data-testid=winnable]`)
	p.waitJS(`!document.querySelector('[data-testid=winnable]').checked`, "winnable deals unticked")
	p.open("/?game=" + p.gameID())
	p.waitJS(`!!document.body.dataset.seq`, "the game after a reload")
	p.tap(`[data-testid=new]`)
	p.waitJS(`document.querySelector('#dlg-new').open && !!document.querySelector('[data-testid=resume-list] button') && !document.querySelector('[data-testid=winnable]').checked`, "the choice remembered")
	first := p.gameID()
	p.tap(`[data-testid=deal]`)
	p.waitJS(`new URLSearchParams(location.search).get('game') !== `+"`"+first+"`", "a new game")
	p.waitJS(`document.querySelector('[data-testid=winnable-mark]').hidden`, "no winnable mark")
	p.apiJSON("GET", "/api/v1/games/"+p.gameID(), nil, &v)
	if v.Winnable {
		t.Fatal("a plain deal says winnable")
	}
}
