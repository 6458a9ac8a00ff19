package e2e_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"dsol/internal/cards"
	k "dsol/internal/klondike"
	"dsol/internal/solo"
)

// onScreen waits for the screen the page shows: "home", "solo" or a race status.
func (p *page) onScreen(what string) {
	p.t.Helper()
	switch what {
	case "home":
		p.waitJS(`document.body.dataset.mode === "home" && document.body.dataset.ready === "1" && !document.querySelector('#home').hidden && location.search === ""`, "the first screen")
	case "solo":
		p.waitJS(`document.body.dataset.mode === "solo" && document.body.dataset.ready === "1" && !!new URLSearchParams(location.search).get('game')`, "a solo game")
	default:
		p.waitJS(fmt.Sprintf(`document.body.dataset.mode === "race" && document.body.dataset.status === %q`, what), "the race screen "+what)
	}
}

// TestHome: a first visit shows the first screen; Play deals a game in the
// draw and scoring used last; the first screen, a game and the lobby are
// entries of the browser's history, and Back from the first screen leaves.
func TestHome(t *testing.T) {
	srv := startServer(t)
	p := newPage(t, srv, phone)
	p.run(chromedp.Navigate("about:blank"))
	p.open("/")
	p.onScreen("home")
	p.visible(`#home h1`, `#home .tag`, `[data-testid=play]`, `[data-testid=home-race]`, `[data-testid=home-new]`, `[data-testid=home-help]`, `[data-testid=home-settings]`)
	var offered bool
	p.eval(`document.querySelector('[data-testid=continue]').checkVisibility()`, &offered)
	if offered {
		t.Fatal("Continue is offered with no game to continue")
	}
	if got := p.text(`[data-testid=play-mode]`); got != "Easy: draw 1 · Normal" {
		t.Errorf("Play says %q, want the default draw 1, Normal", got)
	}

	// Play: a draw-1 Normal game; Back: the first screen, now with Continue
	p.tap(`[data-testid=play]`)
	p.onScreen("solo")
	if c := p.text(`[data-testid=code]`); !strings.HasPrefix(c, "DS1-D1N-") {
		t.Fatalf("Play dealt %s, want a draw-1 Normal game", c)
	}
	id := p.gameID()
	p.run(chromedp.NavigateBack())
	p.onScreen("home")
	p.waitJS(`document.querySelector('[data-testid=continue-count]').textContent === "1" && document.querySelector('[data-testid=continue]').checkVisibility()`, "Continue (1)")
	p.run(chromedp.NavigateForward())
	p.onScreen("solo")
	if got := p.gameID(); got != id {
		t.Fatalf("Forward shows game %s, want %s", got, id)
	}

	// a draw-3 Vegas deal from the sheet is what Play deals from then on
	p.tap(`[data-testid=new]`)
	p.waitJS(`document.querySelector('#dlg-new').open`, "the new game sheet")
	p.tap(`[data-testid=draw-3]`)
	p.tap(`[data-testid=scoring-vegas]`)
	p.tap(`[data-testid=deal]`)
	p.waitJS(`document.querySelector('[data-testid=code]').textContent.startsWith("DS1-D3V-")`, "the draw-3 Vegas game")
	p.tap(`[data-testid=to-home]`)
	p.onScreen("home")
	p.waitJS(`document.querySelector('[data-testid=play-mode]').textContent === "Hard: draw 3 · Vegas"`, "Play in draw 3, Vegas")
	p.tap(`[data-testid=play]`)
	p.onScreen("solo")
	p.waitJS(`document.querySelector('[data-testid=code]').textContent.startsWith("DS1-D3V-")`, "Play dealing draw 3, Vegas")

	// Home and Back: the first screen, whose own Back leaves the app
	p.run(chromedp.NavigateBack())
	p.onScreen("home")
	var depth int
	p.eval(`history.state.depth`, &depth)
	if depth != 0 {
		t.Fatalf("the first screen is %d entries above the bottom of the history", depth)
	}

	// Race: the lobby; Back: the first screen again
	p.tap(`[data-testid=home-race]`)
	p.onScreen("lobby")
	p.run(chromedp.NavigateBack())
	p.onScreen("home")
	p.run(chromedp.NavigateBack())
	p.waitJS(`location.href === "about:blank"`, "Back from the first screen leaving the app")
}

