package e2e_test

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// weightBound is the most one part of the solo page may weigh: the bytes
// of its bodies as a browser gets them, compressed (the Resource Timing
// API's encodedBodySize; headers left out).
type weightBound struct {
	part  string  // "HTML", "CSS", "JS", "icons" or "total"
	today float64 // what it weighed when the bound was set
	max   float64 // the bound: today's figure and about 15% more
}

// pageWeightBounds are the bounds of the solo page's cold load (fresh
// browser context, /?code=DS1-D1N-AAAAAAB, table drawn, load event over),
// Brotli compressed as Chromium gets it, set at build 0fa2185 with about 15%
// headroom (the HTML's figure moves by a few bytes with the assets' hash). A new dependency, a file sent uncompressed or a module loaded
// twice overruns one of them (or fails a check of its own); a change that
// makes the page heavier on purpose sets today's figures and the bounds
// anew (go test -count=1 -v -run PageWeight ./internal/e2e logs them), and
// the figures in docs/performance.md.
var pageWeightBounds = []weightBound{
	{"HTML", 3321, 3800},
	{"CSS", 5662, 6500},
	{"JS", 51369, 59000},
	{"icons", 181, 210},
	{"total", 60533, 69600},
}

// maxPageFiles bounds the number of files the solo page loads besides the
// HTML (every one is a request, with its headers): pageFilesToday at build
// 0fa2185, and five more.
const (
	pageFilesToday = 35
	maxPageFiles   = 40
)

// assetPrefix is the hashed prefix of the embedded files' immutable URLs.
var assetPrefix = regexp.MustCompile(`^/assets/[^/]+/`)

// weightPart names the part of the page a file (its URL path) belongs to.
func weightPart(p string) string {
	switch path.Ext(p) {
	case ".css":
		return "CSS"
	case ".js", ".mjs":
		return "JS"
	case ".svg", ".png", ".ico", ".webp":
		return "icons"
	}
	return "other"
}

