package e2e_test

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"dsol/internal/cards"
	"dsol/internal/race"
)

// mirroredCode returns a mirrored race code (draw 1, unlimited) whose seat-1
// deal has an ace and the 2 of the same suit on column tops: their columns.
func mirroredCode(t *testing.T) (code string, ace, two int) {
	t.Helper()
	for n := uint64(1); n < 20000; n++ {
		c := must(cards.ParseCode("DR1-D1UM-" + dealLetters(n)))
		d := race.DealOf(c)
		tops := map[string]int{}
		for i, col := range d.Seats[0].Columns {
			tops[col[len(col)-1]] = i
		}
		for top, i := range tops {
			if top[0] == 'A' {
				if j, ok := tops["2"+top[1:]]; ok {
					return c.String(), i, j
				}
			}
		}
	}
	t.Fatal("no mirrored deal with an ace and its 2 on top")
	return "", 0, 0
}

type raceView struct {
	ID          string `json:"id"`
	Seq         int    `json:"seq"`
	Status      string `json:"status"`
	Invite      string `json:"invite"`
	Turn        *int   `json:"turn"`
	Foundations [][]struct {
		Card string `json:"card"`
		Seat int    `json:"seat"`
	} `json:"foundations"`
	Seats []struct {
		Columns []struct {
			Down int      `json:"down"`
			Up   []string `json:"up"`
		} `json:"columns"`
		Count int `json:"count"`
	} `json:"seats"`
}

// found returns the foundation tops as "card/seat count" strings.
func (v raceView) found() []string {
	out := make([]string, 8)
	for i, f := range v.Foundations {
		if n := len(f); n > 0 {
			out[i] = fmt.Sprintf("%s/%d %d", f[n-1].Card, f[n-1].Seat, n)
		}
	}
	return out
}

const foundJS = `(() => [...Array(8)].map((_, i) => {
  const f = document.querySelector('#race [data-pile="f' + (i + 1) + '"]');
  const n = +f.dataset.count, top = f.querySelector('.card.up:last-of-type');
  return n ? top.dataset.card + '/' + (top.dataset.seat || '') + ' ' + n : '';
}))()`

// shownFound returns what the page draws on the shared foundations.
func (p *page) shownFound() []string {
	p.t.Helper()
	var s []string
	p.eval(foundJS, &s)
	return s
}

// sameFound waits until the page draws the foundations of want.
func (p *page) sameFound(who string, want []string) {
	p.t.Helper()
	j := fmt.Sprintf("%q", want)
	j = strings.ReplaceAll(j, "\" \"", "\",\"")
	p.waitJS(fmt.Sprintf(`JSON.stringify(%s) === JSON.stringify([%s])`, foundJS, j[1:len(j)-1]), who+" showing the foundations "+j)
}

func (p *page) raceView(id string) raceView {
	p.t.Helper()
	var v raceView
	p.apiJSON("GET", "/api/v1/games/"+id, nil, &v)
	return v
}

// startRace has a create a race with body, b join it by the invite link and
// c (if any) watch it.
func startRace(t *testing.T, a, b, c *page, body map[string]any) raceView {
	t.Helper()
	a.open("/?mode=race")
	a.waitJS(`document.body.dataset.status === "lobby"`, "the lobby")
	var v raceView
	a.apiJSON("POST", "/api/v1/races", body, &v)
	// the invite is shown once, to the creator's page that created the race
	// (the lobby form keeps it in sessionStorage); the test created it by REST
	a.eval(fmt.Sprintf(`(sessionStorage.setItem("dsol.invite.%s", %q), true)`, v.ID, v.Invite), nil)
	a.open("/?race=" + v.ID)
	a.waitJS(`document.body.dataset.status === "waiting" && document.body.dataset.seat === "1"`, "the waiting room")
	var link string
	a.eval(`document.querySelector('[data-testid=invite-link]').value`, &link)
	if !strings.Contains(link, "invite="+v.Invite) {
		t.Fatalf("invite link %q does not carry the invite %q", link, v.Invite)
	}
	b.open(strings.TrimPrefix(link, a.srv.URL))
	b.acceptOffer()
	b.waitJS(`document.body.dataset.status === "playing" && document.body.dataset.seat === "2"`, "the second player seated")
	a.waitJS(`document.body.dataset.status === "playing"`, "the first player seeing the race start")
	if c != nil {
		c.open("/?race=" + v.ID + "&watch=1")
		c.waitJS(`document.body.dataset.status === "playing" && document.body.dataset.seat === ""`, "the spectator")
	}
	return v
}

