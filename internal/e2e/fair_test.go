package e2e_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"dsol/internal/testenv"
)

// fairView is what the fairness tests read of a race view.
type fairView struct {
	ID         string  `json:"id"`
	Status     string  `json:"status"`
	Invite     string  `json:"invite"`
	Commitment string  `json:"commitment"`
	ChosenDeal bool    `json:"chosenDeal"`
	Decks      string  `json:"decks"`
	Code       *string `json:"code"`
	Salt       *string `json:"salt"`
}

func (p *page) fairView(id string) fairView {
	p.t.Helper()
	var v fairView
	p.apiJSON("GET", "/api/v1/games/"+id, nil, &v)
	return v
}

// checkCommitment fails unless the over view's code and salt hash to its commitment.
func checkCommitment(t *testing.T, v fairView) {
	t.Helper()
	if v.Code == nil || v.Salt == nil {
		t.Fatalf("race %s is %s but shows no code and salt", v.ID, v.Status)
	}
	sum := sha256.Sum256([]byte(*v.Code + ":" + *v.Salt))
	if got := hex.EncodeToString(sum[:]); got != v.Commitment {
		t.Fatalf("SHA-256(%s:%s) = %s, commitment %s", *v.Code, *v.Salt, got, v.Commitment)
	}
}

// acceptOffer clicks Join when the page offers to join a race that has
// notes for the joiner (a chosen deal, mirrored decks), as a player would
// after reading them. Pages that joined at once are left as they are.
func (p *page) acceptOffer() {
	p.t.Helper()
	p.waitJS(`document.body.dataset.status === "playing" || !!document.querySelector('[data-testid=wait-join]:not([hidden])')`, "the race or its join offer")
	var offered bool
	p.eval(`!!document.querySelector('[data-testid=wait-join]:not([hidden])') && document.body.dataset.status === "waiting"`, &offered)
	if offered {
		p.tap(`[data-testid=wait-join]`)
	}
}

// noCodeInDOM fails if the page shows or holds a race code anywhere in its
// DOM (text, attributes, form values), its title or its address.
func (p *page) noCodeInDOM(when string) {
	p.t.Helper()
	var hit string
	p.eval(`(() => {
  const all = [document.documentElement.outerHTML, document.title, location.href,
    ...[...document.querySelectorAll('input, textarea, select')].map((e) => e.value)].join('\n');
  const m = all.match(/.{0,60}DR[12]-.{0,40}/i);
  return m ? m[0] : '';
})()`, &hit)
	if hit != "" {
		p.t.Errorf("%s: a deal code in the page: %q", when, hit)
	}
}

// waitCheck waits for the end's "Check this race" panel to reach a state.
func (p *page) waitCheck(state string) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`document.querySelector('[data-testid=fair-check]')?.dataset.check === %q`, state), "the check panel saying "+state)
}

const chosenCode = "DR1-D1UI-HELLOXY"

// TestFairChosenDeal: A creates a public race from a code of their choice;
// B is told in the lobby and on the invite's join offer, before joining,
// that the host chose the deal. During play both see the deal's
// fingerprint and no code; at the end the check panel recomputes the
// fingerprint from the revealed code and salt, and it matches. B is each
// combo of eachCombo (screenshots and axe-core on what B sees), A a desktop
// in B's theme.
func TestFairChosenDeal(t *testing.T) {
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) { fairChosen(t, srv, c) })
}

