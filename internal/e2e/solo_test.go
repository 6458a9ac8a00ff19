package e2e_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"dsol/internal/cards"
	"dsol/internal/solo"
)

// soloCode returns the first draw-1 Normal code (from deal 1 on) whose deal
// satisfies ok, given the face-up column tops.
func soloCode(t *testing.T, prefix string, ok func(tops []cards.Card) bool) string {
	t.Helper()
	for n := uint64(1); n < 5000; n++ {
		c, err := cards.ParseCode(fmt.Sprintf("%s-%s", prefix, dealLetters(n)))
		if err != nil {
			t.Fatal(err)
		}
		d := solo.DealOf(c)
		tops := make([]cards.Card, len(d.Columns))
		for i, col := range d.Columns {
			tops[i], _ = cards.Parse(col[len(col)-1])
		}
		if ok(tops) {
			return c.String()
		}
	}
	t.Fatalf("no %s deal found", prefix)
	return ""
}

func dealLetters(n uint64) string {
	b := []byte("AAAAAAA")
	for i := 6; i >= 0; i-- {
		b[i] = byte('A' + n%26)
		n /= 26
	}
	return string(b)
}

// columnMove finds a column top that builds on another column's top.
func columnMove(tops []cards.Card) (from, to int, ok bool) {
	for i, c := range tops {
		for j, d := range tops {
			if i != j && cards.Builds(c, d) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

func aceTop(tops []cards.Card) (int, bool) {
	for i, c := range tops {
		if c.Rank() == 1 {
			return i, true
		}
	}
	return 0, false
}

// soloView is the part of a solo game view the tests compare.
type soloView struct {
	ID          string     `json:"id"`
	Seq         int        `json:"seq"`
	Score       int        `json:"score"`
	Moves       int        `json:"moves"`
	Undo        int        `json:"undo"`
	Stock       int        `json:"stock"`
	Waste       []string   `json:"waste"`
	Foundations [][]string `json:"foundations"`
	Columns     []struct {
		Down int      `json:"down"`
		Up   []string `json:"up"`
	} `json:"columns"`
}

// shown is what the page draws, in the same terms as the view.
type shown struct {
	Seq       int        `json:"seq"`
	Stock     int        `json:"stock"`
	WasteN    int        `json:"wasteN"`
	WasteTop  string     `json:"wasteTop"`
	FoundN    []int      `json:"foundN"`
	FoundTop  []string   `json:"foundTop"`
	Down      []int      `json:"down"`
	Up        [][]string `json:"up"`
	Score     string     `json:"score"`
	UndoCount string     `json:"undoCount"`
}

const shownJS = `(() => {
  const P = (id) => document.querySelector('#table [data-pile="' + id + '"]');
  const cs = (el) => [...el.querySelectorAll('.card.up')].map((c) => c.dataset.card);
  const r = {seq: +document.body.dataset.seq, stock: +P('s').dataset.count, wasteN: +P('w').dataset.count,
    wasteTop: P('w').querySelector('.card.top')?.dataset.card || '', foundN: [], foundTop: [], down: [], up: [],
    score: document.querySelector('[data-testid=score]').textContent,
    undoCount: document.querySelector('[data-testid=undo-count]').textContent};
  for (let i = 1; i <= 8; i++) { const f = P('f' + i); r.foundN.push(+f.dataset.count); r.foundTop.push(f.querySelector('.card.top')?.dataset.card || ''); }
  for (let i = 1; i <= 9; i++) { const c = P('c' + i); r.down.push(+c.dataset.down); r.up.push(cs(c)); }
  return r;
})()`

// gameID reads the id of the game the page shows.
func (p *page) gameID() string {
	p.t.Helper()
	var id string
	p.eval(`new URLSearchParams(location.search).get('game')`, &id)
	if id == "" {
		p.t.Fatal("the page shows no game id in its URL")
	}
	return id
}

// apiView fetches the game view with the page's own cookie.
func (p *page) apiView() soloView {
	p.t.Helper()
	var v soloView
	p.apiJSON("GET", "/api/v1/games/"+p.gameID(), nil, &v)
	return v
}

// checkShown fails unless the page draws exactly the API's view.
func (p *page) checkShown() soloView {
	p.t.Helper()
	// What the page drew ahead of the server must be stored before the
	// server's view can show it.
	p.waitJS(`document.body.dataset.pending === "0"`, "no action waiting for its answer")
	v := p.apiView()
	p.waitJS(fmt.Sprintf(`+document.body.dataset.seq === %d`, v.Seq), fmt.Sprintf("seq %d", v.Seq))
	var s shown
	p.eval(shownJS, &s)
	want := shown{Seq: v.Seq, Stock: v.Stock, WasteN: len(v.Waste), Score: s.Score, UndoCount: fmt.Sprint(v.Undo)}
	if len(v.Waste) > 0 {
		want.WasteTop = v.Waste[len(v.Waste)-1]
	}
	for _, f := range v.Foundations {
		want.FoundN = append(want.FoundN, len(f))
		top := ""
		if len(f) > 0 {
			top = f[len(f)-1]
		}
		want.FoundTop = append(want.FoundTop, top)
	}
	for _, c := range v.Columns {
		want.Down = append(want.Down, c.Down)
		up := c.Up
		if up == nil {
			up = []string{}
		}
		want.Up = append(want.Up, up)
	}
	for i := range s.Up {
		if s.Up[i] == nil {
			s.Up[i] = []string{}
		}
	}
	if !reflect.DeepEqual(s, want) {
		p.t.Fatalf("the page draws\n%+v\nthe API says\n%+v", s, want)
	}
	return v
}

// openSolo opens a game by code and waits for it to be drawn.
func openSolo(t *testing.T, srv *server, vp viewport, code string) *page {
	t.Helper()
	p := newPage(t, srv, vp)
	p.open("/?code=" + code)
	p.waitJS(`document.body.dataset.mode === "solo" && !!document.body.dataset.seq`, "the solo table")
	if got := p.text("[data-testid=code]"); got != code {
		t.Fatalf("code shown %q, want %q", got, code)
	}
	return p
}

func colSel(i int) string { return fmt.Sprintf(`#table [data-pile="c%d"]`, i+1) }

func TestSoloOpenByCodeMatchesAPI(t *testing.T) {
	srv := startServer(t)
	p := openSolo(t, srv, desktop, "DS1-D1N-AAAAAAB")
	v := p.checkShown()
	if v.Stock != 59 || v.Moves != 0 {
		t.Fatalf("fresh game: %+v", v)
	}
	d := solo.DealOf(must(cards.ParseCode("DS1-D1N-AAAAAAB")))
	for i, col := range d.Columns {
		if got := v.Columns[i].Up; len(got) != 1 || got[0] != col[len(col)-1] {
			t.Fatalf("column %d shows %v, the deal has %s on top", i+1, got, col[len(col)-1])
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestSoloDragToColumn(t *testing.T) {
	var from, to int
	code := soloCode(t, "DS1-D1N", func(tops []cards.Card) bool {
		var ok bool
		from, to, ok = columnMove(tops)
		return ok
	})
	srv := startServer(t)
	p := openSolo(t, srv, desktop, code)
	before := p.checkShown()
	card := before.Columns[from].Up[0]
	tx, ty, _, _ := p.box(colSel(to) + " .card.top")
	p.drag(colSel(from)+" .card.top", tx, ty)
	p.waitJS(fmt.Sprintf(`document.querySelector('%s .card.top')?.dataset.card === %q`, colSel(to), card), "the dragged card on its new column")
	v := p.checkShown()
	if v.Moves != 1 || len(v.Columns[to].Up) != 2 {
		t.Fatalf("after the drag of %s from c%d to c%d: %+v", card, from+1, to+1, v)
	}
	p.waitJS(`!document.querySelector('.drag') && !document.querySelector('.card.lifted')`, "the floating copy gone")
	t.Logf("%s: dragged %s from c%d to c%d", code, card, from+1, to+1)
}

func TestSoloTapToFoundationAndUndo(t *testing.T) {
	var ace int
	code := soloCode(t, "DS1-D1N", func(tops []cards.Card) bool {
		var ok bool
		ace, ok = aceTop(tops)
		return ok
	})
	srv := startServer(t)
	p := openSolo(t, srv, desktop, code)
	start := p.checkShown()
	card := start.Columns[ace].Up[0]
	score := 10 // the ace up, and 5 for the card it uncovers
	if start.Columns[ace].Down > 0 {
		score += 5
	}
	p.tap(colSel(ace) + " .card.top")
	p.waitJS(`[...document.querySelectorAll('#table .found .card.up')].length === 1`, "the ace on a foundation")
	// the ace shows at once, and the tap goes out once no second tap came
	p.waitJS(`+document.body.dataset.seq === 1`, "the tap applied")
	v := p.checkShown()
	slot := strings.Index("SHDC", card[1:]) * 2
	if len(v.Foundations[slot]) != 1 || v.Foundations[slot][0] != card || v.Score != score || v.Undo != 1 {
		t.Fatalf("after the tap on %s: %+v", card, v)
	}
	if got := p.text("[data-testid=score]"); got != fmt.Sprint(score) {
		t.Fatalf("score shows %q, want %d", got, score)
	}
	// undo takes it back
	p.tap(`[data-testid=undo]`)
	p.waitJS(`+document.querySelector('[data-testid=undo-count]').textContent === 0`, "the undo")
	v = p.checkShown()
	if len(v.Foundations[slot]) != 0 || v.Columns[ace].Up[len(v.Columns[ace].Up)-1] != card || v.Score != 0 || v.Moves != 1 {
		t.Fatalf("after undo: %+v", v)
	}
	if p.text("[data-testid=moves]") != "1" {
		t.Fatalf("moves shows %q after undo, want 1", p.text("[data-testid=moves]"))
	}
}

func TestSoloDoubleTapToColumn(t *testing.T) {
	var from int
	code := soloCode(t, "DS1-D1N", func(tops []cards.Card) bool {
		var ok bool
		from, _, ok = columnMove(tops)
		return ok && tops[from].Rank() != 1
	})
	srv := startServer(t)
	p := openSolo(t, srv, desktop, code)
	before := p.checkShown()
	card := before.Columns[from].Up[0]
	p.doubleTap(colSel(from) + " .card.top")
	p.waitJS(fmt.Sprintf(`+document.querySelector('%s').dataset.count === %d`, colSel(from), before.Columns[from].Down), "the card gone from its column")
	v := p.checkShown()
	found := false
	for i, c := range v.Columns {
		if i != from && len(c.Up) == 2 && c.Up[1] == card {
			found = true
		}
	}
	if !found || v.Moves != 1 {
		t.Fatalf("after the double tap on %s: %+v", card, v)
	}
}

func TestSoloDrawAndRecycle(t *testing.T) {
	srv := startServer(t)
	p := openSolo(t, srv, desktop, "DS1-D3N-AAAAAAB")
	v := p.checkShown()
	draws := 0
	for v.Stock > 0 {
		want := v.Stock - min(3, v.Stock)
		p.tap(`#table [data-pile="s"]`)
		draws++
		p.waitJS(fmt.Sprintf(`+document.querySelector('#table [data-pile="s"]').dataset.count === %d`, want), "a draw")
		v = p.apiView()
		if v.Stock != want {
			t.Fatalf("draw %d: stock %d, want %d", draws, v.Stock, want)
		}
	}
	v = p.checkShown()
	if len(v.Waste) != 59 || draws != 20 {
		t.Fatalf("after %d draws: %+v", draws, v)
	}
	// the waste fans its last three cards
	var fan int
	p.eval(`document.querySelectorAll('#table [data-pile="w"] .card.up').length`, &fan)
	if fan < 3 {
		t.Fatalf("the draw-3 waste shows %d cards, want the 3 drawn (and maybe one under)", fan)
	}
	if got := p.text(`#table [data-testid=stock-count]`); got != "↻" {
		t.Fatalf("empty stock shows %q, want the recycle mark", got)
	}
	p.tap(`#table [data-pile="s"]`)
	p.waitJS(`+document.querySelector('#table [data-pile="s"]').dataset.count === 59`, "the recycle")
	v = p.checkShown()
	if len(v.Waste) != 0 || v.Score != 0 {
		t.Fatalf("after recycle: %+v", v)
	}
	// the first card of the next pass is the first card of the first pass
	p.tap(`#table [data-pile="s"]`)
	p.waitJS(`+document.querySelector('#table [data-pile="s"]').dataset.count === 56`, "a draw after the recycle")
	v = p.checkShown()
	d := solo.DealOf(must(cards.ParseCode("DS1-D3N-AAAAAAB")))
	if !reflect.DeepEqual(v.Waste, d.Stock[:3]) {
		t.Fatalf("first draw of the second pass %v, want %v", v.Waste, d.Stock[:3])
	}
	// undo the draw, then the recycle
	p.tap(`[data-testid=undo]`)
	p.waitJS(`+document.querySelector('#table [data-pile="s"]').dataset.count === 59`, "undo of the draw")
	p.tap(`[data-testid=undo]`)
	p.waitJS(`+document.querySelector('#table [data-pile="s"]').dataset.count === 0`, "undo of the recycle")
	v = p.checkShown()
	if len(v.Waste) != 59 {
		t.Fatalf("after undoing the recycle: %+v", v)
	}
}

func TestSoloVegasMoney(t *testing.T) {
	srv := startServer(t)
	p := openSolo(t, srv, desktop, "DS1-D1V-AAAAAAB")
	p.checkShown()
	if got := p.text("[data-testid=score]"); got != "-$104" {
		t.Fatalf("Vegas start shows %q, want -$104", got)
	}
	// Italian through the settings dialog
	p.tap(`[data-testid=settings]`)
	p.waitJS(`document.querySelector('#dlg-set').open`, "the settings dialog")
	p.eval(`(() => { const s = document.querySelector('[data-testid=set-lang]'); s.value = 'it'; s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, nil)
	p.waitJS(`document.querySelector('[data-testid=score]').textContent === "-104 $"`, "the Italian money format")
	p.waitJS(`document.documentElement.lang === "it"`, "the Italian page language")
	// kept after a reload
	p.open("/?game=" + p.gameID())
	p.waitJS(`document.querySelector('[data-testid=score]').textContent === "-104 $"`, "the Italian money format after a reload")
}

func TestSoloBrowserLanguageItalian(t *testing.T) {
	srv := startServer(t)
	p := newPage(t, srv, desktop)
	p.run(chromedpLocale("it-IT"))
	p.open("/?code=DS1-D3V-AAAAAAC")
	p.waitJS(`document.querySelector('[data-testid=score]').textContent === "-104 $"`, "the Italian money format from the browser language")
}

// TestSoloLayouts checks the phone and desktop tables and saves screenshots.
func TestSoloLayouts(t *testing.T) {
	var from, to int
	code := soloCode(t, "DS1-D3N", func(tops []cards.Card) bool {
		var ok bool
		from, to, ok = columnMove(tops)
		return ok
	})
	srv := startServer(t)
	for _, c := range []struct {
		name string
		vp   viewport
	}{{"solo-phone", phone}, {"solo-desktop", desktop}, {"solo-phone-landscape", viewport{844, 390, true}}} {
		t.Run(c.name, func(t *testing.T) {
			p := openSolo(t, srv, c.vp, code)
			p.checkShown()
			// some play so that the screenshot shows a fanned waste and a run
			p.tap(`#table [data-pile="s"]`)
			p.waitJS(`+document.querySelector('#table [data-pile="s"]').dataset.count === 56`, "a draw")
			tx, ty, _, _ := p.box(colSel(to) + " .card.top")
			p.drag(colSel(from)+" .card.top", tx, ty)
			p.waitJS(fmt.Sprintf(`document.querySelectorAll('%s .card.up').length === 2`, colSel(to)), "the move")
			p.checkShown()
			p.checkInside(c.vp)
			p.screenshot(c.name)
		})
	}
}

// checkInside fails unless every pile of the table is inside the viewport
// and the HUD does not overlap the table.
func (p *page) checkInside(vp viewport) {
	p.t.Helper()
	var out []string
	p.eval(fmt.Sprintf(`(() => {
  const bad = [];
  const W = %d, H = %d;
  for (const el of document.querySelectorAll('#table [data-pile]')) {
    const b = el.getBoundingClientRect();
    if (b.left < 0 || b.top < 0 || b.right > W + 0.5 || b.bottom > H + 0.5 || b.width < 1) bad.push(el.dataset.pile + ' ' + JSON.stringify([b.left, b.top, b.right, b.bottom]));
  }
  for (const el of document.querySelectorAll('#table .card')) {
    const b = el.getBoundingClientRect();
    if (b.right > W + 0.5 || b.bottom > H + 0.5) bad.push('card ' + (el.dataset.card || 'back') + ' of ' + el.closest('[data-pile]').dataset.pile + ' ' + JSON.stringify([b.right, b.bottom]));
  }
  const hud = document.querySelector('.hud').getBoundingClientRect();
  const foot = document.querySelector('.foot').getBoundingClientRect();
  for (const el of document.querySelectorAll('#table [data-pile]')) {
    const b = el.getBoundingClientRect();
    if (b.top < hud.bottom - 0.5) bad.push(el.dataset.pile + ' under the HUD');
  }
  if (foot.bottom > H + 0.5) bad.push('footer cut off');
  return bad;
})()`, vp.w, vp.h), &out)
	if len(out) > 0 {
		p.t.Fatalf("outside the %dx%d viewport: %v", vp.w, vp.h, out)
	}
	var cw float64
	p.eval(`document.querySelector('#table .card.up').getBoundingClientRect().width`, &cw)
	var m struct {
		Rank, Table, Hud, Foot float64
		Buttons                []float64
	}
	p.eval(`({rank: parseFloat(getComputedStyle(document.querySelector('#table .card.up b')).fontSize),
  table: document.querySelector("#table").clientHeight, hud: document.querySelector(".hud").offsetHeight, foot: document.querySelector(".foot").offsetHeight,
  buttons: [...document.querySelectorAll('.hud button, .foot button')].map((b) => Math.min(b.offsetWidth, b.offsetHeight))})`, &m)
	p.t.Logf("%dx%d: card width %.0fpx, corner index %.1fpx, table %.0fpx high (HUD %.0f, footer %.0f), buttons %v px", vp.w, vp.h, cw, m.Rank, m.Table, m.Hud, m.Foot, m.Buttons)
}

// chromedpLocale makes the tab's navigator.language(s) lang.
func chromedpLocale(lang string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		ua, err := cdp.Call(ctx, t, cdpbrowser.GetVersion, cdp.Empty{})
		if err != nil {
			return err
		}
		_, err = cdp.Call(ctx, t, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{
			UserAgent: ua.UserAgent, AcceptLanguage: lang})
		return err
	})
}

// TestCodeBox: a mistyped code in the new-game box says which part is
// wrong, in the page's language; a race code opens a race on that deal.
func TestCodeBox(t *testing.T) {
	srv := startServer(t)
	p := openSolo(t, srv, phone, "DS1-D1N-AAAAAAB")
	typeCode := func(code string) {
		p.tap(`[data-testid=new]`)
		p.waitJS(`document.querySelector('[data-testid=new-dialog]').open`, "the new-game dialog")
		// the value typed and Open pressed in the page, so that a layout
		// still settling cannot move the button from under a tap
		p.eval(fmt.Sprintf(`(() => { document.querySelector('[data-testid=code-input]').value = %q; document.querySelector('[data-testid=code-open]').click(); return true; })()`, code), nil)
	}
	for code, want := range map[string]string{
		"DS1-D2N-AAAAAAB": "D1 or D3",
		"DS1-D1X-AAAAAAB": "N (Normal) or V (Vegas)",
		"DS1-D1N-AAAA":    "7 letters",
		"XX1-D1N-AAAAAAB": "starts with DS1 or DS2",
	} {
		typeCode(code)
		p.waitJS(`!document.querySelector('[data-testid=new-error]').hidden`, "the error of "+code)
		if got := p.text(`[data-testid=new-error]`); !strings.Contains(got, want) {
			t.Errorf("%s: the error reads %q, want it to say %q", code, got, want)
		}
		p.eval(`(document.querySelector('[data-testid=new-dialog]').close(), true)`, nil)
	}
	typeCode("DS1-D2N-AAAAAAB")
	p.waitJS(`!document.querySelector('[data-testid=new-error]').hidden`, "the error")
	p.screenshot("code-error")
	p.eval(`(document.querySelector('[data-testid=new-dialog]').close(), true)`, nil)
	typeCode("dr1-d1ui-helloxy")
	p.waitJS(`document.body.dataset.status === "waiting" && document.body.dataset.seat === "1"`, "the waiting room of the race")
	var v struct {
		ChosenDeal bool `json:"chosenDeal"`
	}
	var search string
	p.eval(`location.search`, &search)
	id := strings.TrimPrefix(search, "?race=")
	p.apiJSON("GET", "/api/v1/games/"+id, nil, &v)
	if !v.ChosenDeal {
		t.Fatalf("the race of a typed code is not a chosen deal: %+v", v)
	}
}