const myCard = `#race [data-board="me"] [data-pile="c%d"] .card.top`

// watchFound makes the page note (Date.now()) when each foundation slot
// first gets a card, and whether "too late" ever shows.
func (p *page) watchFound() {
	p.t.Helper()
	p.eval(`(() => {
  window.__fAt = {}; window.__late = 0;
  const f = document.querySelector('#race [data-pile="f"]');
  const seen = () => { for (const s of f.querySelectorAll('[data-pile^="f"]')) if (+s.dataset.count > 0 && !__fAt[s.dataset.pile]) __fAt[s.dataset.pile] = Date.now(); };
  new MutationObserver(seen).observe(f, {subtree: true, childList: true, attributes: true});
  const late = document.querySelector('[data-testid=too-late]');
  new MutationObserver(() => { if (!late.hidden) __late++; }).observe(late, {attributes: true, attributeFilter: ['hidden']});
  document.addEventListener('pointerup', () => { window.__upAt = Date.now(); }, true);
  return true;
})()`, nil)
}

func TestRaceTwoPlayersAndSpectator(t *testing.T) {
	code, ace, two := mirroredCode(t)
	srv := startServer(t)
	a, b, c := newPage(t, srv, desktop), newPage(t, srv, phone), newPage(t, srv, desktop)
	for _, p := range []*page{a, b} {
		p.onNewDocument(wsLog)
	}
	defer func() {
		if t.Failed() {
			for who, p := range map[string]*page{"A": a, "B": b} {
				var log []string
				p.eval(`window.__ws || []`, &log)
				t.Logf("%s's socket:\n%s", who, strings.Join(log, "\n"))
			}
		}
	}()
	v := startRace(t, a, b, c, map[string]any{"code": code, "turns": "simultaneous", "public": false})
	// The opponent's arrival is announced in the live region, not written
	// into the chosen-deal mark (the first element with the .sr class).
	a.waitJS(`/joined|is back/.test(document.querySelector('p.sr[aria-live]')?.textContent)`, "the opponent announced in the live region")
	var mark string
	a.eval(`document.querySelector('[data-testid=chosen-mark] .sr').textContent`, &mark)
	if strings.Contains(mark, "joined") || strings.Contains(mark, "back") {
		t.Fatalf("the chosen-deal mark reads %q", mark)
	}
	aceCard := race.DealOf(must(cards.ParseCode(code))).Seats[0].Columns[ace]
	suit := aceCard[len(aceCard)-1][1:]
	for _, p := range []*page{a, b, c} {
		p.watchFound()
	}

	// A plays the ace: it shows on B's and C's screens
	a.tap(fmt.Sprintf(myCard, ace+1))
	slot := strings.Index("SHDC", suit)*2 + 1
	want := make([]string, 8)
	want[slot-1] = "A" + suit + "/1 1"
	for who, p := range map[string]*page{"A": a, "B": b, "C": c} {
		p.sameFound(who, want)
	}
	var up, seenB, seenC int64
	a.eval(`window.__upAt`, &up)
	b.eval(fmt.Sprintf(`window.__fAt["f%d"]`, slot), &seenB)
	c.eval(fmt.Sprintf(`window.__fAt["f%d"]`, slot), &seenC)
	t.Logf("foundation play on loopback: release of the tap on A → card on B's screen %d ms, on the spectator's %d ms", seenB-up, seenC-up)
	if got := a.raceView(v.ID).found(); !reflect.DeepEqual(got, want) {
		t.Fatalf("API foundations %q, want %q", got, want)
	}

	// both tap their 2 at once: one gets the spot, the other "too late"
	var wg sync.WaitGroup
	xa, ya, _, _ := a.box(fmt.Sprintf(myCard, two+1))
	xb, yb, _, _ := b.box(fmt.Sprintf(myCard, two+1))
	for _, q := range []struct {
		p    *page
		x, y float64
	}{{a, xa, ya}, {b, xb, yb}} {
		var hit string
		q.p.eval(fmt.Sprintf(`(() => { const e = document.elementFromPoint(%f, %f); const m = document.querySelector('%s'); return 'pe=' + m.style.pointerEvents + ' anims=' + m.getAnimations().map(a => a.playState + ':' + a.currentTime).join(',') + ' ' + e.className + ' ' + (e.dataset.card || '') + ' in ' + e.closest('[data-pile]')?.dataset.pile + ' of ' + e.closest('[data-board]')?.dataset.board + ' / ' + document.querySelector('%s').outerHTML.slice(0, 120); })()`, q.x, q.y, fmt.Sprintf(myCard, two+1), fmt.Sprintf(myCard, two+1)), &hit)
		t.Logf("hit at %.0f,%.0f: %s", q.x, q.y, hit)
	}
	start := make(chan struct{})
	for _, q := range []struct {
		p    *page
		x, y float64
	}{{a, xa, ya}, {b, xb, yb}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if err := doTap(q.p, q.x, q.y); err != nil {
				t.Error(err)
			}
		}()
	}
	close(start)
	wg.Wait()
	var after raceView
	deadline := time.Now().Add(10 * time.Second)
	for {
		after = a.raceView(v.ID)
		if len(after.Foundations[slot-1]) == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	want = after.found()
	if len(after.Foundations[slot-1]) != 2 {
		t.Fatalf("after both 2s: foundations %q", want)
	}
	winner := after.Foundations[slot-1][1].Seat
	for who, p := range map[string]*page{"A": a, "B": b, "C": c} {
		p.sameFound(who, want)
	}
	loser := map[int]*page{1: b, 2: a}[winner]
	loser.waitJS(`window.__late > 0`, "too late shown to the loser")
	var winLate int
	map[int]*page{1: a, 2: b}[winner].eval(`window.__late`, &winLate)
	if winLate != 0 {
		t.Fatalf("the winner (seat %d) was told too late", winner)
	}
	// the loser's 2 is back on its column, on the page and in the API
	loser.waitJS(fmt.Sprintf(`document.querySelector('%s')?.dataset.card === "2%s"`, fmt.Sprintf(myCard, two+1), suit), "the loser's 2 back on its column")
	if up := after.Seats[2-winner].Columns[two].Up; up[len(up)-1] != "2"+suit {
		t.Fatalf("loser's column %d: %v", two+1, up)
	}
	t.Logf("%s: both played 2%s at once; seat %d got the spot, seat %d saw too late", code, suit, winner, 3-winner)
	if c.text(`[data-testid=count-me]`) == "" {
		t.Fatal("the spectator sees no counts")
	}
	a.screenshot("race-desktop")
	b.screenshot("race-phone")
	b.checkRaceInside(phone)
	a.checkRaceInside(desktop)
}

