package e2e_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// longViewports are the screens the long columns are checked on: phones on
// their side, a phone held upright, a small phone and a desktop.
var longViewports = []struct {
	name string
	vp   viewport
}{
	{"844x390", viewport{844, 390, true}},
	{"740x360", viewport{740, 360, true}},
	{"390x844", phone},
	{"320x568", viewport{320, 568, true}},
	{"1440x900", desktop},
	{"1280x600", viewport{1280, 600, false}}, // a laptop's window: a scroll bar of its own
}

// longColumns hands the client, as a socket event, a view of its game with
// the longest columns a game can reach: eight cards face down under a run
// of thirteen, seven under twelve, six under eleven, and a run of thirteen
// with nothing under it. stuck says whether the engine finds no useful move.
func (p *page) longColumns(stuck bool) {
	p.t.Helper()
	p.pushView(longRuns + fmt.Sprintf("v.stuck = %t;", stuck))
	p.waitJS(`document.querySelectorAll('#table [data-pile=c9] .card.up').length === 13`, "the long columns")
}

// longRuns is the edit of pushView that deals the longest columns: runs of
// thirteen, twelve and eleven over eight, seven and six cards face down, and
// one of thirteen on the first column.
const longRuns = `v.columns[8] = {down: 8, up: run(13, false)};
  v.columns[7] = {down: 7, up: run(12, true)};
  v.columns[6] = {down: 6, up: run(11, false)};
  v.columns[0] = {down: 0, up: run(13, true)};`

// pushView hands the client its game's view as the server has it, changed by
// edit (JavaScript on v, where run(n, red) is a run of n cards down from
// the king, red and black in turn, starting red when red), as a socket event
// of the next seq. The page must have recorded its sockets (sockets).
func (p *page) pushView(edit string) {
	p.t.Helper()
	p.eval(`(async () => {
  const id = new URLSearchParams(location.search).get('game');
  const v = await (await fetch('/api/v1/games/' + id)).json();
  const run = (n, red) => [...'KQJT98765432A'].slice(0, n).map((r, i) => r + ((i % 2 === 0) === red ? 'HD' : 'SC')[(i >> 1) % 2]);
  `+edit+`
  const ws = __sockets.filter((s) => s.readyState === 1).pop();
  ws.onmessage({data: JSON.stringify({type: 'event', seq: +document.body.dataset.seq + 1, game: v})});
  return true;
})()`, nil)
}

// TestLongColumns: with the longest columns a game reaches, every face-up
// card under another shows its whole corner index, on phones either way up
// and on a desktop; where the columns are taller than the table, the
// columns scroll and every card can be scrolled to, under a HUD and a
// stock that stay in place.
func TestLongColumns(t *testing.T) {
	srv := startServer(t)
	for _, c := range longViewports {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := newPage(t, srv, c.vp)
			p.onNewDocument(theme("light"))
			p.onNewDocument(sockets)
			p.open("/?code=DS1-D3N-AAAAAAB")
			p.onScreen("solo")
			p.longColumns(false)
			p.stepsShowIndex()
			p.reachable()
			p.shot("long", c.name)
			// where the columns scroll, a swipe up on the felt under a short
			// column scrolls them (the table takes no other swipe)
			var felt struct {
				X, Y   float64
				Scroll bool
			}
			p.eval(`(() => { const s = document.querySelector('#table .cols'), r = document.querySelector('#table [data-pile=c2] .card.top').getBoundingClientRect(), v = s.getBoundingClientRect();
  return {x: r.left + r.width / 2, y: (r.bottom + v.bottom) / 2, scroll: s.classList.contains('scroll')}; })()`, &felt)
			if felt.Scroll {
				p.swipe(felt.X, felt.Y, 120)
				var top float64
				p.eval(`document.querySelector('#table .cols').scrollTop`, &top)
				if top < 10 {
					t.Errorf("a swipe up on the felt scrolled the columns by %.0fpx", top)
				}
				// a face-up card is dragged, not scrolled: it goes back to its
				// place, and no move is made
				var card struct{ X, Y float64 }
				p.eval(`(() => { const r = document.querySelector('#table [data-pile=c5] .card.top').getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + 10}; })()`, &card)
				seq := p.text(`[data-testid=moves]`)
				p.swipe(card.X, card.Y, -60) // down: the way the columns can scroll back
				p.waitJS(`!document.querySelector('.drag .card')`, "the dragged card back in its place")
				var after float64
				p.eval(`document.querySelector('#table .cols').scrollTop`, &after)
				if after != top || p.text(`[data-testid=moves]`) != seq {
					t.Errorf("a swipe on a face-up card scrolled the columns from %.0f to %.0fpx, or made a move", top, after)
				}
			}
			// scrolled to the foot of the columns: the last cards in sight,
			// the HUD and the stock where they were
			var scrolled bool
			p.eval(`(() => { const s = document.querySelector('#table .cols'); s.scrollTop = s.scrollHeight; return s.scrollTop > 0; })()`, &scrolled)
			p.visible(`.hud [data-testid=score]`, `#table [data-pile=s]`, `#table [data-pile=c9] .card.top`, `#table [data-pile=c1] .card.top`)
			if scrolled {
				p.shot("long", c.name+"-scrolled")
			}
			p.t.Logf("%s: the columns scroll: %v", c.name, scrolled)
		})
	}
}

