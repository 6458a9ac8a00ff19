package httpapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/go-chi/chi/v5"

	"dsol/internal/apitest"
	"dsol/web"
)

// transport is how a test reaches the server: plain HTTP, HTTPS through a
// proxy, or TLS to the server itself.
type transport struct {
	name    string
	trusted bool   // the test client's address is a trusted proxy
	proto   string // the X-Forwarded-Proto it sends
	tls     bool   // TLS to the server itself
	https   bool   // what the server should believe
}

var transports = []transport{
	{name: "plain HTTP", https: false},
	{name: "HTTPS through a trusted proxy", trusted: true, proto: "https", https: true},
	{name: "HTTP through a trusted proxy", trusted: true, proto: "http", https: false},
	{name: "X-Forwarded-Proto from an untrusted peer", proto: "https", https: false},
	{name: "TLS", tls: true, https: true},
}

// headerServer is a whole API with the web client, reached over tr.
type headerServer struct {
	url    string
	client *http.Client
	tr     transport
}

func startHeaderServer(t *testing.T, tr transport) *headerServer {
	t.Helper()
	ts := mustServer(t, apitest.SQLite(t), func(c *Config) {
		c.Static = web.FS()
		if tr.trusted {
			c.TrustedProxies = mustPrefixes(t, "127.0.0.0/8", "::1/128")
		}
	})
	hs := &headerServer{url: ts.URL, client: ts.Client(), tr: tr}
	if tr.tls {
		tlsSrv := httptest.NewTLSServer(ts.Config.Handler)
		t.Cleanup(tlsSrv.Close) // before ts stops (cleanups run last first)
		hs.url, hs.client = tlsSrv.URL, tlsSrv.Client()
	}
	return hs
}