// TestPageWeight loads the solo page with a cold cache and fails when a part
// of it (HTML, CSS, JS, icons, or all of it) weighs more compressed than its
// bound in pageWeightBounds, when it loads more than maxPageFiles files, when
// a file comes twice (under two paths) or when a file of more than a
// kilobyte comes uncompressed. It also logs the load's paint times on
// loopback, for information: nothing about time is asserted.
func TestPageWeight(t *testing.T) {
	srv := startServer(t)
	p := newPage(t, srv, desktop)
	p.onNewDocument(`new MutationObserver((_, o) => {
  if (document.body?.dataset.ready === "1" && document.body.dataset.seq) { window.__readyAt = performance.now(); o.disconnect(); }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-ready', 'data-seq']});`)
	// a first visit: cold HTTP cache (the browser context is fresh), the
	// player is created, the game opened by its code
	p.open("/?code=DS1-D1N-AAAAAAB")
	p.waitJS(`window.__readyAt > 0`, "the table drawn")
	l := p.pageLoad()

	encoded := map[string]float64{"HTML": l.Doc.Encoded, "total": l.Doc.Encoded}
	decoded := map[string]float64{"HTML": l.Doc.Decoded, "total": l.Doc.Decoded}
	files := map[string][]fileLoad{}
	seen := map[string]string{}
	var unique []fileLoad
	for _, f := range l.Files {
		name := assetPrefix.ReplaceAllString(f.Path, "/")
		if other, ok := seen[name]; ok {
			// the browser asks for the icon again, from its cache; a
			// module is only ever loaded once at one URL
			if other != f.Path {
				t.Errorf("%s is loaded twice: as %s and as %s", name, other, f.Path)
			}
			continue
		}
		seen[name] = f.Path
		unique = append(unique, f)
		part := weightPart(f.Path)
		encoded[part] += f.Encoded
		decoded[part] += f.Decoded
		encoded["total"] += f.Encoded
		decoded["total"] += f.Decoded
		files[part] = append(files[part], f)
		if f.Decoded > 1000 && f.Encoded >= f.Decoded {
			t.Errorf("%s comes uncompressed: %.0f B sent for %.0f B", f.Path, f.Encoded, f.Decoded)
		}
	}
	if l.Doc.Decoded > 1000 && l.Doc.Encoded >= l.Doc.Decoded {
		t.Errorf("the page comes uncompressed: %.0f B sent for %.0f B", l.Doc.Encoded, l.Doc.Decoded)
	}
	if l.Doc.Encoded == 0 || encoded["JS"] == 0 || encoded["CSS"] == 0 {
		t.Fatalf("resource sizes missing: %+v", l)
	}
	// the bounds are Brotli's figures: a browser that asks for gzip alone
	// would overrun them without the page having grown
	var coding string
	p.eval(`fetch(location.href, {cache: 'no-store'}).then((r) => r.headers.get('Content-Encoding') || 'none')`, &coding)
	if coding != "br" {
		t.Fatalf("the page came %s-encoded, not Brotli: the bounds are for Brotli (a newer Chromium asks for it on loopback too)", coding)
	}
	if n := len(files["other"]); n > 0 {
		t.Errorf("the page loads %d files of no known part: %+v", n, files["other"])
	}

	for _, b := range pageWeightBounds {
		got := encoded[b.part]
		t.Logf("%-5s %6.0f B compressed (%6.0f B uncompressed; bound %6.0f B, %6.0f B when it was set)", b.part, got, decoded[b.part], b.max, b.today)
		if got <= b.max {
			continue
		}
		msg := fmt.Sprintf("the solo page's %s weighs %.0f B compressed, over its bound of %.0f B: %+.0f B (%+.1f%%) against the %.0f B when the bound was set",
			b.part, got, b.max, got-b.today, 100*(got-b.today)/b.today, b.today)
		if b.part == "total" {
			var list []string
			for _, o := range pageWeightBounds {
				if o.part != "total" {
					list = append(list, fmt.Sprintf("%s %.0f B (%+.0f B)", o.part, encoded[o.part], encoded[o.part]-o.today))
				}
			}
			msg += "; by part: " + strings.Join(list, ", ")
		}
		if fs := files[b.part]; len(fs) > 0 {
			sort.Slice(fs, func(i, j int) bool { return fs[i].Encoded > fs[j].Encoded })
			var list []string
			for _, f := range fs {
				list = append(list, fmt.Sprintf("%s %.0f B", assetPrefix.ReplaceAllString(f.Path, "/"), f.Encoded))
			}
			msg += "; its files, heaviest first: " + strings.Join(list, ", ")
		}
		t.Error(msg)
	}
	t.Logf("%d files besides the HTML (bound %d)", len(unique), maxPageFiles)
	if len(unique) > maxPageFiles {
		t.Errorf("the solo page loads %d files besides the HTML, over its bound of %d (%d when it was set)", len(unique), maxPageFiles, pageFilesToday)
	}
	if testing.Verbose() {
		for _, f := range unique {
			t.Logf("  %-28s %6.0f B (%6.0f B)", assetPrefix.ReplaceAllString(f.Path, "/"), f.Encoded, f.Decoded)
		}
	}

	var m struct{ FP, FCP, DCL, Load, Ready float64 }
	p.eval(`(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
  return {FP: paint['first-paint'] || 0, FCP: paint['first-contentful-paint'] || 0,
    DCL: nav.domContentLoadedEventEnd, Load: nav.loadEventEnd, Ready: window.__readyAt};
})()`, &m)
	t.Logf("loopback, cold cache: first paint %.0f ms, first contentful paint %.0f ms, DOMContentLoaded %.0f ms, load %.0f ms, table drawn (data-ready with a view) %.0f ms",
		m.FP, m.FCP, m.DCL, m.Load, m.Ready)
}
