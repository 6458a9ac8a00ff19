package e2e_test

import (
	"strings"
	"testing"
	"time"

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

// TestDailyClosed: a daily game started before its day closed and opened
// after the close says it closed, offers only a new game, shows its code,
// and takes no action (a tap on the stock draws nothing). Screenshots and
// an accessibility check, on a phone and a desktop, light and dark.
func TestDailyClosed(t *testing.T) {
	eachCombo(t, func(t *testing.T, c combo) {
		srv := startServer(t)
		p := c.page(t, srv)
		p.open("/")
		p.onScreen("home")
		var v struct{ ID string }
		p.apiJSON("POST", "/api/v1/daily/D1N", nil, &v)
		now := srv.now()
		srv.Advance(time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 1, 0, time.UTC).Sub(now))
		p.open("/?game=" + v.ID)
		p.onScreen("solo")
		p.waitJS(`!document.querySelector('[data-testid=stuck]').hidden`, "the closed notice")
		if msg := p.text(`[data-testid=stuck-text]`); !strings.Contains(msg, "closed at midnight") {
			t.Fatalf("the closed game says %q", msg)
		}
		if !p.hidden(`[data-testid=stuck-undo]`) || !p.hidden(`[data-testid=stuck-hint]`) {
			t.Fatal("a closed game offers undo or a hint")
		}
		p.visible(`[data-testid=stuck-new]`)
		if code := p.text(`[data-testid=code]`); !strings.HasPrefix(code, "DS2-D1N-") {
			t.Fatalf("the closed game's code reads %q", code)
		}
		p.tap(`#table [data-pile=s]`)
		time.Sleep(300 * time.Millisecond)
		var g struct{ Seq int64 }
		p.apiJSON("GET", "/api/v1/games/"+v.ID, nil, &g)
		if g.Seq != 0 || p.text(`body`) == "" {
			t.Fatalf("a tap after the close stored an action (seq %d)", g.Seq)
		}
		pre := "daily-closed-" + c.name
		p.shot(pre, "table")
		p.axe("a closed daily game "+pre, `[data-testid=stuck]`)
	})
}
