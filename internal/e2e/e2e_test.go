// Package e2e drives the web client in Chromium against a real server on
// SQLite: solo play through pointer events, page weight, and races between
// two browser contexts and a spectator.
package e2e_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"dsol/internal/chromium"
	"dsol/internal/httpapi"
	"dsol/internal/live"
	"dsol/internal/lobby"
	"dsol/internal/metrics"
	"dsol/internal/players"
	"dsol/internal/service"
	"dsol/internal/store"
	"dsol/internal/store/sqlite"
	"dsol/internal/testenv"
	"dsol/internal/ws"
	"dsol/web"
)

// The browser is shared by every test: one Chromium process, a fresh
// browser context (own cookies and storage) per player.
var (
	browserOnce   sync.Once
	browserCtx    context.Context
	browserErr    error
	browserCancel = func() {}
)

func TestMain(m *testing.M) {
	code := m.Run()
	browserCancel()
	os.Exit(code)
}

// browser returns the shared browser context, starting Chromium on first use.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := testenv.Chromium(t)
	browserOnce.Do(func() {
		dir, err := os.MkdirTemp("", "dsol-chromium-")
		if err != nil {
			browserErr = err
			return
		}
		ctx, stop, err := chromium.Start(path, dir)
		if err != nil {
			os.RemoveAll(dir)
			browserErr = err
			return
		}
		browserCtx = ctx
		browserCancel = func() { stop(); os.RemoveAll(dir) }
	})
	if browserErr != nil {
		t.Fatal(browserErr)
	}
	return browserCtx
}

// server is a whole dsol server (API, WebSocket and web client) on a fresh
// SQLite database, on a loopback port.
type server struct {
	*httptest.Server
	st    store.Store
	games *service.Service
	// ahead is how far the server's clock runs ahead of the machine's: a
	// test moves it on (Advance) to play at a person's pace without
	// waiting.
	ahead atomic.Int64
}

// now is the server's clock.
func (s *server) now() time.Time { return time.Now().Add(time.Duration(s.ahead.Load())) }

// Advance moves the server's clock on by d.
func (s *server) Advance(d time.Duration) { s.ahead.Add(int64(d)) }

func startServer(t *testing.T) *server {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "dsol.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := metrics.New()
	srv := &server{st: st}
	com := store.NewCommitter(st, time.Millisecond, 0, m.ObserveCommit)
	hub := lobby.NewHub(lobby.Config{Store: st})
	srv.games = service.New(service.Config{Store: st, Committer: com, Clock: srv.now, LobbyChanged: hub.Changed,
		Action: m.ObserveAction, Live: live.Config{Hooks: live.Hooks{Action: m.ObserveAction, Live: m.AddLiveTables}}})
	ps := players.New(players.Config{Store: st, Random: rand.Reader, Clock: srv.now})
	sd := ws.Deps{Games: srv.games, Player: httpapi.PlayerID, Token: httpapi.TokenHash, Check: ps.CheckToken, Metrics: m, Clock: srv.now}
	sockets := httpapi.Sockets{Games: ws.NewHandler(sd), Match: ws.NewMatchHandler(sd), Arena: ws.NewArenaHandler(sd),
		Lobby: ws.NewLobbyHandler(ws.LobbyDeps{Hub: hub, Player: sd.Player, Token: sd.Token, Check: sd.Check, Metrics: m, Clock: srv.now})}
	h := httpapi.NewServer(httpapi.Deps{Players: ps, Games: srv.games, Lobby: hub, Sockets: sockets, Metrics: m, Clock: srv.now,
		Config: httpapi.Config{Static: web.FS(), WriteBurst: 1000, WriteRate: 1000, HintBurst: 20, MatchBotAfter: 2 * time.Second}})
	ts := httptest.NewServer(h)
	srv.Server = ts
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		srv.games.Close(context.Background())
		com.Close()
		st.Close()
	})
	return srv
}

// page is one browser tab in its own browser context (its own player).
type page struct {
	t   *testing.T
	ctx context.Context
	srv *server

	mu       sync.Mutex
	policy   []string // policy violations and header errors the console reported
	barriers int      // the console barriers written
	barrier  int      // and the last one read
}

type viewport struct {
	w, h   int64
	mobile bool
}

var (
	desktop = viewport{1440, 900, false}
	phone   = viewport{390, 844, true}
)

