package e2e_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDaily: the first screen leads to the daily challenges, two of them,
// not played yet; Play opens the player's game with no code anywhere on the
// table, and the daily screen then says it is in play and lists the player
// on its leaderboard. Screenshots and an accessibility check of the screen,
// on a phone and a desktop, light and dark.
func TestDaily(t *testing.T) {
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) {
		p := c.page(t, srv)
		p.open("/")
		p.onScreen("home")
		p.tap(`[data-testid=home-daily]`)
		p.waitJS(`document.body.dataset.mode === "daily" && document.body.dataset.ready === "1" && document.querySelectorAll('[data-testid=daily-challenge]').length === 2`, "the daily screen with two challenges")
		if st := p.text(`[data-testid=daily-challenge] [data-testid=daily-state]`); !strings.Contains(st, "Not played yet") {
			t.Fatalf("a new player's challenge reads %q", st)
		}
		if c := p.text(`[data-testid=daily-closes]`); !strings.HasPrefix(c, "New challenges in ") {
			t.Fatalf("the closing time reads %q", c)
		}
		pre := "daily-" + c.name
		p.shot(pre, "new")
		p.axe("the daily screen "+pre, "#daily")

		p.tap(`[data-testid=daily-challenge][data-mode=D1N] [data-testid=daily-play]`)
		p.onScreen("solo")
		var code string
		p.eval(`document.querySelector('[data-testid=code]').textContent`, &code)
		if code != "" {
			t.Fatalf("the daily game shows the code %q", code)
		}
		p.visible(`[data-testid=daily-mark]`)
		var html string
		p.eval(`document.documentElement.outerHTML`, &html)
		if strings.Contains(html, "DS2-") {
			t.Fatal("a DS2 code is in the page of a daily game")
		}
		p.tap(`#table [data-pile=s]`)
		p.waitJS(`document.body.dataset.seq === "1"`, "a draw")
		p.run(chromedp.NavigateBack())
		p.waitJS(`document.body.dataset.mode === "daily" && document.body.dataset.ready === "1" && document.querySelector('[data-testid=daily-challenge][data-mode=D1N] [data-testid=daily-state]').dataset.state === "playing"`, "the challenge in play")
		p.visible(`[data-testid=daily-challenge][data-mode=D1N] [data-testid=daily-you]`)
		p.shot(pre, "playing")
		p.axe("the daily screen in play "+pre, "#daily")
	})
}