// do sends a request over the server's transport and returns the answer
// with its body read and closed.
func (hs *headerServer) do(t *testing.T, method, path, body string, header http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, hs.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if hs.tr.proto != "" {
		req.Header.Set("X-Forwarded-Proto", hs.tr.proto)
	}
	client := *hs.client
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// checkHeaders fails unless res carries every browser security header, and
// HSTS exactly when the request came over HTTPS.
func checkHeaders(t *testing.T, what string, res *http.Response, https bool) {
	t.Helper()
	h := res.Header
	for name, want := range map[string]string{
		"Content-Security-Policy": contentSecurityPolicy,
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
		"Permissions-Policy":      permissionsPolicy,
	} {
		if got := h.Values(name); len(got) != 1 || got[0] != want {
			t.Errorf("%s (%d): %s %q, want %q", what, res.StatusCode, name, got, want)
		}
	}
	for _, want := range []string{"script-src 'self'", "connect-src 'self'", "object-src 'none'", "frame-ancestors 'none'"} {
		if !strings.Contains(h.Get("Content-Security-Policy"), want) {
			t.Errorf("%s: the policy lacks %s", what, want)
		}
	}
	for _, want := range []string{"camera=()", "microphone=()", "geolocation=()"} {
		if !strings.Contains(h.Get("Permissions-Policy"), want) {
			t.Errorf("%s: Permissions-Policy lacks %s", what, want)
		}
	}
	hsts := h.Get("Strict-Transport-Security")
	if https && hsts != "max-age=31536000" {
		t.Errorf("%s (%d) over HTTPS: Strict-Transport-Security %q", what, res.StatusCode, hsts)
	}
	if !https && hsts != "" {
		t.Errorf("%s (%d) over plain HTTP: Strict-Transport-Security %q", what, res.StatusCode, hsts)
	}
}

// cookieOf returns the Set-Cookie of res named name, or nil.
func cookieOf(res *http.Response, name string) *http.Cookie {
	for _, c := range res.Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// checkSession fails unless res sets the session cookie of tok the way the
// transport calls for: __Host-, Secure, Path=/ and no Domain over HTTPS; the
// plain name, not Secure, over HTTP.
func checkSession(t *testing.T, what string, res *http.Response, tok string, https bool) {
	t.Helper()
	name, other := CookieName, SecureCookieName
	if https {
		name, other = SecureCookieName, CookieName
	}
	c := cookieOf(res, name)
	if c == nil {
		t.Fatalf("%s: no %s cookie in %q", what, name, res.Header.Values("Set-Cookie"))
	}
	if c.Value != tok || c.Secure != https || c.Path != "/" || c.Domain != "" || !c.HttpOnly ||
		c.SameSite != http.SameSiteLaxMode || c.MaxAge <= 0 {
		t.Errorf("%s: cookie %s", what, c)
	}
	if o := cookieOf(res, other); o != nil && o.MaxAge >= 0 {
		t.Errorf("%s: also the cookie %s", what, o)
	}
}

// TestSecurityHeaders requests every route of the router, pages and files of
// the web client and error answers, over each transport, and reads their
// headers; and the session cookie each transport gets.
func TestSecurityHeaders(t *testing.T) {
	type req struct{ method, path, body string }
	var routes []req
	err := chi.Walk(newServer(Deps{}).routes(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		body := ""
		if method == http.MethodPost || method == http.MethodPatch {
			body = `{}`
		}
		routes = append(routes, req{method, route, body})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(routes) < 15 {
		t.Fatalf("only %d routes walked", len(routes))
	}
	pre := assetPrefix(t)
	routes = append(routes,
		req{"GET", "/", ""},
		req{"GET", "/?code=DS1-D1N-AAAAAAB", ""},
		req{"GET", "/index.html", ""}, // a redirect to /
		req{"GET", "/?mode=race", ""},
		req{"GET", "/css/app.css", ""},
		req{"GET", "/js/app.js", ""},
		req{"GET", "/favicon.svg", ""},
		req{"GET", pre + "js/app.js", ""},
		req{"GET", pre + "css/app.css", ""},
		req{"HEAD", pre + "js/solo/mode.js", ""},
		req{"POST", "/", ""},
		req{"GET", "/no/such/file", ""},
		req{"GET", "/api/v1/no/such/thing", ""},
		req{"DELETE", "/api/v1/me", ""},
		req{"POST", "/api/v1/games", `{"draw":`},
	)
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			hs := startHeaderServer(t, tr)
			res := hs.do(t, "POST", "/api/v1/players", `{"name":"Ada"}`, nil)
			if res.StatusCode != 201 {
				t.Fatalf("POST /api/v1/players: %d", res.StatusCode)
			}
			var tok string
			for _, c := range res.Cookies() {
				tok = c.Value
			}
			checkSession(t, "new player", res, tok, tr.https)
			bearer := http.Header{"Authorization": {"Bearer " + tok}}
			game := hs.do(t, "POST", "/api/v1/games", `{"code":"DS1-D1N-AAAAAAB"}`, bearer)
			id := strings.TrimPrefix(game.Header.Get("Location"), "/api/v1/games/")
			if game.StatusCode != 201 || id == "" {
				t.Fatalf("new game: %d %q", game.StatusCode, id)
			}
			statuses := map[int]int{}
			for _, r := range routes {
				path := strings.NewReplacer("{id}", id, "{code}", "DS1-D1N-AAAAAAB").Replace(r.path)
				res := hs.do(t, r.method, path, r.body, bearer)
				statuses[res.StatusCode]++
				checkHeaders(t, r.method+" "+path, res, tr.https)
				// Anonymous and refused requests carry them too.
				checkHeaders(t, "anonymous "+r.method+" "+path, hs.do(t, r.method, path, r.body, nil), tr.https)
			}
			// Some of each kind of answer were read: successes, redirects,
			// client errors.
			var ok, redirect, refused int
			for s, n := range statuses {
				switch {
				case s < 300:
					ok += n
				case s < 400:
					redirect += n
				default:
					refused += n
				}
			}
			if ok < 8 || redirect < 1 || refused < 5 {
				t.Errorf("statuses %v", statuses)
			}
		})
	}
}

// TestSessionCookieReissue: a player signed in with the old cookie name over
// HTTPS gets the same token under the __Host- name and the old cookie
// expired; over plain HTTP the old name stays. The WebSocket accepts both.
func TestSessionCookieReissue(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			hs := startHeaderServer(t, tr)
			res := hs.do(t, "POST", "/api/v1/players", `{}`, nil)
			var tok string
			for _, c := range res.Cookies() {
				tok = c.Value
			}
			old := http.Header{"Cookie": {CookieName + "=" + tok}}
			res = hs.do(t, "GET", "/api/v1/me", "", old)
			if res.StatusCode != 200 {
				t.Fatalf("GET /api/v1/me with %s: %d", CookieName, res.StatusCode)
			}
			if tr.https {
				checkSession(t, "signed in with "+CookieName, res, tok, true)
				if o := cookieOf(res, CookieName); o == nil || o.MaxAge >= 0 || !o.Secure || o.Path != "/" {
					t.Errorf("the old cookie is not expired: %v", o)
				}
			} else if v := res.Header.Values("Set-Cookie"); len(v) != 0 {
				t.Errorf("over plain HTTP the cookie was reissued: %q", v)
			}
			current := http.Header{"Cookie": {SecureCookieName + "=" + tok}}
			res = hs.do(t, "GET", "/api/v1/me", "", current)
			if res.StatusCode != 200 || len(res.Header.Values("Set-Cookie")) != 0 {
				t.Fatalf("GET /api/v1/me with %s: %d, Set-Cookie %q", SecureCookieName, res.StatusCode, res.Header.Values("Set-Cookie"))
			}
			if res := hs.do(t, "GET", "/api/v1/me", "", http.Header{"Cookie": {SecureCookieName + "=nope; " + CookieName + "=" + tok}}); res.StatusCode != 401 {
				t.Errorf("a wrong %s beside a right %s: %d, want 401", SecureCookieName, CookieName, res.StatusCode)
			}

			game := hs.do(t, "POST", "/api/v1/games", `{"code":"DS1-D1N-AAAAAAB"}`, current)
			if game.StatusCode != 201 {
				t.Fatalf("new game: %d", game.StatusCode)
			}
			u := "ws" + strings.TrimPrefix(hs.url, "http") + game.Header.Get("Location") + "/ws"
			for _, h := range []http.Header{old, current} {
				ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
				h = h.Clone()
				if tr.proto != "" {
					h.Set("X-Forwarded-Proto", tr.proto)
				}
				c, res, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h, HTTPClient: hs.client})
				if err != nil {
					cancel()
					t.Fatalf("game socket with %s: %v", h.Get("Cookie"), err)
				}
				checkHeaders(t, "game socket", res, tr.https)
				if reissued := cookieOf(res, SecureCookieName) != nil; reissued != (tr.https && h.Get("Cookie") == old.Get("Cookie")) {
					t.Errorf("game socket with %s: Set-Cookie %q", h.Get("Cookie"), res.Header.Values("Set-Cookie"))
				}
				if _, msg, err := c.Read(ctx); err != nil || !strings.Contains(string(msg), `"type":"state"`) {
					t.Errorf("game socket with %s: %s %v", h.Get("Cookie"), msg, err)
				}
				c.Close(websocket.StatusNormalClosure, "")
				cancel()
			}
		})
	}
}
