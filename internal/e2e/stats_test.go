package e2e_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestStats: games started through the API show on the statistics screen,
// which is reached from the first screen, per mode, with a chart that has
// a text alternative; axe-core finds nothing on it; a reset asks first and
// then counts nothing more (phone and desktop, light and dark screenshots:
// artifacts/screen-*-stats.png).
func TestStats(t *testing.T) {
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) {
		p := c.page(t, srv)
		p.open("/")
		p.onScreen("home")
		// draw 1 Normal: three games played, one started only; draw 3 Vegas: one
		for i, code := range []string{"DS1-D1N-AAAAAAB", "DS1-D1N-AAAAAAC", "DS1-D1N-AAAAAAD", "DS1-D1N-AAAAAAE", "DS1-D3V-AAAAAAB"} {
			var g struct{ ID string }
			p.apiJSON("POST", "/api/v1/games", map[string]string{"code": code}, &g)
			if i == 3 {
				continue
			}
			p.apiJSON("POST", "/api/v1/games/"+g.ID+"/actions", map[string]any{"action": map[string]string{"type": "draw"}}, nil)
		}

		p.tap(`[data-testid=home-stats]`)
		p.waitJS(`document.body.dataset.mode === "stats" && document.body.dataset.ready === "1" && location.search === "?mode=stats"`, "the statistics screen")
		p.visible(`#stats h1`, `[data-testid=stats-mode]`, `[data-testid=stat-played]`, `[data-testid=stats-chart]`)
		if got := p.text(`[data-testid=stat-played]`); got != "3" {
			t.Fatalf("draw 1 Normal: played %q, want 3", got)
		}
		if got := p.text(`[data-testid=stat-fastestWin]`); got != "—" {
			t.Fatalf("no win yet, fastest win %q", got)
		}
		var alt string
		p.eval(`document.querySelector('[data-testid=stats-chart]').getAttribute('aria-label')`, &alt)
		if want := "The last 3 games: 0 won, 2 lost. The latest one is still in play."; alt != want {
			t.Fatalf("chart text %q, want %q", alt, want)
		}
		if n := p.count(`[data-testid=stats-chart] rect`); n != 3 {
			t.Fatalf("%d bars, want 3", n)
		}
		pre := "screen-" + c.name
		p.shot(pre, "stats")
		p.axe("the statistics "+pre, "#stats")

		p.run(chromedp.SetValue(`[data-testid=stats-mode]`, "d3-vegas"))
		p.eval(`document.querySelector('[data-testid=stats-mode]').dispatchEvent(new Event('change')), true`, nil)
		p.waitJS(`document.querySelector('[data-testid=stat-played]').textContent === "1"`, "draw 3 Vegas, one game")
		if got := p.text(`[data-testid=stat-bestScore]`); got != "-$104" {
			t.Fatalf("draw 3 Vegas best score %q, want -$104", got)
		}
		p.run(chromedp.SetValue(`[data-testid=stats-mode]`, "race"))
		p.eval(`document.querySelector('[data-testid=stats-mode]').dispatchEvent(new Event('change')), true`, nil)
		p.waitJS(`document.querySelector('[data-testid=stat-rating]')?.textContent === "1,500?"`, "the races, rated 1,500, provisional")
		p.shot(pre, "stats-races")
		p.axe("the race statistics "+pre, "#stats")

		// the reset asks; Cancel keeps everything, Reset counts nothing more
		p.tap(`[data-testid=stats-reset]`)
		p.waitJS(`document.querySelector('#dlg-reset').open`, "the reset question")
		p.axe("the reset question "+pre, "#dlg-reset")
		p.tap(`[data-testid=reset-no]`)
		p.waitJS(`!document.querySelector('#dlg-reset').open`, "the question closed")
		p.run(chromedp.SetValue(`[data-testid=stats-mode]`, "d1-normal"))
		p.eval(`document.querySelector('[data-testid=stats-mode]').dispatchEvent(new Event('change')), true`, nil)
		p.waitJS(`document.querySelector('[data-testid=stat-played]').textContent === "3"`, "still 3 games after Cancel")
		p.tap(`[data-testid=stats-reset]`)
		p.waitJS(`document.querySelector('#dlg-reset').open`, "the reset question")
		p.tap(`[data-testid=reset-yes]`)
		p.waitJS(`document.body.dataset.ready === "1" && document.querySelector('[data-testid=stat-played]').textContent === "0" && !!document.querySelector('[data-testid=stats-since]')`, "no games after the reset")
		var st struct {
			Solo []struct{ Played int }
		}
		p.apiJSON("GET", "/api/v1/me/stats", nil, &st)
		if len(st.Solo) != 4 || st.Solo[0].Played != 0 {
			t.Fatalf("stats after the reset: %+v", st)
		}

		// Home: back to the first screen
		p.tap(`[data-testid=stats-home]`)
		p.onScreen("home")
	})
}
