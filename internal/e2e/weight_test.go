package e2e_test

import (
	"testing"
)

// TestPageWeight logs the bytes the solo page loads (HTML, CSS, JS, icon)
// and how long it takes on loopback to paint and to draw the table. Figures
// only: nothing about time is asserted.
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
	var m struct {
		Resources []struct {
			Name    string  `json:"name"`
			Type    string  `json:"type"`
			Encoded float64 `json:"encoded"`
			Decoded float64 `json:"decoded"`
		} `json:"resources"`
		Doc       float64 `json:"doc"`
		FP, FCP   float64
		DCL, Load float64
		Ready     float64
	}
	p.waitJS(`performance.getEntriesByType('navigation')[0]?.loadEventEnd > 0`, "the load event")
	p.eval(`(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
  return {
    doc: nav.decodedBodySize,
    resources: performance.getEntriesByType('resource').map((r) => ({name: new URL(r.name).pathname, type: r.initiatorType, encoded: r.encodedBodySize, decoded: r.decodedBodySize})),
    FP: paint['first-paint'] || 0, FCP: paint['first-contentful-paint'] || 0,
    DCL: nav.domContentLoadedEventEnd, Load: nav.loadEventEnd, Ready: window.__readyAt,
  };
})()`, &m)
	var css, js, other float64
	for _, r := range m.Resources {
		switch {
		case len(r.Name) > 4 && r.Name[len(r.Name)-4:] == ".css":
			css += r.Decoded
		case len(r.Name) > 3 && r.Name[len(r.Name)-3:] == ".js":
			js += r.Decoded
		case len(r.Name) > 8 && r.Name[:8] == "/api/v1/":
			continue
		default:
			other += r.Decoded
		}
	}
	files := 0
	for _, r := range m.Resources {
		if len(r.Name) < 8 || r.Name[:8] != "/api/v1/" {
			files++
		}
	}
	t.Logf("solo page: HTML %.0f B, CSS %.0f B, JS %.0f B, other %.0f B; total %.0f B in %d files besides the HTML (uncompressed)",
		m.Doc, css, js, other, m.Doc+css+js+other, files)
	t.Logf("loopback, cold cache: first paint %.0f ms, first contentful paint %.0f ms, DOMContentLoaded %.0f ms, load %.0f ms, table drawn (data-ready with a view) %.0f ms",
		m.FP, m.FCP, m.DCL, m.Load, m.Ready)
	if m.Doc == 0 || js == 0 || css == 0 {
		t.Fatalf("resource sizes missing: %+v", m)
	}
}
