package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// sockets records the page's WebSockets in window.__sockets, so that a test
// can hand the client a frame as if the server had sent it.
const sockets = `window.__sockets = [];
(() => {
  const W = WebSocket;
  window.WebSocket = class extends W { constructor(...a) { super(...a); __sockets.push(this); } };
})();`

// theme sets the appearance (and English) for the browser context's first page.
func theme(name string) string {
	return fmt.Sprintf(`if (!localStorage.getItem('dsol.settings')) localStorage.setItem('dsol.settings', JSON.stringify({theme: %q, lang: 'en'}));`, name)
}

// combo is one of the four ways a screen is checked: on a phone or a
// desktop, in the light or the dark theme.
type combo struct {
	name string // "phone-light" …
	th   string // "light" or "dark"
	vp   viewport
}

// combos are the four, phones first.
var combos = []combo{{"phone-light", "light", phone}, {"phone-dark", "dark", phone}, {"desktop-light", "light", desktop}, {"desktop-dark", "dark", desktop}}

// allCombos reports whether eachCombo runs all four combos
// (DSOL_E2E_COMBOS=all, as make e2e-all sets it) rather than the pair that
// shows each viewport and each theme once: phone-light and desktop-dark.
// The pair is what make test runs, so that it stays within its time.
func allCombos() bool { return os.Getenv("DSOL_E2E_COMBOS") == "all" }

// eachCombo runs f as a parallel subtest, named after it, for each combo
// (the pair phone-light and desktop-dark unless allCombos).
func eachCombo(t *testing.T, f func(t *testing.T, c combo)) {
	for _, c := range combos {
		if !allCombos() && c.name != "phone-light" && c.name != "desktop-dark" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f(t, c)
		})
	}
}

// page opens a tab in the combo's viewport and theme.
func (c combo) page(t *testing.T, srv *server) *page {
	t.Helper()
	p := newPage(t, srv, c.vp)
	p.onNewDocument(theme(c.th))
	return p
}

// visible fails unless every selector matches an element that is rendered,
// not transparent, and wholly inside the viewport.
func (p *page) visible(sels ...string) {
	p.t.Helper()
	j, _ := json.Marshal(sels)
	var bad []string
	p.eval(fmt.Sprintf(`(() => {
  const bad = [];
  for (const s of %s) {
    const e = document.querySelector(s);
    if (!e) { bad.push(s + ': missing'); continue; }
    const b = e.getBoundingClientRect();
    if (!e.checkVisibility({opacityProperty: true, visibilityProperty: true}) || b.width < 1 || b.height < 1) bad.push(s + ': not visible');
    else if (b.left < -0.5 || b.top < -0.5 || b.right > innerWidth + 0.5 || b.bottom > innerHeight + 0.5) bad.push(s + ': outside ' + JSON.stringify([b.left, b.top, b.right, b.bottom].map(Math.round)));
  }
  return bad;
})()`, j), &bad)
	if len(bad) > 0 {
		p.t.Errorf("not visible in the %s viewport: %s", p.t.Name(), strings.Join(bad, "; "))
	}
}

// fitsDialog fails if the open dialog scrolls sideways or any of its texts
// is cut off.
func (p *page) fitsDialog() {
	p.t.Helper()
	var bad []string
	p.eval(`(() => {
  const d = document.querySelector('dialog[open]');
  if (!d) return ['no open dialog'];
  const bad = [];
  if (d.scrollWidth > d.clientWidth + 1) bad.push('dialog scrolls sideways: ' + d.scrollWidth + ' > ' + d.clientWidth);
  for (const e of d.querySelectorAll('h2, h3, p, label, button, li, legend')) {
    if (e.checkVisibility() && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible') bad.push((e.dataset.testid || e.tagName) + ' cut: ' + e.textContent.slice(0, 40));
  }
  return bad;
})()`, &bad)
	if len(bad) > 0 {
		p.t.Errorf("%s: %s", p.t.Name(), strings.Join(bad, "; "))
	}
}