func fairChosen(t *testing.T, srv *server, c combo) {
	vp, pre := c.vp, "fair-"+c.name
	a, b := combo{"desktop-" + c.th, c.th, desktop}.page(t, srv), c.page(t, srv)
	a.open("/?mode=race")
	a.waitJS(`document.body.dataset.status === "lobby"`, "A's lobby")
	var v fairView
	a.apiJSON("POST", "/api/v1/races", map[string]any{"code": chosenCode, "public": true}, &v)
	if !v.ChosenDeal || len(v.Commitment) != 64 || v.Code != nil {
		t.Fatalf("chosen race: chosenDeal %v, commitment %q, code %v", v.ChosenDeal, v.Commitment, v.Code)
	}
	a.eval(fmt.Sprintf(`(sessionStorage.setItem("dsol.invite.%s", %q), true)`, v.ID, v.Invite), nil)
	a.open("/?race=" + v.ID)
	a.waitJS(`document.body.dataset.status === "waiting" && document.body.dataset.seat === "1"`, "A's waiting room")
	if n := a.count(`[data-testid=waiting] [data-testid=chosen-note]`); n != 0 {
		t.Errorf("the creator is told they chose the deal (%d notes)", n)
	}

	// B in the lobby: the race is listed with the notice
	b.open("/?mode=race")
	row := fmt.Sprintf(`[data-testid=lobby-list] li[data-race=%q]`, v.ID)
	b.waitJS(fmt.Sprintf(`!!document.querySelector('%s [data-testid=chosen-note]')`, row), "the chosen-deal note in the lobby")
	if got := b.text(row + ` [data-testid=chosen-note]`); !strings.Contains(got, "host chose this deal") {
		t.Errorf("lobby note %q", got)
	}
	b.visible(row+` [data-testid=chosen-note]`, row+` [data-testid=join]`)
	b.noCodeInDOM("lobby")
	b.shot(pre, "lobby")
	b.axe("lobby "+pre, row)

	// creating a mirrored race tells what mirrored decks mean
	if n := b.count(`[data-testid=race-mirrored-note]:not([hidden])`); n != 0 {
		t.Errorf("the mirrored note shows with own shuffles")
	}
	b.eval(`(document.querySelector('[data-testid=race-decks-mirrored]').scrollIntoView({block: 'center'}), true)`, nil)
	b.tap(`[data-testid=race-decks-mirrored]`)
	b.waitJS(`!document.querySelector('[data-testid=race-mirrored-note]').hidden`, "the mirrored note in the new-race form")
	b.visible(`[data-testid=race-mirrored-note]`)
	if got := b.text(`[data-testid=race-mirrored-note]`); !strings.Contains(got, "same layout") {
		t.Errorf("mirrored note %q", got)
	}
	b.shot(pre, "create-mirrored")
	b.axe("new race "+pre, `[data-testid=race-form]`)

	// B opens the invite: told first, not seated until Join
	b.open(fmt.Sprintf("/?race=%s&invite=%s", v.ID, v.Invite))
	b.waitJS(`document.body.dataset.status === "waiting" && !document.querySelector('[data-testid=wait-join]').hidden`, "the join offer")
	b.visible(`[data-testid=waiting] h2`, `[data-testid=waiting] [data-testid=chosen-note]`, `[data-testid=wait-join]`, `[data-testid=fair] summary`)
	if got := b.text(`[data-testid=waiting] h2`); got != "Join this race?" {
		t.Errorf("join offer title %q", got)
	}
	if s := b.fairView(v.ID).Status; s != "waiting" {
		t.Fatalf("B is seated before Join: the race is %s", s)
	}
	b.noCodeInDOM("join offer")
	b.shot(pre, "join")
	b.axe("join offer "+pre, `[data-testid=waiting]`, `[data-testid=fair]`)
	b.tap(`[data-testid=wait-join]`)
	b.waitJS(`document.body.dataset.status === "playing" && document.body.dataset.seat === "2"`, "B seated by Join")
	a.waitJS(`document.body.dataset.status === "playing"`, "A seeing the race start")

	// during play: the mark and the fingerprint, no code
	for who, p := range map[string]*page{"A": a, "B": b} {
		if got := p.text(`[data-testid=fair] .fs`); got != v.Commitment[:12] {
			t.Errorf("%s's fingerprint %q, want %q", who, got, v.Commitment[:12])
		}
		if got := p.text(`[data-testid=commitment]`); got != v.Commitment {
			t.Errorf("%s's full fingerprint %q, want %q", who, got, v.Commitment)
		}
		p.visible(`[data-testid=chosen-mark]`, `[data-testid=fair] summary`)
		p.noCodeInDOM(who + " playing")
	}
	if c := b.fairView(v.ID).Code; c != nil {
		t.Fatalf("the view names the code %q during play", *c)
	}
	b.tap(`[data-testid=fair] summary`)
	b.waitJS(`document.querySelector('[data-testid=fair]').open`, "the fingerprint opened")
	b.visible(`[data-testid=commitment]`, `.fpop .fexp`)
	b.inside(`#race [data-pile]`, vp)
	b.shot(pre, "race")
	b.axe("race "+pre, `[data-testid=fair]`, `[data-testid=chosen-mark]`)
	b.tap(`[data-testid=count-me]`) // a tap elsewhere closes it
	b.waitJS(`!document.querySelector('[data-testid=fair]').open`, "the fingerprint closed")

	// A resigns: both check the revealed deal
	a.tap(`[data-testid=resign]`)
	a.waitJS(`document.querySelector('#dlg-resign').open`, "the resign question")
	a.tap(`[data-testid=resign-yes]`)
	a.waitJS(`document.body.dataset.status === "over"`, "the end of the race")
	over := a.fairView(v.ID)
	checkCommitment(t, over)
	if *over.Code != chosenCode {
		t.Errorf("revealed code %q, want %q", *over.Code, chosenCode)
	}
	for _, p := range []*page{a, b} {
		p.waitJS(`document.querySelector('[data-testid=result]').open`, "the result")
		p.waitCheck("ok")
		if got := p.text(`[data-testid=check-code]`); got != chosenCode {
			t.Errorf("check panel code %q", got)
		}
		var href string
		p.eval(`document.querySelector('[data-testid=check-code]').getAttribute('href')`, &href)
		if href != "/api/v1/codes/"+chosenCode {
			t.Errorf("code link %q", href)
		}
		if got := p.text(`[data-testid=check-salt]`); got != *over.Salt {
			t.Errorf("check panel salt %q, want %q", got, *over.Salt)
		}
		if got := p.text(`[data-testid=check-computed]`); got != v.Commitment {
			t.Errorf("check panel digest %q, want %q", got, v.Commitment)
		}
		if got := p.text(`[data-testid=check-seen]`); got != v.Commitment {
			t.Errorf("check panel's fingerprint from before the end %q", got)
		}
	}
	b.visible(`[data-testid=result-title]`, `[data-testid=fair-check] h3`, `[data-testid=check-status]`, `[data-testid=rematch]`)
	b.fitsDialog()
	b.shot(pre, "result")
	b.axe("result "+pre, `[data-testid=fair-check]`)
	if got := b.text(`[data-testid=check-status]`); !strings.Contains(got, "matches") {
		t.Errorf("check status %q", got)
	}
}