// newPage opens a tab in a fresh browser context with the given viewport.
func newPage(t *testing.T, srv *server, vp viewport) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser(t), chromedp.WithNewBrowserContext())
	ctx, tcancel := context.WithTimeout(ctx, 150*time.Second) // a bound on a whole test's tab, for a busy machine
	t.Cleanup(func() { tcancel(); cancel() })
	p := &page{t: t, ctx: ctx, srv: srv}
	p.watchPolicy()
	t.Cleanup(p.checkPolicy) // runs before the tab closes
	if vp.mobile {
		p.run(chromedp.EmulateViewport(vp.w, vp.h, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch))
	} else {
		p.run(chromedp.EmulateViewport(vp.w, vp.h))
	}
	return p
}

// reportViolations is run at the start of every document: it writes each
// Content-Security-Policy violation to the console.
const reportViolations = `document.addEventListener('securitypolicyviolation', (e) => {
  console.error('CSP violation: ' + e.effectiveDirective + ' refused ' + (e.blockedURI || 'inline') +
    ' in ' + (e.sourceFile || e.documentURI) + ':' + e.lineNumber);
}, true);`

// barrier is the console message takeViolations waits for.
const barrier = "dsol-policy-barrier "

// watchPolicy makes every document of the tab report its policy violations,
// and collects what the console says of the security headers: violations
// of the Content-Security-Policy and errors in the Permissions-Policy.
func (p *page) watchPolicy() {
	p.t.Helper()
	p.onNewDocument(reportViolations)
	msgs := chromedp.Console(p.ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			p.mu.Lock()
			if n, ok := strings.CutPrefix(m.Text, barrier); ok {
				p.barrier, _ = strconv.Atoi(n)
			} else if strings.Contains(m.Text, "CSP violation") || strings.Contains(m.Text, "Content Security Policy") ||
				strings.Contains(m.Text, "Permissions-Policy") || strings.Contains(m.Text, "Permissions Policy") {
				p.policy = append(p.policy, m.String())
			}
			p.mu.Unlock()
		}
	}()
}

// takeViolations returns (and forgets) the policy violations the console
// reported so far. It writes a numbered message to the console and waits
// until that message is read, so every earlier one is read too.
func (p *page) takeViolations() []string {
	p.t.Helper()
	p.mu.Lock()
	p.barriers++
	n := p.barriers
	p.mu.Unlock()
	_, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(console.debug(%q), true)`, barrier+strconv.Itoa(n))))
	for deadline := time.Now().Add(2 * time.Second); err == nil; time.Sleep(5 * time.Millisecond) {
		p.mu.Lock()
		seen := p.barrier
		p.mu.Unlock()
		if seen >= n {
			break
		}
		if time.Now().After(deadline) {
			err = errors.New("the console message never came")
		}
	}
	if err != nil {
		p.t.Logf("reading the console for policy violations: %v", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.policy
	p.policy = nil
	return v
}

// checkPolicy fails the test if the page broke its security policy.
func (p *page) checkPolicy() {
	p.t.Helper()
	if v := p.takeViolations(); len(v) > 0 {
		p.t.Errorf("the page broke its security policy:\n%s", strings.Join(v, "\n"))
	}
}

// onNewDocument runs js at the start of every document the tab loads.
func (p *page) onNewDocument(js string) {
	p.t.Helper()
	p.run(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: js})
		return err
	}))
}

func (p *page) run(acts ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, acts...); err != nil {
		p.t.Fatal(err)
	}
}

// open loads a path of the server and waits for the first render.
func (p *page) open(path string) {
	p.t.Helper()
	p.run(chromedp.Navigate(p.srv.URL + path))
	p.waitJS(`document.body.dataset.ready === "1"`, "first render of "+path)
	p.checkPolicy()
}

// eval evaluates js (awaiting a promise) and decodes its JSON value into out.
func (p *page) eval(js string, out any) {
	p.t.Helper()
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]byte]("(async () => JSON.stringify(await ("+js+")) ?? \"null\")()", chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", js, err)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		p.t.Fatalf("evaluate %s: %v (%s)", js, err, raw)
	}
	if out != nil && s != "" {
		if err := json.Unmarshal([]byte(s), out); err != nil {
			p.t.Fatalf("evaluate %s: %v (%s)", js, err, s)
		}
	}
}

// waitJS polls a JavaScript condition until it holds, or fails after 15s.
func (p *page) waitJS(cond, what string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(10*time.Millisecond))); err != nil {
		dump, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body.dataset.ready+" seq="+document.body.dataset.seq+" toast="+(document.querySelector('#toast')?.textContent||"")`))
		p.t.Fatalf("waiting for %s (%s): %v; page: %s", what, cond, err, dump)
	}
}

