package e2e_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"dsol/internal/players"
)

var linkCode = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`)

// showLink opens the settings and shows a transfer code; it returns the code.
func (p *page) showLink() string {
	p.t.Helper()
	p.eval(`document.querySelector('#dlg-set').close()`, nil) // closing hides a code shown before
	p.tap(`[data-testid=home-settings]`)
	p.waitJS(`document.querySelector('#dlg-set').open && document.querySelector('[data-testid=link-box]').hidden`, "the settings")
	p.tap(`[data-testid=link-show]`)
	p.waitJS(`!document.querySelector('[data-testid=link-box]').hidden && document.querySelector('[data-testid=link-qr]').complete && document.querySelector('[data-testid=link-qr]').naturalWidth > 0`, "the transfer code and its QR code")
	p.waitJS(`/^Expires in (9|10):\d\d$/.test(document.querySelector('[data-testid=link-expiry]').textContent)`, "the countdown")
	code := p.text(`[data-testid=link-code]`)
	if !linkCode.MatchString(code) {
		p.t.Fatalf("transfer code %q", code)
	}
	return code
}

// enterCode opens the settings, types a transfer code and asks to sign in
// with it; the confirmation is then open.
func (p *page) enterCode(code string) {
	p.t.Helper()
	p.tap(`[data-testid=home-settings]`)
	p.waitJS(`document.querySelector('#dlg-set').open`, "the settings")
	p.run(chromedp.SendKeys(`[data-testid=link-input]`, code))
	p.tap(`[data-testid=link-use]`)
	p.waitJS(`document.querySelector('#dlg-confirm').open`, "the confirmation")
}

// me is the page's player id.
func (p *page) me() string {
	p.t.Helper()
	var me struct{ ID string }
	p.apiJSON("GET", "/api/v1/me", nil, &me)
	return me.ID
}

// TestAccountLink: device A shows a transfer code; device B (its own
// browser context, so its own cookies) enters it, confirms, and sees A's
// unfinished game under Continue; device C opens the code's link from the
// QR code and gets there the same way. A is each combo of eachCombo and the
// other devices are in its theme on the other kind of screen, so that
// axe-core sees the account settings, the transfer code and the
// confirmation in all four combos.
func TestAccountLink(t *testing.T) {
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) { accountLink(t, srv, c) })
}

func accountLink(t *testing.T, srv *server, c combo) {
	o := combo{"phone-" + c.th, c.th, phone}
	if c.vp == phone {
		o = combo{"desktop-" + c.th, c.th, desktop}
	}
	a := c.page(t, srv)
	a.open("/")
	a.onScreen("home")
	a.tap(`[data-testid=play]`)
	a.onScreen("solo")
	game := a.gameID()
	a.tap(`[data-testid=to-home]`)
	a.onScreen("home")
	code := a.showLink()
	a.screenshot("account-" + c.name)
	a.axe("the account settings and the transfer code "+c.name, "#dlg-set")

	b := o.page(t, srv)
	b.open("/")
	b.onScreen("home")
	if b.me() == a.me() {
		t.Fatal("device B is A's player before any code")
	}
	b.enterCode(code)
	b.screenshot("account-confirm-" + o.name)
	b.axe("the sign-in confirmation "+o.name, "#dlg-confirm")
	b.tap(`[data-testid=confirm-yes]`)
	b.onScreen("home")
	b.waitJS(`document.querySelector('[data-testid=continue-count]').textContent === "1" && document.querySelector('[data-testid=continue]').checkVisibility()`, "A's game under Continue on B")
	if b.me() != a.me() {
		t.Fatalf("device B is %s after the code, want A's %s", b.me(), a.me())
	}
	b.tap(`[data-testid=continue]`)
	b.waitJS(`document.querySelector('#dlg-resume').open && !!document.querySelector('[data-testid=resume-list] button[data-game="`+game+`"]')`, "A's game in B's list")
	b.eval(`document.querySelector('#dlg-resume').close()`, nil)

	// used once: another device gets a clear refusal (a new code of the
	// player would replace the used one, and then it is unknown)
	d := o.page(t, srv)
	d.open("/")
	d.onScreen("home")
	d.enterCode(code)
	d.tap(`[data-testid=confirm-yes]`)
	d.waitJS(`document.querySelector('[data-testid=link-error]').textContent.includes("expired or was used")`, "the refusal of a used code")

	// B's own code display, once signed in as A
	b.showLink()
	b.axe("the transfer code again "+o.name, "#dlg-set")

	// the QR code's link: /#link=CODE, then a confirmation
	next := a.showLink()
	e := o.page(t, srv)
	e.run(chromedp.Navigate(srv.URL + "/#link=" + next))
	e.waitJS(`document.querySelector('#dlg-confirm').open && location.hash === ""`, "the confirmation of the link, off the address")
	e.axe("the confirmation of a link "+o.name, "#dlg-confirm")
	e.tap(`[data-testid=confirm-yes]`)
	e.onScreen("home")
	e.waitJS(`document.querySelector('[data-testid=continue-count]').textContent === "1"`, "A's game under Continue on C")
	if e.me() != a.me() {
		t.Fatalf("device C is %s after the link, want %s", e.me(), a.me())
	}
}

// TestSignedOutSocket: a device signed out (here, by its own request; the
// same for another device's "sign out everywhere") while a game is open
// gets its socket closed with 4401, and the page starts again as a new
// player and says why, rather than reconnect for ever.
func TestSignedOutSocket(t *testing.T) {
	srv := startServer(t)
	p := openSolo(t, srv, phone, "DS1-D1N-AAAAAAB")
	before := p.me()
	p.eval(`fetch('/api/v1/me/logout', {method: 'POST', credentials: 'same-origin'}).then(() => true)`, nil)
	time.Sleep(time.Second) // the page goes to the first screen meanwhile
	p.onScreen("home")
	p.waitJS(`document.querySelector('#toast').textContent.includes('This device was signed out')`, "the notice of the sign-out")
	if after := p.me(); after == before || after == "" {
		t.Fatalf("after the sign-out the page plays as %q (before %q)", after, before)
	}
	p.screenshot("signed-out-phone")
}

// TestRenamedNotice: a player whose stored name the naming rules came to
// refuse, renamed by the check of stored names, is told so on their next
// visit, in a dialog that names both names; "Choose a name" takes them to
// the lobby, which asks for a name again, and the notice is not shown again.
func TestRenamedNotice(t *testing.T) {
	srv := startServer(t)
	p := newPage(t, srv, desktop)
	p.open("/")
	p.onScreen("home")
	p.tap(`[data-testid=home-race]`)
	p.onScreen("lobby")
	p.tap(`[data-testid=name-skip]`) // the lobby asks no more
	p.waitJS(`document.querySelector('[data-testid=name-form]').hidden`, "the name form gone")
	id := p.me()
	ctx := context.Background()
	if err := srv.st.RenamePlayer(ctx, id, "Сomputer"); err != nil { // stored before the rules refused it
		t.Fatal(err)
	}
	if n, err := players.New(players.Config{Store: srv.st}).CheckNames(ctx); err != nil || n != 1 {
		t.Fatalf("CheckNames: %d, %v", n, err)
	}

	p.open("/")
	p.onScreen("home")
	p.waitJS(`document.querySelector('#dlg-renamed').open`, "the notice of the renaming")
	text := p.text(`[data-testid=renamed-text]`)
	if want := "The name “Сomputer” can no longer be used here, so you are now “Player " + id[:4] + "”."; !strings.HasPrefix(text, want) {
		t.Fatalf("the notice says %q, want it to start with %q", text, want)
	}
	p.screenshot("renamed-notice")
	p.axe("the notice of a renaming", "#dlg-renamed")
	p.tap(`[data-testid=renamed-name]`)
	p.onScreen("lobby")
	p.waitJS(`!document.querySelector('[data-testid=name-form]').hidden && document.querySelector('[data-testid=name-input]').value === "Player `+id[:4]+`"`, "the lobby asking for a name")
	// The client tells the server the notice was seen without waiting for
	// the answer: the server has it a moment later.
	var me struct{ Renamed *struct{ From string } }
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		me.Renamed = nil
		p.apiJSON("GET", "/api/v1/me", nil, &me)
		if me.Renamed == nil {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the notice is still there once seen: %+v", me.Renamed)
		}
	}
	p.open("/")
	p.onScreen("home")
	var open bool
	p.eval(`document.querySelector('#dlg-renamed').open`, &open)
	if open {
		t.Fatal("the notice shows again")
	}
}