// doTap taps at a point of the page (press and release).
func doTap(p *page, x, y float64) error {
	return chromedpDo(p, mouse(chromedp.MouseMoved, x, y, 0), mouse(chromedp.MousePressed, x, y, 1), mouse(chromedp.MouseReleased, x, y, 0))
}

// checkRaceInside fails unless both boards and the foundations are inside
// the viewport.
func (p *page) checkRaceInside(vp viewport) {
	p.t.Helper()
	var bad []string
	p.eval(fmt.Sprintf(`(() => {
  const bad = [];
  for (const el of document.querySelectorAll('#race [data-pile]')) {
    const b = el.getBoundingClientRect();
    if (b.left < -0.5 || b.top < -0.5 || b.right > %d.5 || b.bottom > %d.5 || b.width < 1) bad.push((el.closest('[data-board]')?.dataset.board || '') + ' ' + el.dataset.pile + ' ' + JSON.stringify([b.left, b.top, b.right, b.bottom]));
  }
  return bad;
})()`, vp.w, vp.h), &bad)
	if len(bad) > 0 {
		p.t.Errorf("race piles outside the %dx%d viewport: %v", vp.w, vp.h, bad)
	}
}

func TestRaceAlternatingRefusesOffTurnDrag(t *testing.T) {
	code, ace, _ := mirroredCode(t)
	srv := startServer(t)
	a, b := newPage(t, srv, desktop), newPage(t, srv, desktop)
	v := startRace(t, a, b, nil, map[string]any{"code": code, "turns": "alternating", "first": "creator", "public": false})
	b.waitJS(`document.querySelector('[data-testid=turn]').dataset.turn === "1"`, "seat 1 to play")
	seq := b.raceView(v.ID).Seq
	sel := fmt.Sprintf(myCard, ace+1)
	fx, fy, _, _ := b.box(`#race [data-pile="f"]`)
	b.drag(sel, fx, fy)
	b.waitJS(`document.querySelector('#toast').classList.contains('on')`, "the not-your-turn notice")
	b.waitJS(`!document.querySelector('.drag') && !document.querySelector('#race .card.lifted')`, "the card snapped back")
	b.waitJS(fmt.Sprintf(`!!document.querySelector('%s') && document.querySelector('%s').dataset.card.startsWith("A")`, sel, sel), "the ace still on its column")
	var toast string
	b.eval(`document.querySelector('#toast').textContent`, &toast)
	after := b.raceView(v.ID)
	if after.Seq != seq || strings.Join(after.found(), "") != "" {
		t.Fatalf("the off-turn drag changed the race: seq %d → %d, foundations %q", seq, after.Seq, after.found())
	}
	if f := b.shownFound(); strings.Join(f, "") != "" {
		t.Fatalf("B's page shows foundations %q", f)
	}
	t.Logf("off-turn drag refused with %q", toast)
	// on its turn, A's same drag goes up
	fx, fy, _, _ = a.box(`#race [data-pile="f"]`)
	a.drag(sel, fx, fy)
	b.waitJS(`[...document.querySelectorAll('#race [data-pile="f"] .card.up')].length === 1`, "A's ace on B's screen")
}

