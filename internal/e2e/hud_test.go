package e2e_test

import (
	"fmt"
	"testing"
)

// TestHUDValuesFit: the solo HUD's score, moves and time never run into each
// other or push a button off the screen, at any width from a small phone to
// a desktop, with the widest values a game shows (a Vegas "-$104", four-digit
// moves, an hour of play). On a phone the stats take a line of their own.
func TestHUDValuesFit(t *testing.T) {
	srv := startServer(t)
	for _, w := range []int64{320, 390, 430, 480, 481, 600, 1440} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			p := newPage(t, srv, viewport{w, 844, w < 600})
			p.open("/?code=DS1-D1V-AAAAAAB")
			p.waitJS(`document.body.dataset.seq === "0"`, "the solo table")
			var bad []string
			p.eval(`(() => {
  const bad = [];
  const h = document.querySelector('header.hud');
  for (const [s, m, tm] of [['-$104', '0', '0:00'], ['-$104', '1234', '59:59'], ['$416', '999', '1:02:03']]) {
    document.querySelector('[data-testid=score]').textContent = s;
    document.querySelector('[data-testid=moves]').textContent = m;
    document.querySelector('[data-testid=time]').textContent = tm;
    if (h.scrollWidth > h.clientWidth + 1) bad.push(s + ' ' + m + ' ' + tm + ': the HUD scrolls sideways, ' + h.scrollWidth + ' > ' + h.clientWidth);
    const boxes = [...h.querySelectorAll('.stat b, .ib')].filter((e) => e.checkVisibility()).map((e) => [e.dataset.testid || e.id, e.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [na, a] = boxes[i], [nb, b] = boxes[j];
      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) bad.push(s + ' ' + m + ' ' + tm + ': ' + na + ' overlaps ' + nb);
    }
    for (const [n, r] of boxes) if (r.right > innerWidth + 0.5 || r.left < -0.5) bad.push(n + ' off the screen');
  }
  return bad;
})()`, &bad)
			for _, b := range bad {
				t.Error(b)
			}
			p.screenshot(fmt.Sprintf("hud-%d", w))
		})
	}
}