// TestFairServerDealt: a race the server deals never shows a code while it
// waits or is played; its end reveals a DR2 code that checks out. A race
// cancelled before anyone joined reveals and checks too, and without Web
// Crypto the panel says the check needs a secure connection and still
// shows the values.
func TestFairServerDealt(t *testing.T) {
	srv := startServer(t)
	a, b := newPage(t, srv, desktop), newPage(t, srv, phone)
	a.open("/?mode=race")
	a.waitJS(`document.body.dataset.status === "lobby"`, "the lobby")
	var v fairView
	a.apiJSON("POST", "/api/v1/races", map[string]any{"public": false}, &v)
	if v.ChosenDeal || v.Code != nil {
		t.Fatalf("server-dealt race: chosenDeal %v, code %v", v.ChosenDeal, v.Code)
	}
	a.eval(fmt.Sprintf(`(sessionStorage.setItem("dsol.invite.%s", %q), true)`, v.ID, v.Invite), nil)
	a.open("/?race=" + v.ID)
	a.waitJS(`document.body.dataset.status === "waiting"`, "the waiting room")
	a.noCodeInDOM("waiting room")
	b.open(fmt.Sprintf("/?race=%s&invite=%s", v.ID, v.Invite)) // nothing to tell: joins at once
	b.waitJS(`document.body.dataset.status === "playing" && document.body.dataset.seat === "2"`, "B seated")
	a.waitJS(`document.body.dataset.status === "playing"`, "A playing")
	for i := 0; i < 3; i++ {
		a.tap(`#race [data-board="me"] [data-pile="s"]`)
		b.tap(`#race [data-board="me"] [data-pile="s"]`)
	}
	a.waitJS(`+document.body.dataset.seq >= 6`, "six draws")
	for who, p := range map[string]*page{"A": a, "B": b} {
		p.noCodeInDOM(who + " playing")
		if n := p.count(`[data-testid=chosen-mark]:not([hidden])`); n != 0 {
			t.Errorf("%s sees a chosen-deal mark on a server deal", who)
		}
		if got := p.text(`[data-testid=fair] .fs`); got != v.Commitment[:12] {
			t.Errorf("%s's fingerprint %q", who, got)
		}
	}
	b.tap(`[data-testid=resign]`)
	b.waitJS(`document.querySelector('#dlg-resign').open`, "the resign question")
	b.tap(`[data-testid=resign-yes]`)
	b.waitJS(`document.body.dataset.status === "over"`, "the end of the race")
	over := a.fairView(v.ID)
	checkCommitment(t, over)
	if !strings.HasPrefix(*over.Code, "DR2-") {
		t.Errorf("server deal revealed as %q", *over.Code)
	}
	for _, p := range []*page{a, b} {
		p.waitJS(`document.querySelector('[data-testid=result]').open`, "the result")
		p.waitCheck("ok")
		if got := p.text(`[data-testid=check-code]`); got != *over.Code {
			t.Errorf("check panel code %q, want %q", got, *over.Code)
		}
	}
	b.fitsDialog()
	b.shot("fair-phone", "result-dr2")

	// a cancelled race: its panel checks too; a page without Web Crypto
	// (as on plain http away from localhost) says so and shows the values
	var w fairView
	a.apiJSON("POST", "/api/v1/races", map[string]any{"public": false}, &w)
	a.apiJSON("POST", "/api/v1/races/"+w.ID+"/cancel", nil, nil)
	b.open(fmt.Sprintf("/?race=%s&invite=%s", w.ID, w.Invite))
	b.waitJS(`document.body.dataset.status === "over"`, "the cancelled race")
	b.waitCheck("ok")
	b.visible(`[data-testid=waiting] [data-testid=fair-check]`, `[data-testid=wait-lobby]`)
	b.shot("fair-phone", "cancelled")
	c := newPage(t, srv, phone)
	c.onNewDocument(`Object.defineProperty(Crypto.prototype, 'subtle', {get() { return undefined; }});`)
	c.open("/?race=" + w.ID)
	c.waitJS(`document.body.dataset.status === "over"`, "the cancelled race without Web Crypto")
	c.waitCheck("insecure")
	if got := c.text(`[data-testid=check-status]`); !strings.Contains(got, "secure connection") {
		t.Errorf("insecure check says %q", got)
	}
	cw := c.fairView(w.ID)
	if c.text(`[data-testid=check-code]`) != *cw.Code || c.text(`[data-testid=check-salt]`) != *cw.Salt || c.text(`[data-testid=check-final]`) != cw.Commitment {
		t.Errorf("insecure check panel does not show the code, salt and fingerprint")
	}
	c.shot("fair-phone", "insecure")

	// a mirrored race, dealt by the server: the joiner is told what mirrored
	// decks mean before joining, and nothing about a chosen deal
	var m fairView
	a.apiJSON("POST", "/api/v1/races", map[string]any{"public": false, "decks": "mirrored"}, &m)
	b.open(fmt.Sprintf("/?race=%s&invite=%s", m.ID, m.Invite))
	b.waitJS(`document.body.dataset.status === "waiting" && !document.querySelector('[data-testid=wait-join]').hidden`, "the join offer of a mirrored race")
	b.visible(`[data-testid=waiting] [data-testid=mirrored-note]`, `[data-testid=wait-join]`)
	if n := b.count(`[data-testid=chosen-note], [data-testid=chosen-mark]:not([hidden])`); n != 0 {
		t.Errorf("a server deal is said to be chosen")
	}
	b.noCodeInDOM("mirrored join offer")
	b.shot("fair-phone", "join-mirrored")
	b.tap(`[data-testid=wait-join]`)
	b.waitJS(`document.body.dataset.status === "playing" && document.body.dataset.seat === "2"`, "B seated in the mirrored race")
}