// stepsShowIndex fails unless, in every column, each face-up card under
// another shows a strip (the next card's top less its own) at least as high
// as its corner index, of at least 16px on a phone.
func (p *page) stepsShowIndex() {
	p.t.Helper()
	var bad []string
	p.eval(`(() => {
  const bad = [];
  for (const col of document.querySelectorAll('#table .cols [data-pile]')) {
    const up = [...col.querySelectorAll('.card.up')];
    up.forEach((c, i) => {
      const idx = c.querySelector('b').getBoundingClientRect(), size = parseFloat(getComputedStyle(c.querySelector('b')).fontSize);
      if (size < 16) bad.push(col.dataset.pile + ' ' + c.dataset.card + ': index ' + size + 'px');
      if (i + 1 < up.length) {
        const strip = up[i + 1].getBoundingClientRect().top - c.getBoundingClientRect().top;
        if (strip < idx.height) bad.push(col.dataset.pile + ' ' + c.dataset.card + ': strip ' + strip.toFixed(1) + ' < index ' + idx.height.toFixed(1));
      }
    });
  }
  return bad;
})()`, &bad)
	if len(bad) > 0 {
		p.t.Errorf("%s: %s", p.t.Name(), strings.Join(bad, "; "))
	}
}

// reachable fails unless every card of the table lies inside the page's
// width and inside the scrollable area of the element that scrolls it (the
// columns, or the page), and the HUD and the piles outside the columns
// are inside the viewport.
func (p *page) reachable() {
	p.t.Helper()
	var bad []string
	p.eval(`(() => {
  const bad = [];
  const scroller = (e) => { for (let a = e.parentElement; a; a = a.parentElement) { const o = getComputedStyle(a).overflowY; if (o === 'auto' || o === 'scroll') return a; } return document.scrollingElement; };
  for (const c of document.querySelectorAll('#table [data-pile] .card')) {
    const r = c.getBoundingClientRect(), s = scroller(c), sr = s === document.scrollingElement ? {top: 0, left: 0, bottom: innerHeight} : s.getBoundingClientRect();
    const top = r.top - sr.top + s.scrollTop, bottom = r.bottom - sr.top + s.scrollTop;
    const name = c.closest('[data-pile]').dataset.pile + ' ' + (c.dataset.card || 'back');
    if (r.left < -0.5 || r.right > innerWidth + 0.5) bad.push(name + ' outside the width');
    if (s !== document.scrollingElement && (r.left < sr.left - 0.5 || r.right > sr.left + s.clientWidth + 0.5)) bad.push(name + ' cut off at the side of its scroller');
    if (top < -0.5 || bottom > s.scrollHeight + 0.5) bad.push(name + ' outside the scrollable area');
    if (s !== document.scrollingElement && (sr.top < -0.5 || sr.bottom > innerHeight + 0.5)) bad.push(name + ': its scroller is outside the viewport');
  }
  for (const e of document.querySelectorAll('.hud, #table > .sw [data-pile], #table > .found [data-pile]')) {
    const r = e.getBoundingClientRect();
    if (r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.left < -0.5 || r.right > innerWidth + 0.5) bad.push((e.dataset.pile || e.className) + ' outside the viewport');
  }
  return bad;
})()`, &bad)
	if len(bad) > 0 {
		p.t.Errorf("%s: %s", p.t.Name(), strings.Join(bad, "; "))
	}
}

// TestStuckNoticeCoversNoCard: the notice that no useful move is left
// covers no card of the table, with the longest columns, on phones either
// way up and on a desktop, in the light and the dark theme; the HUD and the
// footer stay in sight, and the notice passes the accessibility check.
func TestStuckNoticeCoversNoCard(t *testing.T) {
	srv := startServer(t)
	for _, c := range longViewports {
		for _, th := range []string{"light", "dark"} {
			t.Run(c.name+"-"+th, func(t *testing.T) {
				t.Parallel()
				p := newPage(t, srv, c.vp)
				p.onNewDocument(theme(th))
				p.onNewDocument(sockets)
				p.open("/?code=DS1-D3N-AAAAAAB")
				p.onScreen("solo")
				p.longColumns(true)
				p.waitJS(`!document.querySelector('[data-testid=stuck]').hidden`, "the stuck notice")
				p.visible(`[data-testid=stuck-text]`, `[data-testid=stuck-undo]`, `[data-testid=stuck-hint]`, `[data-testid=stuck-new]`, `.hud [data-testid=score]`, `[data-testid=code]`, `#table [data-pile=s]`)
				p.coversNoCard(`[data-testid=stuck]`)
				p.stepsShowIndex()
				p.reachable()
				p.shot("stuck-long", c.name+"-"+th)
				p.axe("stuck notice "+c.name+" "+th, "#stuck")
			})
		}
	}
}

