package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestReadmeScreenshots makes the pictures at the top of README.md: the solo
// table and a race, on a phone and a desktop, light and dark, as JPEG files
// in the directory DSOL_SCREENSHOTS names (make screenshots: docs/).
func TestReadmeScreenshots(t *testing.T) {
	dir := os.Getenv("DSOL_SCREENSHOTS")
	if dir == "" {
		t.Skip("set DSOL_SCREENSHOTS to a directory (make screenshots writes docs/)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	code, ace, _ := mirroredCode(t)
	srv := startServer(t)
	save := func(p *page, name string) {
		t.Helper()
		time.Sleep(300 * time.Millisecond)                           // animations settle
		buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(82)) // JPEG
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".jpg"), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, vp := range []struct {
		name string
		vp   viewport
	}{{"phone", phone}, {"desktop", desktop}} {
		for _, th := range []string{"light", "dark"} {
			s := newPage(t, srv, vp.vp)
			s.onNewDocument(theme(th))
			s.open("/?code=DS1-D1N-AAAAAAB")
			s.waitJS(`document.body.dataset.mode === "solo" && !!document.body.dataset.seq`, "the solo table")
			for i := 1; i <= 3; i++ {
				s.tap(`[data-testid=stock]`)
				s.waitJS(fmt.Sprintf(`document.body.dataset.seq === "%d"`, i), "a draw")
			}
			save(s, fmt.Sprintf("solo-%s-%s", vp.name, th))

			a, b := newPage(t, srv, vp.vp), newPage(t, srv, vp.vp)
			a.onNewDocument(theme(th))
			b.onNewDocument(theme(th))
			startRace(t, a, b, nil, map[string]any{"code": code, "turns": "simultaneous", "public": false})
			a.waitJS(`document.getAnimations().length === 0`, "the table at rest")
			a.tap(fmt.Sprintf(myCard, ace+1))
			a.waitJS(`document.querySelectorAll('#race [data-pile="f"] .card.up').length === 1`, "the ace up")
			save(a, fmt.Sprintf("race-%s-%s", vp.name, th))
		}
	}
}
