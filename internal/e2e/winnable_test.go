package e2e_test

import (
	"testing"
)

// TestSoloWinnableDeal: Play deals a winnable deal by default and the table
// says so; unticked in the new game sheet, the choice is remembered after a
// reload and the next deal is a plain one. A mode with no winnable deal
// known (Vegas) is dealt at random, and the player is told.
func TestSoloWinnableDeal(t *testing.T) {
	srv := startServer(t)
	p := newPage(t, srv, desktop)
	p.open("/")
	p.onScreen("home")
	p.tap(`[data-testid=play]`)
	p.onScreen("solo")
	var v struct{ Winnable bool }
	p.apiJSON("GET", "/api/v1/games/"+p.gameID(), nil, &v)
	if !v.Winnable {
		t.Fatal("the game Play dealt is not winnable")
	}
	p.waitJS(`!document.querySelector('[data-testid=winnable-mark]').hidden`, "the winnable mark")
	p.checkShown()

	p.tap(`[data-testid=new]`)
	p.waitJS(`document.querySelector('#dlg-new').open && document.querySelector('[data-testid=winnable]').checked`, "the new game sheet, winnable deals ticked by default")
	p.tap(`[data-testid=winnable]`)
	p.waitJS(`!document.querySelector('[data-testid=winnable]').checked`, "winnable deals unticked")
	p.open("/?game=" + p.gameID())
	p.waitJS(`!!document.body.dataset.seq`, "the game after a reload")
	p.tap(`[data-testid=new]`)
	p.waitJS(`document.querySelector('#dlg-new').open && !document.querySelector('[data-testid=winnable]').checked`, "the choice remembered")
	first := p.gameID()
	p.tap(`[data-testid=deal]`)
	p.waitJS(`new URLSearchParams(location.search).get('game') !== `+"`"+first+"`", "a new game")
	p.waitJS(`document.querySelector('[data-testid=winnable-mark]').hidden`, "no winnable mark")
	p.apiJSON("GET", "/api/v1/games/"+p.gameID(), nil, &v)
	if v.Winnable {
		t.Fatal("a plain deal says winnable")
	}

	// Vegas has shipped winnable deals too: ticked, the Vegas deal is one
	p.tap(`[data-testid=new]`)
	p.waitJS(`document.querySelector('#dlg-new').open`, "the new game sheet")
	p.tap(`[data-testid=winnable]`)
	p.tap(`[data-testid=scoring-vegas]`)
	second := p.gameID()
	p.tap(`[data-testid=deal]`)
	p.waitJS(`new URLSearchParams(location.search).get('game') !== `+"`"+second+"`", "a Vegas game")
	p.waitJS(`!document.querySelector('[data-testid=winnable-mark]').hidden`, "the winnable mark on the Vegas deal")
	var vg struct {
		Winnable bool
		Scoring  string
	}
	p.apiJSON("GET", "/api/v1/games/"+p.gameID(), nil, &vg)
	if !vg.Winnable || vg.Scoring != "vegas" {
		t.Fatalf("the Vegas deal: %+v, want a winnable Vegas game", vg)
	}
}
