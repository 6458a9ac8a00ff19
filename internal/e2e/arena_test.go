package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// named gives the page's player a name (and tells the lobby it was chosen).
func (p *page) named(name string) {
	p.t.Helper()
	p.apiJSON("PATCH", "/api/v1/me", map[string]any{"name": name}, nil)
	p.eval(`(localStorage.setItem('dsol.named', '1'), true)`, nil)
}

// arenaRow returns the cells of the page's standings row of the player
// named name: [rank, name, score, races, wins] ("" when there is none).
func (p *page) arenaRow(name string) []string {
	p.t.Helper()
	var cells []string
	p.eval(fmt.Sprintf(`(() => {
  const tr = [...document.querySelectorAll('[data-testid=arena-standings] tbody tr')].find((r) => r.querySelector('.anm')?.textContent.startsWith(%q));
  return tr ? [...tr.children].map((c) => c.querySelector('.anm')?.textContent ?? c.textContent) : null;
})()`, name), &cells)
	return cells
}

// TestArenaBrowser: two players join an arena from the browser (one creates
// it in the lobby, the other joins it from the lobby's list), are paired
// into a race with the arena's clock on its strip, one draws and the other
// resigns, and both are back on the arena's screen with their points (+2,
// +0) and the standings updated; pausing dims the row and offers Resume;
// once over, the arena shows its podium and its races with their replays.
// On a phone and a desktop, in the light and the dark theme (eachCombo),
// with axe-core on each screen and screenshots.
func TestArenaBrowser(t *testing.T) {
	eachCombo(t, func(t *testing.T, c combo) {
		srv := startServer(t)
		pre := "arena-" + c.name
		a, b := c.page(t, srv), c.page(t, srv)
		a.open("/?mode=race")
		a.named("Ana")
		b.open("/?mode=race")
		b.named("Bruno")

		// Ana creates an arena in the lobby's form: 5 minutes, starting now
		a.open("/?mode=race")
		a.waitJS(`document.body.dataset.status === "lobby"`, "the lobby")
		a.eval(`(() => { const f = document.querySelector('[data-testid=arena-form]');
  f.querySelector('[name=minutes]').value = '5'; f.querySelector('[name=startsIn]').value = '0'; return true; })()`, nil)
		a.tap(`[data-testid=arena-redeal-single]`)
		a.tap(`[data-testid=arena-create]`)
		a.waitJS(`document.body.dataset.status === "arena" && !!document.querySelector('[data-testid=arena-me]')`, "Ana on the arena's screen")
		var id string
		a.eval(`new URLSearchParams(location.search).get('arena')`, &id)
		if id == "" {
			t.Fatal("the arena's screen has no ?arena= address")
		}
		if got := a.text(`[data-testid=arena-rules]`); got != "5 min · Draw 1 · Single pass" {
			t.Errorf("the arena's rules: %q", got)
		}

		// Bruno finds it in the lobby, with its countdown, and joins it
		b.open("/?mode=race")
		sel := fmt.Sprintf(`[data-testid=arena-open][data-arena=%q]`, id)
		b.waitJS(fmt.Sprintf(`!!document.querySelector(%q)`, sel), "the arena in Bruno's lobby")
		if got := b.text(fmt.Sprintf(`[data-arena=%q] [data-testid=arena-countdown]`, id)); !strings.HasPrefix(got, "Ends in 4:") && got != "Ends in 5:00" {
			t.Errorf("the lobby's countdown: %q", got)
		}
		b.visible(`[data-testid=arenas] h2`, sel)
		b.shot(pre, "lobby")
		b.axe("the lobby with arenas "+c.name, "[data-testid=arenas]", "[data-testid=arena-form]")
		b.tap(sel)

		// both are paired into one race, which shows the arena's time
		var races [2]string
		for i, p := range []*page{a, b} {
			p.waitJS(`document.body.dataset.mode === "race" && document.body.dataset.status === "playing" && !!document.body.dataset.seat`, "the arena's race")
			p.eval(`new URLSearchParams(location.search).get('race')`, &races[i])
		}
		if races[0] == "" || races[0] != races[1] {
			t.Fatalf("paired into %q and %q", races[0], races[1])
		}
		a.waitJS(`/^Ends in [0-9]+:[0-9]{2}$/.test(document.querySelector('[data-testid=race-arena-clock]').textContent)`, "the arena's clock on the race's strip")
		a.visible(`[data-testid=race-arena-clock]`, `[data-testid=arena-back]`)
		a.waitJS(`document.getAnimations().length === 0`, "the table at rest")
		a.shot(pre, "race")
		a.axe("an arena's race "+c.name, ".rhud", ".rstrip")

		// Ana draws (her seat is not idle), Bruno resigns
		a.tap(`#race [data-board="me"] [data-pile="s"]`)
		a.waitJS(`document.querySelectorAll('#race [data-board="me"] [data-pile="w"] .card').length > 0`, "Ana's draw")
		deadline := time.Now().Add(10 * time.Second)
		for a.raceView(races[0]).Seq < 1 {
			if time.Now().After(deadline) {
				t.Fatal("Ana's draw never reached the server")
			}
			time.Sleep(50 * time.Millisecond)
		}
		b.tap(`[data-testid=resign]`)
		b.tap(`[data-testid=resign-yes]`)

		// both back on the arena's screen with their points
		for _, q := range []struct {
			p            *page
			me, pts, res string
			score        string
		}{{a, "Ana", "+2 points", "You won", "2"}, {b, "Bruno", "+0 points", "Ana won", "0"}} {
			q.p.waitJS(fmt.Sprintf(`document.body.dataset.status === "arena" && document.querySelector('[data-testid=arena-points]')?.textContent === %q`, q.pts), q.me+"'s points on the arena's screen")
			q.p.waitJS(fmt.Sprintf(`document.querySelector('[data-testid=arena-me] td:nth-child(3)')?.textContent === %q`, q.score), q.me+"'s score in the standings")
			q.p.waitJS(`document.querySelector('[data-testid=arena-result]').textContent !== ''`, q.me+"'s result")
			if got := q.p.text(`[data-testid=arena-result]`); !strings.HasPrefix(got, q.res) {
				t.Errorf("%s's result: %q", q.me, got)
			}
			if got := q.p.arenaRow(q.me); len(got) != 5 || got[3] != "1" {
				t.Errorf("%s's row: %q", q.me, got)
			}
		}
		// Bruno pauses before they are paired again
		b.tap(`[data-testid=arena-pause]`)
		b.waitJS(`!document.querySelector('[data-testid=arena-resume]').hidden && document.querySelector('[data-testid=arena-me]').classList.contains('paused')`, "Bruno paused")
		a.waitJS(`!!document.querySelector('[data-testid=arena-standings] tr.paused [data-testid=paused]')`, "Bruno's row paused on Ana's screen")
		if got := a.arenaRow("Ana"); len(got) != 5 || got[0] != "1" || got[2] != "2" || got[4] != "1" {
			t.Errorf("Ana's row: %q", got)
		}
		a.visible(`[data-testid=arena-clock]`, `[data-testid=arena-me]`, `[data-testid=arena-pause]`)
		a.shot(pre, "running")
		a.axe("the arena's screen "+c.name, "[data-testid=arena]")
		b.visible(`[data-testid=arena-resume]`, `[data-testid=arena-paused]`)
		b.shot(pre, "paused")
		b.axe("the arena's screen, paused "+c.name, "[data-testid=arena]")

		// the arena ends: its podium, and its race with a replay
		srv.Advance(5*time.Minute + time.Second)
		a.open("/?arena=" + id)
		a.waitJS(`!document.querySelector('[data-testid=arena-podium]').hidden && !!document.querySelector('[data-testid=arena-replay]')`, "the podium and the races")
		if got := a.text(`[data-testid=podium-1] b`); got != "Ana" {
			t.Errorf("first on the podium: %q", got)
		}
		if got := a.text(`[data-testid=arena-clock]`); got != "Over" {
			t.Errorf("the clock at the end: %q", got)
		}
		var href string
		a.eval(`document.querySelector('[data-testid=arena-replay]').getAttribute('href')`, &href)
		if href != "/?replay="+races[0] {
			t.Errorf("the race's replay link: %q", href)
		}
		a.visible(`[data-testid=arena-podium]`)
		a.shot(pre, "over")
		a.axe("the arena's screen at the end "+c.name, "[data-testid=arena]")
		a.tap(`[data-testid=arena-replay]`)
		a.waitJS(`!!document.querySelector('[data-testid=replay]')`, "the race's replay")
	})
}
