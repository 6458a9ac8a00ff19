package e2e_test

import (
	"strings"
	"testing"
	"time"
)

// TestSecurityPolicy checks the Content-Security-Policy in the browser: the
// client's own socket opens under connect-src 'self', and what the policy
// forbids (inline script and style, a socket to another origin) is refused
// and caught by the check every other browser test runs at its end.
func TestSecurityPolicy(t *testing.T) {
	srv := startServer(t)
	p := newPage(t, srv, desktop)
	p.open("/?mode=race")
	var opened bool
	p.eval(`new Promise((ok) => {
  const ws = new WebSocket('ws://' + location.host + '/api/v1/lobby/ws');
  ws.onopen = () => { ws.close(); ok(true); };
  ws.onerror = () => ok(false);
})`, &opened)
	if !opened {
		t.Fatal("the lobby socket of the page's own origin did not open")
	}
	if v := p.takeViolations(); len(v) > 0 {
		t.Fatalf("the page's own socket broke the policy: %q", v)
	}

	var blocked bool
	other := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) // another origin, same server
	p.eval(`(() => {
  const s = document.createElement('script');
  s.textContent = 'window.__inline = 1';
  document.head.append(s);
  document.body.setAttribute('style', 'outline: 1px solid red');
  try { new WebSocket('`+strings.Replace(other, "http", "ws", 1)+`/api/v1/lobby/ws'); } catch (e) { console.error('CSP violation: ' + e.message); }
  return window.__inline === undefined;
})()`, &blocked)
	if !blocked {
		t.Error("an inline script ran")
	}
	var got []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		got = append(got, p.takeViolations()...)
		all := strings.Join(got, "\n")
		if strings.Contains(all, "script-src") && strings.Contains(all, "style-src") && strings.Contains(all, "connect-src") {
			return
		}
	}
	t.Fatalf("violations seen: %q; want script-src, style-src and connect-src ones", got)
}