// TestFairBotLabelled: the server's bot is shown as the computer, with its
// mark, in the HUD, on its board and on the result.
func TestFairBotLabelled(t *testing.T) {
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) { fairBot(t, srv, c) })
}

// fairBot is TestFairBotLabelled in one combo.
func fairBot(t *testing.T, srv *server, c combo) {
	a := c.page(t, srv)
	a.open("/?mode=race")
	a.waitJS(`document.body.dataset.status === "lobby"`, "the lobby")
	var v fairView
	a.apiJSON("POST", "/api/v1/races", map[string]any{"bot": "slow"}, &v)
	a.open("/?race=" + v.ID)
	a.waitJS(`document.body.dataset.status === "playing" && document.body.dataset.seat === "1"`, "the race against the bot")
	if got := a.text(`.rthem .nm`); strings.TrimSpace(got) != "Computer" {
		t.Errorf("HUD names the bot %q", got)
	}
	if got := a.text(`[data-board=opp] .rtag .nm`); strings.TrimSpace(got) != "Computer" {
		t.Errorf("the bot's board is named %q", got)
	}
	a.visible(`.rthem .nm .botmark`, `[data-board=opp] .rtag .botmark`)
	if n := a.count(`.rme .botmark`); n != 0 {
		t.Errorf("my name has the bot mark")
	}
	a.inside(`#race [data-pile]`, c.vp)
	a.shot("fair-"+c.name, "bot")
	a.axe("bot race "+c.name, `.rhud`, `#race`)
	a.tap(`[data-testid=resign]`)
	a.waitJS(`document.querySelector('#dlg-resign').open`, "the resign question")
	a.tap(`[data-testid=resign-yes]`)
	a.waitJS(`document.querySelector('[data-testid=result]').open`, "the result")
	a.waitCheck("ok")
	if got := a.text(`[data-testid=result-title]`); got != "Computer won" {
		t.Errorf("result title %q", got)
	}
}