// shot saves a screenshot named after the viewport, theme and screen.
func (p *page) shot(prefix, name string) {
	p.t.Helper()
	time.Sleep(120 * time.Millisecond) // let transitions settle
	p.screenshot(prefix + "-" + name)
}

// TestScreens visits every screen a player meets, on a phone and a desktop,
// in light and dark, and saves a screenshot of each (artifacts/screen-*.png).
// Nothing about pixels is asserted: only that the key elements are shown
// and inside the viewport.
func TestScreens(t *testing.T) {
	code, ace, two := mirroredCode(t)
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) { screens(t, srv, c.vp, "screen-"+c.name, c.th, code, ace, two) })
}

func screens(t *testing.T, srv *server, vp viewport, pre, th, code string, ace, two int) {
	a := newPage(t, srv, vp)
	a.onNewDocument(theme(th))
	a.onNewDocument(sockets)

	// a first visit: the first screen, then the new game sheet it opens
	a.open("/")
	a.waitJS(`document.body.dataset.mode === "home"`, "the first screen")
	// (its own screenshots and accessibility check: TestHomeScreens)
	a.tap(`[data-testid=home-new]`)
	a.waitJS(`document.querySelector('#dlg-new').open`, "the new-game sheet")
	a.visible(`[data-testid=new-dialog] h2`, `[data-testid=draw-3]`, `[data-testid=deal]`, `[data-testid=code-input]`, `[data-testid=code-open]`)
	a.fitsDialog()
	a.shot(pre, "new")
	a.axe("the new game sheet "+pre, "#dlg-new")

	// solo, draw 3, a few draws: the waste fans out
	a.open("/?code=DS1-D3N-AAAAAAB")
	a.waitJS(`document.body.dataset.seq === "0"`, "the solo table")
	// the deal: on a phone held upright the columns reach the lower part of
	// the screen, whose nine columns across leave the height to the cards
	a.inside(`#table [data-pile]`, vp)
	bottom := a.cardsBottom(`#table .cols .card`)
	t.Logf("%s: the deal's longest column ends at %.0f%% of the screen's height", pre, 100*bottom)
	if vp == phone && bottom < 0.7 {
		t.Errorf("%s: the deal's columns end at %.0f%% of the screen's height, want at least 70%%", pre, 100*bottom)
	}
	a.shot(pre, "solo-start")
	for i := 1; i <= 3; i++ {
		a.tap(`[data-testid=stock]`)
		a.waitJS(fmt.Sprintf(`document.body.dataset.seq === "%d"`, i), "a draw")
	}
	a.waitJS(`document.querySelectorAll('[data-pile="w"] .card.up').length >= 3`, "three cards fanned on the waste")
	a.visible(`[data-testid=score]`, `[data-testid=moves]`, `[data-testid=time]`, `[data-testid=undo]`, `[data-testid=code]`, `[data-pile="w"] .card.top`)
	a.inside(`#table [data-pile]`, vp)
	a.shot(pre, "solo")
	a.axe("the solo table "+pre, "#table", "header.hud", ".foot")

	// long columns, as late in a game: eight cards face down under a run
	// of thirteen, another of twelve; the client gets the view as a socket
	// event. Everything stays on the screen, every index readable.
	a.pushView(`v.columns[8] = {down: 8, up: run(13, false)};
  v.columns[7] = {down: 7, up: run(12, true)};
  v.columns[0] = {down: 0, up: run(9, false)};`)
	a.waitJS(`document.querySelectorAll('#table [data-pile=c9] .card.up').length === 13`, "the long columns")
	a.inside(`#table [data-pile]`, vp)
	a.readableColumns()
	if b := a.cardsBottom(`#table .cols .card`); b > 1 {
		t.Errorf("%s: the long columns end at %.0f%% of the screen's height", pre, 100*b)
	}
	a.shot(pre, "solo-long")

	// the win: the client gets a finished view of this game as a socket event
	a.pushView(`const ranks = 'A23456789TJQK', suits = 'SHDC';
  v.foundations = [...Array(8)].map((_, i) => [...ranks].map((r) => r + suits[i >> 1]));
  v.columns = v.columns.map(() => ({down: 0, up: []}));
  Object.assign(v, {stock: 0, waste: [], status: 'won', score: 1285, moves: 214, undo: 0, stuck: false});`)
	a.waitJS(`document.body.dataset.status === "won" && !!document.querySelector('.fx .card')`, "the win cascade")
	time.Sleep(250 * time.Millisecond)
	a.screenshot(pre + "-win-cascade")
	a.waitJS(`document.querySelector('#dlg-win').open`, "the win dialog")
	time.Sleep(400 * time.Millisecond)
	a.visible(`[data-testid=win] h2`, `[data-testid=win-score]`, `[data-testid=win-time]`, `[data-testid=win-moves]`, `[data-testid=win-new]`, `[data-testid=win-home]`)
	if got := []string{a.text(`[data-testid=win-score]`), a.text(`[data-testid=win-moves]`)}; got[0] != "1285" || got[1] != "214" {
		t.Errorf("the win dialog shows score %q and moves %q, want 1285 and 214", got[0], got[1])
	}
	if tm := a.text(`[data-testid=win-time]`); !strings.Contains(tm, ":") {
		t.Errorf("the win dialog shows the time %q", tm)
	}
	a.fitsDialog()
	a.shot(pre, "win")
	a.axe("the win dialog "+pre, "#dlg-win")
	a.eval(`(document.querySelector('#dlg-win').close(), true)`, nil)

	// settings, then the help in each language
	a.tap(`[data-testid=settings]`)
	a.waitJS(`document.querySelector('#dlg-set').open && document.querySelector('[data-testid=set-lang] option').textContent !== ''`, "the settings dialog")
	a.visible(`[data-testid=settings-dialog] h2`, `[data-testid=set-lang]`, `[data-testid=set-dblclick]`, `[data-testid=set-four]`, `[data-testid=set-lefty]`, `[data-testid=set-theme]`)
	a.fitsDialog()
	a.shot(pre, "settings")
	a.axe("settings "+pre, "#dlg-set")
	langs := []string{"en", "es", "pl", "it"}
	if th == "dark" {
		langs = []string{"en"}
	}
	for _, l := range langs {
		a.setLang(l)
		a.tap(`[data-testid=help]`)
		a.waitJS(`document.querySelector('#dlg-help').open`, "the help dialog")
		a.visible(`[data-testid=help-dialog] h2`)
		a.fitsDialog()
		a.shot(pre, "help-"+l)
		if l == "en" {
			a.axe("help "+pre, "#dlg-help")
		}
		a.eval(`(document.querySelector('#dlg-help').close(), true)`, nil)
	}
	a.setLang("en")

	// the lobby with two open races
	b, c := newPage(t, srv, vp), newPage(t, srv, vp)
	b.onNewDocument(theme(th))
	c.onNewDocument(theme(th))
	for _, q := range []struct {
		p    *page
		body map[string]any
	}{{b, map[string]any{"draw": 3, "public": true, "turns": "alternating"}}, {c, map[string]any{"draw": 1, "public": true, "series": 3, "soloOutBonus": true}}} {
		q.p.open("/?mode=race")
		q.p.waitJS(`document.body.dataset.status === "lobby"`, "the lobby")
		q.p.apiJSON("POST", "/api/v1/races", q.body, nil)
	}
	a.open("/?mode=race")
	a.waitJS(`document.querySelectorAll('[data-testid=lobby-list] li[data-race]').length >= 2`, "two open races in the lobby")
	a.visible(`[data-testid=lobby] h1`, `[data-testid=lobby-list] li:first-child [data-testid=join]`, `[data-testid=lobby-list] li:nth-child(2) [data-testid=join]`)
	a.shot(pre, "lobby")
	a.axe("the lobby "+pre, "[data-testid=lobby]")

	// the waiting room
	var v raceView
	a.apiJSON("POST", "/api/v1/races", map[string]any{"code": code, "turns": "simultaneous", "public": false}, &v)
	a.eval(fmt.Sprintf(`(sessionStorage.setItem("dsol.invite.%s", %q), true)`, v.ID, v.Invite), nil)
	a.open("/?race=" + v.ID)
	a.waitJS(`document.body.dataset.status === "waiting" && document.body.dataset.seat === "1"`, "the waiting room")
	a.visible(`[data-testid=waiting] h2`, `[data-testid=invite-link]`, `[data-testid=invite-copy]`, `[data-testid=wait-lobby]`)
	a.shot(pre, "waiting")
	a.axe("the waiting room "+pre, "[data-testid=waiting]", ".rhud")

	// the race: B joins by the invite, C watches; a few moves
	b.open(fmt.Sprintf("/?race=%s&invite=%s", v.ID, v.Invite))
	b.acceptOffer()
	b.waitJS(`document.body.dataset.status === "playing" && document.body.dataset.seat === "2"`, "B seated")
	a.waitJS(`document.body.dataset.status === "playing"`, "A seeing the race start")
	c.open("/?race=" + v.ID + "&watch=1")
	c.waitJS(`document.body.dataset.status === "playing" && document.body.dataset.seat === ""`, "the spectator")
	a.tap(fmt.Sprintf(myCard, ace+1))
	for _, p := range []*page{a, b, c} {
		p.waitJS(`document.querySelectorAll('#race [data-pile="f"] .card.up').length === 1`, "the ace up")
	}
	for i := 0; i < 2; i++ {
		a.tap(`#race [data-board="me"] [data-pile="s"]`)
		b.tap(`#race [data-board="me"] [data-pile="s"]`)
	}
	a.waitJS(`+document.body.dataset.seq >= 5`, "four draws")

	// both go for the same spot with their 2: one of them is too late
	b.eval(`(() => { window.__late = 0; const l = document.querySelector('[data-testid=too-late]'); new MutationObserver(() => { if (!l.hidden) { __late++; const b = l.getBoundingClientRect(), c = getComputedStyle(l); window.__lateBox = [b.left, b.top, b.right, b.bottom, innerWidth, innerHeight, c.color, c.backgroundColor, parseFloat(c.fontSize)]; } }).observe(l, {attributes: true, attributeFilter: ['hidden']}); return true; })()`, nil)
	a.eval(`(() => { window.__late = 0; const l = document.querySelector('[data-testid=too-late]'); new MutationObserver(() => { if (!l.hidden) { __late++; const b = l.getBoundingClientRect(), c = getComputedStyle(l); window.__lateBox = [b.left, b.top, b.right, b.bottom, innerWidth, innerHeight, c.color, c.backgroundColor, parseFloat(c.fontSize)]; } }).observe(l, {attributes: true, attributeFilter: ['hidden']}); return true; })()`, nil)
	xa, ya, _, _ := a.box(fmt.Sprintf(myCard, two+1))
	xb, yb, _, _ := b.box(fmt.Sprintf(myCard, two+1))
	var wg sync.WaitGroup
	for _, q := range []struct {
		p    *page
		x, y float64
	}{{a, xa, ya}, {b, xb, yb}} {
		wg.Add(1)
		go func() { defer wg.Done(); _ = doTap(q.p, q.x, q.y) }()
	}
	wg.Wait()
	late := lateOne(t, a, b)
	late.screenshot(pre + "-too-late")
	var box []any
	late.eval(`window.__lateBox`, &box)
	if l, t0, r, b, w, h := box[0].(float64), box[1].(float64), box[2].(float64), box[3].(float64), box[4].(float64), box[5].(float64); l < 0 || t0 < 0 || r > w || b > h || r-l < 60 {
		t.Errorf("too late mark at %v, viewport %vx%v", box[:4], w, h)
	}
	if fs := box[8].(float64); fs < 20 {
		t.Errorf("too late mark in %vpx type", fs)
	}
	t.Logf("too late mark: %v", box)
	late.waitJS(`document.querySelector('[data-testid=too-late]').hidden`, "too late gone")

	a.waitJS(`document.querySelectorAll('#race [data-pile="f"] .card.up').length === 2`, "the 2 up")
	a.visible(`[data-testid=count-me]`, `[data-testid=count-them]`, `[data-testid=turn]`, `[data-testid=resign]`, `#race [data-testid=help]`, `#race [data-testid=settings]`)
	a.inside(`#race [data-pile]`, vp)
	// my board too reaches the lower part of a phone's screen
	bottom = a.cardsBottom(`#race [data-board=me] .rcols .card`)
	t.Logf("%s: my longest race column ends at %.0f%% of the screen's height", pre, 100*bottom)
	if vp == phone && bottom < 0.7 {
		t.Errorf("%s: my race columns end at %.0f%% of the screen's height, want at least 70%%", pre, 100*bottom)
	}
	a.shot(pre, "race")
	a.axe("the race "+pre, "#race")
	c.waitJS(`document.querySelectorAll('#race [data-pile="f"] .card.up').length === 2`, "the 2 up for the spectator")
	c.visible(`[data-testid=count-me]`, `[data-testid=count-them]`, `[data-testid=turn]`)
	c.inside(`#race [data-pile]`, vp)
	c.shot(pre, "spectator")
	c.axe("the race watched "+pre, "#race")
	a.tap(`#race [data-testid=help]`)
	a.waitJS(`document.querySelector('#dlg-help').open`, "the race help")
	a.fitsDialog()
	a.shot(pre, "race-help")
	a.axe("the race help "+pre, "#dlg-help")
	a.eval(`(document.querySelector('#dlg-help').close(), true)`, nil)

	// A resigns: the result, for both
	a.tap(`[data-testid=resign]`)
	a.waitJS(`document.querySelector('#dlg-resign').open`, "the resign question")
	a.visible(`[data-testid=resign-yes]`, `[data-testid=resign-no]`)
	a.shot(pre, "resign")
	a.axe("the resign question "+pre, "#dlg-resign")
	a.tap(`[data-testid=resign-yes]`)
	for _, p := range []*page{a, b, c} {
		p.waitJS(`document.querySelector('[data-testid=result]').open`, "the result")
	}
	time.Sleep(500 * time.Millisecond)
	a.visible(`[data-testid=result-title]`, `[data-testid=result-counts]`, `[data-testid=result-reason]`, `[data-testid=rematch]`, `[data-testid=result-lobby]`)
	a.fitsDialog()
	a.shot(pre, "result-lost")
	a.axe("the result, lost "+pre, "#dlg-result")
	b.visible(`[data-testid=result-title]`, `[data-testid=rematch]`)
	b.fitsDialog()
	b.shot(pre, "result-won")
	b.axe("the result, won "+pre, "#dlg-result")
	c.fitsDialog()
	c.shot(pre, "result-spectator")
	c.axe("the result watched "+pre, "#dlg-result")

	// a race its creator cancelled, opened by its invite link
	var w raceView
	a.apiJSON("POST", "/api/v1/races", map[string]any{"public": false}, &w)
	a.apiJSON("POST", "/api/v1/races/"+w.ID+"/cancel", nil, nil)
	b.open(fmt.Sprintf("/?race=%s&invite=%s", w.ID, w.Invite))
	b.waitJS(`document.body.dataset.status === "over"`, "the cancelled race")
	if got := b.text(`[data-testid=waiting] h2`); got != "The race was cancelled" {
		t.Errorf("cancelled race shows %q", got)
	}
	if got := b.text(`[data-testid=turn]`); !strings.Contains(got, "The race was cancelled") {
		t.Errorf("cancelled race strip shows %q", got)
	}
	b.visible(`[data-testid=waiting] h2`, `[data-testid=wait-lobby]`)
	b.shot(pre, "cancelled")
	b.axe("a cancelled race "+pre, "[data-testid=waiting]")
}

