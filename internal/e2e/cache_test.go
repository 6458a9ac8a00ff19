package e2e_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// fileLoad is what the Resource Timing API says of one file the page loaded.
type fileLoad struct {
	Path     string  `json:"path"`
	Transfer float64 `json:"transfer"` // bytes over the wire, headers included; 0 from the cache
	Encoded  float64 `json:"encoded"`
	Decoded  float64 `json:"decoded"`
}

// pageLoad is the document's and every file's transfer (the API's left out).
type pageLoad struct {
	Doc   fileLoad   `json:"doc"`
	Files []fileLoad `json:"files"`
}

func (p *page) pageLoad() pageLoad {
	p.t.Helper()
	p.waitJS(`performance.getEntriesByType('navigation')[0]?.loadEventEnd > 0`, "the load event")
	var l pageLoad
	p.eval(`(() => {
  const f = (r) => ({path: new URL(r.name).pathname, transfer: r.transferSize, encoded: r.encodedBodySize, decoded: r.decodedBodySize});
  return {doc: f(performance.getEntriesByType('navigation')[0]),
    files: performance.getEntriesByType('resource').map(f).filter((r) => !r.path.startsWith('/api/'))};
})()`, &l)
	return l
}

// scripts sums the transfer of the page's scripts and styles.
func (l pageLoad) scripts() (n int, transfer float64) {
	for _, f := range l.Files {
		if strings.HasSuffix(f.Path, ".js") || strings.HasSuffix(f.Path, ".css") {
			n++
			transfer += f.Transfer
		}
	}
	return n, transfer
}

// TestCachedLoad loads the solo page with a cold cache, visits it again and
// reloads it: the scripts and styles come compressed the first time, from
// the browser's cache afterwards (the page itself is revalidated, a 304),
// and the game still plays after each load.
func TestCachedLoad(t *testing.T) {
	srv := startServer(t)
	p := openSolo(t, srv, desktop, "DS1-D1N-AAAAAAB")
	cold := p.pageLoad()
	n, coldBytes := cold.scripts()
	if n < 10 {
		t.Fatalf("the first load fetched %d scripts and styles: %+v", n, cold.Files)
	}
	for _, f := range cold.Files {
		if f.Path == "/favicon.svg" || strings.HasSuffix(f.Path, "/favicon.svg") {
			continue // the browser fetches the icon apart, and tells no sizes
		}
		if !strings.HasPrefix(f.Path, "/assets/") {
			t.Errorf("%s is not under the hashed prefix", f.Path)
		}
		if f.Transfer == 0 {
			t.Errorf("%s came from a cold cache", f.Path)
		}
		if f.Decoded > 2000 && f.Encoded > f.Decoded/2 {
			t.Errorf("%s: %0.f bytes sent for %0.f: not compressed", f.Path, f.Encoded, f.Decoded)
		}
	}
	if cold.Doc.Encoded >= cold.Doc.Decoded {
		t.Errorf("the page: %0.f bytes sent for %0.f: not compressed", cold.Doc.Encoded, cold.Doc.Decoded)
	}
	t.Logf("cold: the page %0.f B, %d scripts and styles %0.f B over the wire", cold.Doc.Transfer, n, coldBytes)
	v := p.checkShown()
	p.tap(`#table [data-pile="s"]`)
	p.waitJS(fmt.Sprintf(`+document.querySelector('#table [data-pile="s"]').dataset.count === %d`, v.Stock-1), "a draw")
	p.checkShown()

	warm := func(what string) {
		t.Helper()
		l := p.pageLoad()
		n, bytes := l.scripts()
		// near zero: a revalidation would cost a few hundred bytes of
		// headers for each file, a refetch the whole file.
		if n < 10 || bytes > 0 {
			t.Errorf("%s: %d scripts and styles transferred %0.f B, want all from the cache: %+v", what, n, bytes, l.Files)
		}
		// The page is asked for each time: a 304 at a URL loaded before,
		// else the whole page, compressed (the client's history.replaceState
		// moves /?code=… to /?game=…, which a reload then asks for).
		if l.Doc.Transfer == 0 || l.Doc.Transfer > cold.Doc.Transfer {
			t.Errorf("%s: the page transferred %0.f B, want a revalidation or the %0.f B of the first load", what, l.Doc.Transfer, cold.Doc.Transfer)
		}
		t.Logf("%s: the page %0.f B, %d scripts and styles %0.f B", what, l.Doc.Transfer, n, bytes)
		// The game goes on: the table is the API's, a draw is drawn.
		v := p.checkShown()
		p.tap(`#table [data-pile="s"]`)
		p.waitJS(fmt.Sprintf(`+document.querySelector('#table [data-pile="s"]').dataset.count === %d`, v.Stock-1), "a draw after "+what)
		if after := p.checkShown(); after.Seq <= v.Seq {
			t.Errorf("%s: the draw left the game at seq %d", what, after.Seq)
		}
	}

	// A second visit to the same URL (a new game of that deal): the page
	// is revalidated.
	p.run(chromedp.Navigate("about:blank"))
	p.open("/?code=DS1-D1N-AAAAAAB")
	p.waitJS(`document.body.dataset.mode === "solo" && !!document.body.dataset.seq`, "the solo table")
	if l := p.pageLoad(); l.Doc.Transfer > 1000 {
		t.Errorf("a second visit: the page transferred %0.f B, want a 304", l.Doc.Transfer)
	}
	warm("a second visit")

	// A reload.
	p.run(chromedp.Reload())
	p.waitJS(`document.body.dataset.ready === "1" && !!document.body.dataset.seq`, "the table after the reload")
	p.checkPolicy()
	warm("a reload")
}