func TestRaceAgainstBot(t *testing.T) {
	srv := startServer(t)
	a := newPage(t, srv, desktop)
	a.open("/?mode=race")
	a.waitJS(`document.body.dataset.status === "lobby"`, "the lobby")
	var v raceView
	a.apiJSON("POST", "/api/v1/races", map[string]any{"draw": 1, "redeal": "unlimited", "decks": "independent", "turns": "simultaneous", "bot": "fast"}, &v)
	a.open("/?race=" + v.ID)
	a.waitJS(`document.body.dataset.status === "playing" && document.body.dataset.seat === "1"`, "the race against the bot")
	// the bot plays on its own: its moves reach the page
	a.waitJS(`+document.body.dataset.seq >= 3`, "three moves of the bot")
	a.tap(`[data-testid=resign]`)
	a.waitJS(`document.querySelector('#dlg-resign').open`, "the resign question")
	a.tap(`[data-testid=resign-yes]`)
	a.waitJS(`document.body.dataset.status === "over"`, "the end of the race")
	a.waitJS(`document.querySelector('[data-testid=result]').open`, "the result screen")
	t.Logf("result: %q — %q — %q", a.text(`[data-testid=result-title]`), a.text(`[data-testid=result-counts]`), a.text(`[data-testid=result-reason]`))
	a.screenshot("race-bot-result")
}

// TestRaceAgainstStrongBot: the lobby offers the strong computer, worded in
// the page's language; picked, it starts a race against it whose view says
// so, and the bot plays on its own.
func TestRaceAgainstStrongBot(t *testing.T) {
	srv := startServer(t)
	a := newPage(t, srv, desktop)
	a.open("/?mode=race")
	a.waitJS(`document.body.dataset.status === "lobby"`, "the lobby")
	opt := `[data-testid=race-bot-speed] option[value=strong]`
	if got := a.text(opt); got != "Strong, normal speed" {
		t.Fatalf("the strong option reads %q", got)
	}
	a.eval(`(document.querySelector('[data-testid=race-bot-speed]').value = 'strong', document.querySelector('[data-testid=race-bot]').scrollIntoView(), true)`, nil)
	a.screenshot("lobby-strong-bot")
	a.tap(`[data-testid=race-bot]`)
	a.waitJS(`document.body.dataset.status === "playing" && document.body.dataset.seat === "1"`, "the race against the strong computer")
	rid := ""
	a.eval(`new URLSearchParams(location.search).get('race')`, &rid)
	var v struct {
		Bot string `json:"bot"`
	}
	a.apiJSON("GET", "/api/v1/games/"+rid, nil, &v)
	if v.Bot != "strong" {
		t.Fatalf("the race's bot is %q", v.Bot)
	}
	a.waitJS(`+document.body.dataset.seq >= 2`, "two moves of the strong bot")
}

// wsLog records the frames of the page's sockets in window.__ws.
const wsLog = `window.__ws = [];
(() => {
  const S = WebSocket.prototype.send;
  const t0 = Date.now();
  WebSocket.prototype.send = function (d) {
    __ws.push('> ' + (Date.now() - t0) + ' ' + d);
    if (!this.__l) { this.__l = 1; this.addEventListener('message', (e) => __ws.push('< ' + (Date.now() - t0) + ' ' + String(e.data).slice(0, 160))); }
    return S.call(this, d);
  };
  for (const k of ['pointerdown', 'pointerup', 'pointercancel']) document.addEventListener(k, (e) => __ws.push(k + ' ' + (Date.now() - t0) + ' ' + e.pointerType + ' ' + e.target.className + ' ' + (e.target.dataset?.card || '') + ' ' + Math.round(e.clientX) + ',' + Math.round(e.clientY)), true);
})();`