// count returns how many elements match sel.
func (p *page) count(sel string) int {
	p.t.Helper()
	var n int
	p.eval(fmt.Sprintf(`document.querySelectorAll(%q).length`, sel), &n)
	return n
}

var axeSrc struct {
	sync.Mutex
	once      bool
	src, from string
}

// axeScript returns axe-core's source: the file DSOL_AXE names, else
// node_modules/axe-core/axe.min.js at the repository root or in web/; "" if
// there is none.
func axeScript() (string, string) {
	axeSrc.Lock()
	defer axeSrc.Unlock()
	if axeSrc.once {
		return axeSrc.src, axeSrc.from
	}
	axeSrc.once = true
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	for _, p := range []string{os.Getenv("DSOL_AXE"),
		filepath.Join(root, "node_modules", "axe-core", "axe.min.js"),
		filepath.Join(root, "web", "node_modules", "axe-core", "axe.min.js")} {
		if p == "" {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			axeSrc.src, axeSrc.from = string(b), p
			break
		}
	}
	return axeSrc.src, axeSrc.from
}

// solidFelt is a style sheet for the time of an axe-core run: axe-core
// cannot tell the contrast of text over a gradient (it leaves it
// "incomplete", neither passed nor failed), so the felt and the card backs
// are painted for it in the lightest colour of their gradients, the one
// against which light text has the least contrast.
const solidFelt = `body { background: var(--felt) !important; } .card.back { background: var(--back1) !important; }`

// axe runs axe-core (WCAG 2 A and AA rules) on the elements matching sels:
// any violation there fails the test. Violations elsewhere on the page are
// logged only. Without axe-core it logs how to get it and checks nothing.
func (p *page) axe(screen string, sels ...string) {
	p.t.Helper()
	src, from := axeScript()
	if src == "" {
		if testenv.RequireAll() {
			p.t.Fatalf("axe-core not found for the accessibility check of %s: set DSOL_AXE to axe.min.js (DSOL_REQUIRE_ALL is set, so this is a failure, not a skip)", screen)
		}
		p.t.Logf("axe-core not found: no accessibility check of %s (npm install axe-core, or set DSOL_AXE to axe.min.js)", screen)
		return
	}
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`window.axe ? true : (() => { `+src+`
; return true; })()`)); err != nil {
		p.t.Fatalf("inject axe-core from %s: %v", from, err)
	}
	j, _ := json.Marshal(append([]string{}, sels...)) // no selectors: the whole page, logged only
	type violation struct {
		ID, Impact, Help string
		Nodes            []string
	}
	var res struct{ Here, Page []violation }
	p.eval(fmt.Sprintf(`(async () => {
  const opts = {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa']}, resultTypes: ['violations']};
  const pick = (r) => r.violations.map((v) => ({ID: v.id, Impact: v.impact || '', Help: v.help, Nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' — ' + (n.failureSummary || '').split('\n').slice(1).join(' ').slice(0, 160))}));
  const include = %s.filter((s) => document.querySelector(s)).map((s) => [s]);
  // a constructed sheet, not a <style>: the page's policy allows no inline style
  const solid = new CSSStyleSheet();
  solid.replaceSync(%q);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, solid];
  try {
    const here = include.length ? pick(await axe.run({include}, opts)) : [];
    const page = pick(await axe.run(document, opts));
    return {Here: here, Page: page};
  } finally { document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== solid); }
})()`, j, solidFelt), &res)
	for _, v := range res.Here {
		p.t.Errorf("axe on %s (%s): %s [%s] %s: %s", screen, strings.Join(sels, ", "), v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "; "))
	}
	for _, v := range res.Page {
		p.t.Logf("axe on the whole %s page: %s [%s] %s: %s", screen, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "; "))
	}
	if len(res.Here) == 0 && len(sels) > 0 {
		p.t.Logf("axe on %s: no violations in %s (%d elsewhere on the page)", screen, strings.Join(sels, ", "), len(res.Page))
	}
}