// TestHomeScreens saves the first screen on a phone and a desktop, light
// and dark (artifacts/screen-*-home.png), and runs axe-core on it.
func TestHomeScreens(t *testing.T) {
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) {
		p := c.page(t, srv)
		p.open("/")
		p.onScreen("home")
		p.visible(`#home h1`, `#home .tag`, `[data-testid=play]`, `[data-testid=home-race]`, `[data-testid=home-new]`, `[data-testid=home-help]`, `[data-testid=home-settings]`)
		pre := "screen-" + c.name
		p.shot(pre, "home")
		p.axe("the first screen "+pre, "#home")
	})
}

// TestHomeUnderLinks: a link straight into a game opens that game (not the
// first screen), and Back from it comes to the first screen.
func TestHomeUnderLinks(t *testing.T) {
	srv := startServer(t)
	p := openSolo(t, srv, desktop, "DS1-D1N-AAAAAAB")
	if n := p.count(`#table [data-pile] .card.up[data-card]`); n < 9 {
		t.Fatalf("%d face-up cards on the table of a code link", n)
	}
	p.run(chromedp.NavigateBack())
	p.onScreen("home")
	p.run(chromedp.NavigateForward())
	p.onScreen("solo")
	p.waitJS(`document.querySelector('[data-testid=code]').textContent === "DS1-D1N-AAAAAAB"`, "the game of the link again")
}

// stuckCode returns a draw-3 Vegas code whose game is stuck once the whole
// stock is drawn with no other move, and how many draws that takes.
func stuckCode(t *testing.T) (string, int) {
	t.Helper()
	for n := uint64(1); n < 20000; n++ {
		c, err := cards.ParseCode("DS1-D3V-" + dealLetters(n))
		if err != nil {
			t.Fatal(err)
		}
		g, err := solo.New(c)
		if err != nil {
			t.Fatal(err)
		}
		draws := 0
		for ; !g.Stuck(); draws++ {
			if _, err := g.Apply(k.Simple(k.Draw)); err != nil {
				break
			}
		}
		if g.Stuck() {
			return c.String(), draws
		}
	}
	t.Fatal("no draw-3 Vegas deal gets stuck by drawing alone")
	return "", 0
}

// TestStuckNotice: when no useful move is left, a notice under the table
// offers Undo (which takes back the last draw), Hint and New game (phone
// and desktop, light and dark).
func TestStuckNotice(t *testing.T) {
	code, draws := stuckCode(t)
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) {
		p := c.page(t, srv)
		p.open("/?code=" + code)
		p.onScreen("solo")
		for i := 1; i <= draws; i++ {
			p.key("d")
			p.waitJS(fmt.Sprintf(`document.body.dataset.seq === "%d"`, i), "a draw")
		}
		p.waitJS(`!document.querySelector('[data-testid=stuck]').hidden`, "the stuck notice")
		p.visible(`[data-testid=stuck-text]`, `[data-testid=stuck-undo]`, `[data-testid=stuck-hint]`, `[data-testid=stuck-new]`)
		// a bar of its own between the HUD and the table, by the stock, over no card
		var near bool
		p.eval(`(() => { const n = document.querySelector('[data-testid=stuck]').getBoundingClientRect(), t = document.querySelector('#table').getBoundingClientRect(), h = document.querySelector('header.hud').getBoundingClientRect();
  return Math.abs(n.bottom - t.top) < 1 && n.top >= h.bottom - 1; })()`, &near)
		if !near {
			t.Error("the stuck notice is not between the HUD and the table")
		}
		p.coversNoCard(`[data-testid=stuck]`)
		p.shot("stuck", c.name)
		p.axe("stuck notice "+c.name, "#stuck")
		p.tap(`[data-testid=stuck-hint]`)
		p.waitJS(`/^(Hint|No move helps)/.test(document.querySelector('#toast').textContent)`, "the hint's answer from the stuck notice")
		p.tap(`[data-testid=stuck-new]`)
		p.waitJS(`document.querySelector('#dlg-new').open`, "the new game sheet from the stuck notice")
		p.tap(`[data-testid=new-cancel]`)
		p.waitJS(`!document.querySelector('#dlg-new').open`, "the sheet cancelled")
		p.tap(`[data-testid=stuck-undo]`)
		p.waitJS(fmt.Sprintf(`document.body.dataset.seq === "%d" && +document.querySelector('[data-pile="s"]').dataset.count > 0`, draws+1), "the last draw taken back")
		if v := p.apiView(); v.Stock == 0 || v.Undo != draws-1 {
			t.Fatalf("after Undo: stock %d, %d undo steps left; want the last of %d draws undone", v.Stock, v.Undo, draws)
		}
	})
}