// setLang picks a language in the settings dialog (opening it if needed).
func (p *page) setLang(l string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`(async () => {
  const d = document.querySelector('#dlg-set');
  if (!d.open) document.querySelector('#b-set').click();
  const s = d.querySelector('[name=lang]');
  s.value = %q;
  s.dispatchEvent(new Event('change', {bubbles: true}));
  await new Promise((r) => setTimeout(r, 150));
  d.close();
  return document.documentElement.lang;
})()`, l), nil)
	p.waitJS(fmt.Sprintf(`document.documentElement.lang === %q`, l), "language "+l)
}

// inside fails unless every element matching sel is inside the viewport.
func (p *page) inside(sel string, vp viewport) {
	p.t.Helper()
	var bad []string
	p.eval(fmt.Sprintf(`(() => {
  const bad = [];
  for (const el of document.querySelectorAll(%q)) {
    const b = el.getBoundingClientRect();
    if (b.left < -0.5 || b.top < -0.5 || b.right > %d.5 || b.bottom > %d.5 || b.width < 1) bad.push((el.closest('[data-board]')?.dataset.board || '') + ' ' + el.dataset.pile + ' ' + JSON.stringify([b.left, b.top, b.right, b.bottom].map(Math.round)));
  }
  return bad;
})()`, sel, vp.w, vp.h), &bad)
	if len(bad) > 0 {
		p.t.Errorf("%s: piles outside the %dx%d viewport: %v", p.t.Name(), vp.w, vp.h, bad)
	}
}