// box returns the centre and size of the first element matching sel,
// scrolled into view first when it is not (a tap lands where it is shown).
func (p *page) box(sel string) (x, y, w, h float64) {
	p.t.Helper()
	var r struct{ X, Y, W, H float64 }
	p.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return null; e.scrollIntoView({block: 'nearest', inline: 'nearest'}); const b = e.getBoundingClientRect(); return {X: b.left + b.width/2, Y: b.top + b.height/2, W: b.width, H: b.height}; })()`, sel), &r)
	if r.W == 0 {
		p.t.Fatalf("no element %s on the page", sel)
	}
	return r.X, r.Y, r.W, r.H
}

// mouse sends one mouse event with the left button (pressed for buttons 1).
func mouse(typ input.DispatchMouseEventType, x, y float64, buttons int64) chromedp.Action[chromedp.Void] {
	return chromedp.MouseEvent(typ, x, y, func(e *input.DispatchMouseEventParams) {
		e.Buttons = buttons
		if typ != chromedp.MouseMoved {
			e.Button = input.MouseButtonLeft
			e.ClickCount = 1
		}
	})
}

// drag presses on the element sel, moves in steps onto the point (tx, ty)
// and releases there: the client's pointer-event drag logic runs.
func (p *page) drag(sel string, tx, ty float64) {
	p.t.Helper()
	x, y, _, h := p.box(sel)
	y -= h/2 - 8 // grab the visible strip at the top of the card
	acts := []chromedp.Action[chromedp.Void]{mouse(chromedp.MouseMoved, x, y, 0), mouse(chromedp.MousePressed, x, y, 1)}
	const steps = 8
	for i := 1; i <= steps; i++ {
		f := float64(i) / steps
		acts = append(acts, mouse(chromedp.MouseMoved, x+(tx-x)*f, y+(ty-y)*f, 1))
	}
	acts = append(acts, mouse(chromedp.MouseReleased, tx, ty, 0))
	p.run(acts...)
}

// tap clicks once on the element sel (press and release without moving).
func (p *page) tap(sel string) {
	p.t.Helper()
	x, y, _, _ := p.box(sel)
	p.run(mouse(chromedp.MouseMoved, x, y, 0), mouse(chromedp.MousePressed, x, y, 1), mouse(chromedp.MouseReleased, x, y, 0))
}

// doubleTap taps twice quickly on the element sel.
func (p *page) doubleTap(sel string) {
	p.t.Helper()
	x, y, _, _ := p.box(sel)
	p.run(mouse(chromedp.MouseMoved, x, y, 0),
		mouse(chromedp.MousePressed, x, y, 1), mouse(chromedp.MouseReleased, x, y, 0),
		chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(2), func(e *input.DispatchMouseEventParams) { e.Buttons = 1 }),
		chromedp.MouseEvent(chromedp.MouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(2)))
}

// text returns the text of the first element matching sel.
func (p *page) text(sel string) string {
	p.t.Helper()
	var s string
	p.eval(fmt.Sprintf(`document.querySelector(%q)?.textContent ?? null`, sel), &s)
	return s
}

// screenshot saves a PNG of the viewport as a test artefact.
func (p *page) screenshot(name string) string {
	p.t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	dir := os.Getenv("DSOL_ARTIFACTS")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(file), "artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s", path)
	return path
}

// apiJSON calls the API from inside the page (with its cookie) and decodes
// the answer into out; it fails the test on an error answer.
func (p *page) apiJSON(method, path string, body any, out any) {
	p.t.Helper()
	b := "undefined"
	if body != nil {
		j, _ := json.Marshal(body)
		b = fmt.Sprintf("JSON.stringify(%s)", j)
	}
	js := fmt.Sprintf(`fetch(%q, {method: %q, credentials: "same-origin", headers: {"Content-Type": "application/json"}, body: %s}).then(async r => ({status: r.status, body: await r.text()}))`, path, method, b)
	var res struct {
		Status int
		Body   string
	}
	p.eval(js, &res)
	if res.Status >= 300 {
		p.t.Fatalf("%s %s: %d %s", method, path, res.Status, res.Body)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(res.Body), out); err != nil {
			p.t.Fatalf("%s %s: %v in %s", method, path, err, res.Body)
		}
	}
}

func chromedpDo(p *page, acts ...chromedp.Action[chromedp.Void]) error {
	return chromedp.Do(p.ctx, acts...)
}