// TestRaceRematchOffer: a rematch is an offer. A asks: A waits for B, with
// no clock; B's result screen says A wants a rematch, with Accept and
// Decline; B accepts and the next race starts on both screens. Then B asks
// for another and A declines: B's waiting room says so. A is each combo
// of eachCombo, B the other kind of screen in A's theme: axe-core sees the
// waiting room and the offer in all four combos.
func TestRaceRematchOffer(t *testing.T) {
	srv := startServer(t)
	eachCombo(t, func(t *testing.T, c combo) { rematchOffer(t, srv, c) })
}

// rematchOffer is TestRaceRematchOffer in one combo.
func rematchOffer(t *testing.T, srv *server, c combo) {
	o := combo{"phone-" + c.th, c.th, phone}
	if c.vp == phone {
		o = combo{"desktop-" + c.th, c.th, desktop}
	}
	a, b := c.page(t, srv), o.page(t, srv)
	v := startRace(t, a, b, nil, map[string]any{"public": false})
	resign := func(p *page) {
		p.tap(`[data-testid=resign]`)
		p.waitJS(`document.querySelector('#dlg-resign').open`, "the resign question")
		p.tap(`[data-testid=resign-yes]`)
	}
	resign(b)
	for _, p := range []*page{a, b} {
		p.waitJS(`document.querySelector('[data-testid=result]').open`, "the result")
	}
	a.tap(`[data-testid=rematch]`)
	a.waitJS(`document.body.dataset.status === "waiting"`, "A waiting for the answer")
	if got := a.text(`[data-testid=waiting] h2`); !strings.Contains(got, "to accept the rematch") {
		t.Errorf("A's waiting room reads %q", got)
	}
	b.waitJS(`!document.querySelector('[data-testid=rematch-offer]').hidden && !document.querySelector('[data-testid=rematch-decline]').hidden`, "the offer on B's result")
	if got := b.text(`[data-testid=rematch-offer]`); !strings.Contains(got, "wants a rematch") {
		t.Errorf("B's offer reads %q", got)
	}
	if got := b.text(`[data-testid=rematch]`); got != "Accept" {
		t.Errorf("B's button reads %q", got)
	}
	// both see how long the offer stands
	b.waitJS(`/lapses in [01]:[0-5][0-9]/.test(document.querySelector('[data-testid=rematch-left]').textContent)`, "the offer's time on B's result")
	a.waitJS(`/lapses in [01]:[0-5][0-9]/.test(document.querySelector('[data-testid=offer-left]').textContent) && !document.querySelector('[data-testid=offer-left]').hidden`, "the offer's time in A's waiting room")
	b.shot("rematch-offer", o.name)
	a.shot("rematch-waiting", c.name)
	a.axe("rematch waiting room "+c.name, "[data-testid=waiting]")
	b.axe("rematch offer "+o.name, "#dlg-result")
	b.tap(`[data-testid=rematch]`)
	for who, p := range map[string]*page{"A": a, "B": b} {
		p.waitJS(`document.body.dataset.status === "playing"`, who+" in the next race")
	}
	var next raceView
	b.eval(`(new URLSearchParams(location.search)).get('race')`, &next.ID)
	if next.ID == "" || next.ID == v.ID {
		t.Fatalf("B is in race %q", next.ID)
	}

	// B offers the next one and A declines it.
	resign(a)
	for _, p := range []*page{a, b} {
		p.waitJS(`document.querySelector('[data-testid=result]').open`, "the second result")
	}
	b.tap(`[data-testid=rematch]`)
	b.waitJS(`document.body.dataset.status === "waiting"`, "B waiting for the answer")
	a.waitJS(`!document.querySelector('[data-testid=rematch-decline]').hidden`, "the decline button on A's result")
	a.tap(`[data-testid=rematch-decline]`)
	b.waitJS(`document.body.dataset.status === "over"`, "B's offer ended")
	if got := b.text(`[data-testid=waiting] h2`); got != "Rematch declined" {
		t.Errorf("B's waiting room reads %q", got)
	}
	b.axe("a rematch declined "+o.name, "[data-testid=waiting]")
	a.waitJS(`document.querySelector('[data-testid=rematch-offer]').textContent.includes('You declined')`, "A's result saying so")
}