// cardsBottom returns the bottom of the lowest element matching sel, as a
// share of the viewport's height.
func (p *page) cardsBottom(sel string) float64 {
	p.t.Helper()
	var f float64
	p.eval(fmt.Sprintf(`Math.max(0, ...[...document.querySelectorAll(%q)].map((e) => e.getBoundingClientRect().bottom)) / innerHeight`, sel), &f)
	return f
}

// readableColumns fails unless every face-up card of the solo table under
// another shows its whole corner index, of at least 16px.
func (p *page) readableColumns() {
	p.t.Helper()
	var bad []string
	p.eval(`(() => {
  const bad = [];
  for (const col of document.querySelectorAll('#table .cols [data-pile]')) {
    const up = [...col.querySelectorAll('.card.up')];
    up.forEach((c, i) => {
      const idx = c.querySelector('b'), r = idx.getBoundingClientRect(), size = parseFloat(getComputedStyle(idx).fontSize);
      const next = up[i + 1]?.getBoundingClientRect();
      if (size < 16) bad.push(col.dataset.pile + ' ' + c.dataset.card + ': index ' + size + 'px');
      if (next && next.top < r.bottom - 1) bad.push(col.dataset.pile + ' ' + c.dataset.card + ': index cut at ' + Math.round(next.top - r.top) + ' of ' + Math.round(r.height) + 'px');
    });
  }
  return bad;
})()`, &bad)
	if len(bad) > 0 {
		p.t.Errorf("%s: %s", p.t.Name(), strings.Join(bad, "; "))
	}
}

// lateOne returns the page that shows "too late" (within 5 s).
func lateOne(t *testing.T, pages ...*page) *page {
	t.Helper()
	end := time.Now().Add(5 * time.Second)
	for time.Now().Before(end) {
		for _, p := range pages {
			if n, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`window.__late || 0`)); err == nil && n > 0 {
				return p
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("nobody was told too late")
	return nil
}