// coversNoCard fails if the element sel overlaps a card of the table, as
// far as the card is shown: a card scrolled out of its columns' view counts
// only with its part inside that view.
func (p *page) coversNoCard(sel string) {
	p.t.Helper()
	var bad []string
	p.eval(fmt.Sprintf(`(() => {
  const n = document.querySelector(%q).getBoundingClientRect(), bad = [];
  for (const c of document.querySelectorAll('#table [data-pile] .card')) {
    let r = c.getBoundingClientRect();
    const s = c.closest('.cols.scroll');
    if (s) { const v = s.getBoundingClientRect(); r = {left: r.left, right: r.right, top: Math.max(r.top, v.top), bottom: Math.min(r.bottom, v.bottom)}; }
    if (r.top < r.bottom && n.left < r.right - 0.5 && r.left < n.right - 0.5 && n.top < r.bottom - 0.5 && r.top < n.bottom - 0.5)
      bad.push(c.closest('[data-pile]').dataset.pile + ' ' + (c.dataset.card || 'back') + ' ' + JSON.stringify([r.left, r.top, r.right, r.bottom].map(Math.round)));
  }
  return bad;
})()`, sel), &bad)
	if len(bad) > 0 {
		p.t.Errorf("%s: %s covers cards: %s", p.t.Name(), sel, strings.Join(bad, "; "))
	}
}

// swipe moves a finger from (x, y) up by dy pixels (down for a negative dy), in touch events (which
// heed touch-action, as a phone's finger does).
func (p *page) swipe(x, y, dy float64) {
	p.t.Helper()
	touch := func(typ input.DispatchTouchEventType, y float64) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			ev := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{}}
			if typ != input.DispatchTouchEventTypeTouchEnd {
				ev.TouchPoints = []*input.TouchPoint{{X: x, Y: y}}
			}
			_, err := cdp.Call(ctx, t, input.DispatchTouchEvent, ev)
			return err
		})
	}
	acts := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, y)}
	const steps = 12
	for i := 1; i <= steps; i++ {
		acts = append(acts, touch(input.DispatchTouchEventTypeTouchMove, y-dy*float64(i)/steps), chromedp.Sleep(16*time.Millisecond))
	}
	p.run(append(acts, touch(input.DispatchTouchEventTypeTouchEnd, 0))...)
}

// TestLongColumnsShowTheMove: where the columns scroll, a card that lands at
// the foot of a long column out of sight (the columns scrolled to the top)
// is scrolled into sight.
func TestLongColumnsShowTheMove(t *testing.T) {
	srv := startServer(t)
	for _, c := range longViewports[:2] { // the phones on their side: the columns scroll there
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := newPage(t, srv, c.vp)
			p.onNewDocument(sockets)
			p.open("/?code=DS1-D3N-AAAAAAB")
			p.onScreen("solo")
			p.longColumns(false)
			var hidden bool
			p.eval(`(() => { const s = document.querySelector('#table .cols'); s.scrollTop = 0;
  const last = [...document.querySelectorAll('#table [data-pile=c8] .card')].pop();
  return s.classList.contains('scroll') && last.getBoundingClientRect().bottom > s.getBoundingClientRect().bottom + 1; })()`, &hidden)
			if !hidden {
				t.Fatal("the foot of column 8 is in sight with the columns at the top: nothing to check")
			}
			// the top card of column 2 goes onto column 8, as the server tells it
			p.pushView(longRuns + "\n  v.columns[7].up.push(v.columns[1].up.pop());")
			p.waitJS(`document.querySelectorAll('#table [data-pile=c8] .card.up').length === 13`, "the card on column 8")
			var seen bool
			p.eval(`(() => { document.getAnimations().forEach((a) => a.finish()); // where it lands, not where it flies
  const s = document.querySelector('#table .cols').getBoundingClientRect();
  const r = [...document.querySelectorAll('#table [data-pile=c8] .card')].pop().getBoundingClientRect();
  return r.top >= s.top - 1 && r.bottom <= s.bottom + 1; })()`, &seen)
			if !seen {
				t.Error("the card that landed at the foot of column 8 is out of sight")
			}
			p.shot("long-move", c.name)
		})
	}
}
