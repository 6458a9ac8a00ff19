package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
)

func TestNegotiate(t *testing.T) {
	big := []representation{{identity, make([]byte, 1000)}, {"gzip", make([]byte, 300)}, {"br", make([]byte, 250)}}
	// A file whose gzip came out smaller than its Brotli.
	odd := []representation{{identity, make([]byte, 1000)}, {"gzip", make([]byte, 200)}, {"br", make([]byte, 250)}}
	small := []representation{{identity, make([]byte, 10)}}
	for _, tc := range []struct {
		header []string // nil: no Accept-Encoding
		reps   []representation
		want   string // "" for 406
	}{
		{nil, big, identity},
		{[]string{""}, big, identity},
		{[]string{"gzip"}, big, "gzip"},
		{[]string{"br"}, big, "br"},
		{[]string{"gzip, br"}, big, "br"},                // equal q: the smaller body
		{[]string{"gzip, br"}, odd, "gzip"},              // equal q: the smaller body
		{[]string{"gzip, deflate, br, zstd"}, big, "br"}, // what Chromium sends
		{[]string{"br;q=0.5, gzip;q=0.6"}, big, "gzip"},
		{[]string{"br;q=0, gzip"}, big, "gzip"},
		{[]string{"gzip;q=0, br;q=0"}, big, identity},
		{[]string{"identity"}, big, identity},
		{[]string{"identity;q=1, gzip;q=0.5"}, big, identity},
		{[]string{"identity;q=0.5, gzip;q=0.5"}, big, "gzip"},
		{[]string{"identity;q=0"}, big, ""},
		{[]string{"identity;q=0, gzip"}, big, "gzip"},
		{[]string{"*"}, big, "br"},
		{[]string{"*;q=0"}, big, ""},
		{[]string{"*;q=0, gzip"}, big, "gzip"},
		{[]string{"*;q=0, identity"}, big, identity},
		{[]string{"gzip;q=0.2, *;q=0.5"}, big, "br"},
		{[]string{"GZIP;Q=1"}, big, "gzip"},
		{[]string{"x-gzip"}, big, "gzip"},
		{[]string{" gzip ; q=0.5 , br ; q=0.4 "}, big, "gzip"},
		{[]string{"gzip;level=9;q=0.7, br;q=0.6"}, big, "gzip"},
		{[]string{"gzip;q=0.001"}, big, "gzip"}, // the least a client can say still beats an unnamed identity
		{[]string{"br;q=1.000"}, big, "br"},
		{[]string{"br;q=0."}, big, identity},
		// Malformed weights drop their element.
		{[]string{"gzip;q=2"}, big, identity},
		{[]string{"gzip;q=1.0001"}, big, identity},
		{[]string{"gzip;q=0.1234, br"}, big, "br"},
		{[]string{"gzip;q=abc, br;q=0.1"}, big, "br"},
		{[]string{"gzip;q=NaN"}, big, identity},
		{[]string{"gzip;q=-0"}, big, identity},
		{[]string{"gzip;q="}, big, identity},
		{[]string{"deflate, zstd"}, big, identity}, // codings the file lacks
		{[]string{"zstd;q=1, gzip;q=0.1"}, big, "gzip"},
		{[]string{",,, ;q=1,"}, big, identity},
		// Several header lines are one list.
		{[]string{"gzip;q=0.2", "br;q=0.3"}, big, "br"},
		{[]string{"gzip", "identity;q=0"}, big, "gzip"},
		// A file with no variant worth keeping.
		{[]string{"br, gzip"}, small, identity},
		{[]string{"identity;q=0, br"}, small, ""},
		{[]string{"*;q=0"}, small, ""},
	} {
		rep, ok := negotiate(tc.header, tc.reps)
		got := rep.coding
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("Accept-Encoding %q: %q, want %q", tc.header, got, tc.want)
		}
	}
}

// tree is a small site: a page that names its files by root paths, a
// script that compresses well, one too small to shrink and an image that
// does not shrink.
func tree() fstest.MapFS {
	noise := make([]byte, 4000)
	r := rand.NewChaCha8([32]byte{1})
	r.Read(noise)
	return fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><html><head>
<link rel="icon" href="/icon.svg"><link rel="stylesheet" href="/css/app.css">
<script type="module" src="/js/app.js"></script></head>
<body><a href="/">home</a> <a href="?mode=race">race</a> <a href="/api/v1/me">me</a>
<img src="/missing.png"> <img src="/img.png?x=1"> ` + strings.Repeat("<p>text</p>\n", 50) + `</body></html>`)},
		"js/app.js":   {Data: []byte(`import { f } from './lib/f.js';` + "\n" + strings.Repeat("f('a fairly repetitive line of script');\n", 100))},
		"js/lib/f.js": {Data: []byte(strings.Repeat("export const f = (s) => console.log(s);\n", 20))},
		"js/tiny.js":  {Data: []byte("export {};\n")},
		"css/app.css": {Data: []byte(strings.Repeat("body { margin: 0; padding: 0; }\n", 40))},
		"icon.svg":    {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">` + strings.Repeat(`<path d="M0 0h1v1z"/>`, 20) + `</svg>`)},
		"img.png":     {Data: noise},
	}
}

func newHandler(t *testing.T, fsys fstest.MapFS) *Handler {
	t.Helper()
	h, err := New(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// get sends one request to h and returns the answer with its body read.
func get(h http.Handler, method, target string, header ...string) (*http.Response, []byte) {
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// decode undoes a Content-Encoding.
func decode(t *testing.T, coding string, b []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(b)
	switch coding {
	case "":
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(r)
	default:
		t.Fatalf("Content-Encoding %q", coding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decode %s: %v", coding, err)
	}
	return out
}

const (
	immutable = "public, max-age=31536000, immutable"
	noCache   = "no-cache"
)

func TestServe(t *testing.T) {
	fsys := tree()
	h := newHandler(t, fsys)
	pre := h.AssetPrefix()
	if !regexp.MustCompile(`^/assets/[0-9a-f]{16}/$`).MatchString(pre) {
		t.Fatalf("prefix %q", pre)
	}
	other := "/assets/0123456789abcdef/"
	_, page := get(h, "GET", "/")
	raw := func(name string) []byte {
		if name == "index.html" {
			return page
		}
		return fsys[name].Data
	}
	// The ETag of each file as sent, by coding, read off a first answer.
	tag := func(target, coding string) string {
		res, _ := get(h, "GET", target, "Accept-Encoding", coding)
		return res.Header.Get("ETag")
	}
	appBr, appGz, appID := tag(pre+"js/app.js", "br"), tag(pre+"js/app.js", "gzip"), tag(pre+"js/app.js", "identity")
	if appBr == appGz || appGz == appID || !strings.HasPrefix(appID, `"`) || len(appID) != hashLen+2 {
		t.Fatalf("ETags br %s, gzip %s, identity %s: want three strong, distinct tags", appBr, appGz, appID)
	}
	pageGz := tag("/", "gzip")

	for _, tc := range []struct {
		name   string
		method string
		target string
		header []string
		status int
		file   string // the file whose content the body is ("" for none)
		coding string // Content-Encoding
		cache  string // Cache-Control
		vary   bool   // Vary: Accept-Encoding
		ctype  string
	}{
		{"the page", "GET", "/", []string{"Accept-Encoding", "gzip, deflate, br"}, 200, "index.html", "br", noCache, true, "text/html; charset=utf-8"},
		{"the page by a code", "GET", "/?code=DS1-D1N-AAAAAAB", []string{"Accept-Encoding", "gzip"}, 200, "index.html", "gzip", noCache, true, "text/html; charset=utf-8"},
		{"the page, no Accept-Encoding", "GET", "/", nil, 200, "index.html", "", noCache, true, "text/html; charset=utf-8"},
		{"the page, HEAD", "HEAD", "/", []string{"Accept-Encoding", "br"}, 200, "", "br", noCache, true, "text/html; charset=utf-8"},
		{"the page unchanged", "GET", "/", []string{"Accept-Encoding", "gzip", "If-None-Match", pageGz}, 304, "", "", noCache, true, ""},
		{"the page, HEAD unchanged", "HEAD", "/", []string{"Accept-Encoding", "gzip", "If-None-Match", pageGz}, 304, "", "", noCache, true, ""},
		{"a script, br", "GET", pre + "js/app.js", []string{"Accept-Encoding", "gzip, deflate, br, zstd"}, 200, "js/app.js", "br", immutable, true, "text/javascript; charset=utf-8"},
		{"a script, gzip", "GET", pre + "js/app.js", []string{"Accept-Encoding", "gzip"}, 200, "js/app.js", "gzip", immutable, true, "text/javascript; charset=utf-8"},
		{"a script, identity", "GET", pre + "js/app.js", []string{"Accept-Encoding", "identity"}, 200, "js/app.js", "", immutable, true, "text/javascript; charset=utf-8"},
		{"a script, gzip preferred", "GET", pre + "js/app.js", []string{"Accept-Encoding", "br;q=0.5, gzip;q=0.9"}, 200, "js/app.js", "gzip", immutable, true, "text/javascript; charset=utf-8"},
		{"a script, nothing acceptable", "GET", pre + "js/app.js", []string{"Accept-Encoding", "zstd, identity;q=0"}, 406, "", "", "", true, ""},
		{"a script, HEAD", "HEAD", pre + "js/app.js", []string{"Accept-Encoding", "br"}, 200, "", "br", immutable, true, "text/javascript; charset=utf-8"},
		{"a script unchanged", "GET", pre + "js/app.js", []string{"Accept-Encoding", "br", "If-None-Match", appBr}, 304, "", "", immutable, true, ""},
		{"a script unchanged, weak tag", "GET", pre + "js/app.js", []string{"Accept-Encoding", "br", "If-None-Match", "W/" + appBr}, 304, "", "", immutable, true, ""},
		{"a script unchanged, one of a list", "GET", pre + "js/app.js", []string{"Accept-Encoding", "br", "If-None-Match", `"nope", ` + appBr}, 304, "", "", immutable, true, ""},
		{"a script unchanged, any", "GET", pre + "js/app.js", []string{"Accept-Encoding", "br", "If-None-Match", "*"}, 304, "", "", immutable, true, ""},
		{"a script, the tag of another coding", "GET", pre + "js/app.js", []string{"Accept-Encoding", "br", "If-None-Match", appGz}, 200, "js/app.js", "br", immutable, true, "text/javascript; charset=utf-8"},
		{"a script, a stale tag", "GET", pre + "js/app.js", []string{"Accept-Encoding", "gzip", "If-None-Match", `"0000000000000000-gzip"`}, 200, "js/app.js", "gzip", immutable, true, "text/javascript; charset=utf-8"},
		{"a script imported by a script", "GET", pre + "js/lib/f.js", []string{"Accept-Encoding", "gzip"}, 200, "js/lib/f.js", "gzip", immutable, true, "text/javascript; charset=utf-8"},
		{"a script at its plain path", "GET", "/js/app.js", []string{"Accept-Encoding", "br"}, 200, "js/app.js", "br", noCache, true, "text/javascript; charset=utf-8"},
		{"a script at its plain path unchanged", "GET", "/js/app.js", []string{"Accept-Encoding", "br", "If-None-Match", appBr}, 304, "", "", noCache, true, ""},
		{"a script under an older prefix", "GET", other + "js/app.js", []string{"Accept-Encoding", "br"}, 200, "js/app.js", "br", noCache, true, "text/javascript; charset=utf-8"},
		{"a style", "GET", pre + "css/app.css", []string{"Accept-Encoding", "gzip, br"}, 200, "css/app.css", "br", immutable, true, "text/css; charset=utf-8"},
		{"the icon", "GET", pre + "icon.svg", []string{"Accept-Encoding", "gzip"}, 200, "icon.svg", "gzip", immutable, true, "image/svg+xml"},
		{"too small to shrink", "GET", pre + "js/tiny.js", []string{"Accept-Encoding", "gzip, br"}, 200, "js/tiny.js", "", immutable, false, "text/javascript; charset=utf-8"},
		{"too small to shrink, identity refused", "GET", pre + "js/tiny.js", []string{"Accept-Encoding", "br, identity;q=0"}, 406, "", "", "", false, ""},
		{"incompressible", "GET", pre + "img.png", []string{"Accept-Encoding", "gzip, br"}, 200, "img.png", "", immutable, false, "image/png"},
		{"a range of the compressed body", "GET", pre + "js/app.js", []string{"Accept-Encoding", "br", "Range", "bytes=0-9"}, 206, "", "br", immutable, true, "text/javascript; charset=utf-8"},
		{"the page at /index.html", "GET", "/index.html", nil, 301, "", "", "", false, ""},
		{"the page under the prefix", "GET", pre + "index.html", nil, 404, "", "", "", false, ""},
		{"a prefix that is no hash", "GET", "/assets/latest/js/app.js", nil, 404, "", "", "", false, ""},
		{"a short hash", "GET", "/assets/0123/js/app.js", nil, 404, "", "", "", false, ""},
		{"the prefix alone", "GET", pre, nil, 404, "", "", "", false, ""},
		{"a folder", "GET", "/js/", nil, 404, "", "", "", false, ""},
		{"a folder under the prefix", "GET", pre + "js/", nil, 404, "", "", "", false, ""},
		{"no such file", "GET", "/nope.js", nil, 404, "", "", "", false, ""},
		{"no such file under the prefix", "GET", pre + "nope.js", nil, 404, "", "", "", false, ""},
		{"dot segments", "GET", pre + "js/../js/app.js", nil, 404, "", "", "", false, ""},
		{"POST", "POST", "/", nil, 405, "", "", "", false, ""},
		{"PUT a script", "PUT", pre + "js/app.js", nil, 405, "", "", "", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := get(h, tc.method, tc.target, tc.header...)
			hd := res.Header
			if res.StatusCode != tc.status {
				t.Fatalf("%s %s: %d, want %d", tc.method, tc.target, res.StatusCode, tc.status)
			}
			if got := hd.Get("Content-Encoding"); got != tc.coding {
				t.Errorf("Content-Encoding %q, want %q", got, tc.coding)
			}
			if got := hd.Get("Cache-Control"); got != tc.cache {
				t.Errorf("Cache-Control %q, want %q", got, tc.cache)
			}
			if got := strings.Join(hd.Values("Vary"), ", "); got != map[bool]string{true: "Accept-Encoding"}[tc.vary] {
				t.Errorf("Vary %q", got)
			}
			if tc.ctype != "" && hd.Get("Content-Type") != tc.ctype {
				t.Errorf("Content-Type %q, want %q", hd.Get("Content-Type"), tc.ctype)
			}
			switch {
			case res.StatusCode == 200:
				if hd.Get("ETag") == "" {
					t.Error("no ETag")
				}
				n, err := strconv.Atoi(hd.Get("Content-Length"))
				if err != nil {
					t.Fatalf("Content-Length %q", hd.Get("Content-Length"))
				}
				if tc.method == "HEAD" {
					if len(body) != 0 {
						t.Errorf("HEAD sent %d bytes", len(body))
					}
					// The length of what GET sends.
					_, full := get(h, "GET", tc.target, tc.header...)
					if n != len(full) {
						t.Errorf("HEAD Content-Length %d, GET sends %d bytes", n, len(full))
					}
					break
				}
				if n != len(body) {
					t.Errorf("Content-Length %d, body %d bytes", n, len(body))
				}
				if got := decode(t, tc.coding, body); !bytes.Equal(got, raw(tc.file)) {
					t.Errorf("the body decodes to %d bytes that are not %s", len(got), tc.file)
				}
				if tc.coding != "" && len(body) >= len(raw(tc.file)) {
					t.Errorf("%s: %d bytes compressed to %d", tc.coding, len(raw(tc.file)), len(body))
				}
			case res.StatusCode == 304:
				if len(body) != 0 || hd.Get("Content-Length") != "" || hd.Get("Content-Type") != "" {
					t.Errorf("304 with a body of %d bytes, Content-Length %q, Content-Type %q", len(body), hd.Get("Content-Length"), hd.Get("Content-Type"))
				}
				if hd.Get("ETag") == "" {
					t.Error("304 without its ETag")
				}
			case res.StatusCode == 206:
				if hd.Get("Content-Range") == "" || len(body) != 10 || hd.Get("Content-Length") != "10" {
					t.Errorf("206: Content-Range %q, Content-Length %q, %d bytes", hd.Get("Content-Range"), hd.Get("Content-Length"), len(body))
				}
			case res.StatusCode == 301:
				if hd.Get("Location") != "/" {
					t.Errorf("Location %q", hd.Get("Location"))
				}
			case res.StatusCode == 405:
				if hd.Get("Allow") != "GET, HEAD" {
					t.Errorf("Allow %q", hd.Get("Allow"))
				}
			}
			if res.StatusCode >= 400 && hd.Get("ETag") != "" {
				t.Errorf("an error with an ETag %q", hd.Get("ETag"))
			}
		})
	}
}

// TestPage checks the rewritten page: the files it names are under the
// prefix, the rest as written; the query is kept by the redirect of
// /index.html.
func TestPage(t *testing.T) {
	h := newHandler(t, tree())
	pre := h.AssetPrefix()
	_, page := get(h, "GET", "/")
	for _, want := range []string{
		`href="` + pre + `icon.svg"`, `href="` + pre + `css/app.css"`, `src="` + pre + `js/app.js"`,
		`href="/"`, `href="?mode=race"`, `href="/api/v1/me"`, `src="/missing.png"`, `src="/img.png?x=1"`,
	} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page lacks %s:\n%s", want, page)
		}
	}
	res, _ := get(h, "GET", "/index.html?code=DS1-D1N-AAAAAAB")
	if res.StatusCode != 301 || res.Header.Get("Location") != "/?code=DS1-D1N-AAAAAAB" {
		t.Errorf("/index.html?code=…: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
}

// TestPrefixFollowsContent: the prefix and the page's ETag depend on the
// files' contents only; a change to any file but the page changes both,
// and a change to the page changes its ETag only.
func TestPrefixFollowsContent(t *testing.T) {
	etag := func(h *Handler) string {
		res, _ := get(h, "GET", "/", "Accept-Encoding", "identity")
		return res.Header.Get("ETag")
	}
	a, b := newHandler(t, tree()), newHandler(t, tree())
	if a.AssetPrefix() != b.AssetPrefix() || etag(a) != etag(b) {
		t.Fatalf("the same files: prefixes %s and %s, ETags %s and %s", a.AssetPrefix(), b.AssetPrefix(), etag(a), etag(b))
	}
	changed := tree()
	changed["js/lib/f.js"] = &fstest.MapFile{Data: []byte("export const f = () => {};\n")}
	c := newHandler(t, changed)
	if c.AssetPrefix() == a.AssetPrefix() || etag(c) == etag(a) {
		t.Errorf("an imported script changed: prefix %s, ETag %s both as before", c.AssetPrefix(), etag(c))
	}
	renamed := tree()
	renamed["js/lib/g.js"] = renamed["js/lib/f.js"]
	delete(renamed, "js/lib/f.js")
	if d := newHandler(t, renamed); d.AssetPrefix() == a.AssetPrefix() {
		t.Errorf("a file renamed: the same prefix %s", d.AssetPrefix())
	}
	page := tree()
	page["index.html"] = &fstest.MapFile{Data: append([]byte("<!-- new -->"), page["index.html"].Data...)}
	e := newHandler(t, page)
	if e.AssetPrefix() != a.AssetPrefix() || etag(e) == etag(a) {
		t.Errorf("the page changed: prefix %s (was %s), ETag %s (was %s)", e.AssetPrefix(), a.AssetPrefix(), etag(e), etag(a))
	}
}

// TestNoPage: a tree without index.html serves its files and nothing at "/".
func TestNoPage(t *testing.T) {
	fsys := tree()
	delete(fsys, "index.html")
	h := newHandler(t, fsys)
	if res, _ := get(h, "GET", "/"); res.StatusCode != 404 {
		t.Errorf("GET /: %d", res.StatusCode)
	}
	if res, _ := get(h, "GET", h.AssetPrefix()+"js/app.js"); res.StatusCode != 200 {
		t.Errorf("GET a script: %d", res.StatusCode)
	}
}

// TestConcurrentFirstRequests: requests that arrive together for files
// not compressed yet all get the same, whole variant (run with -race).
func TestConcurrentFirstRequests(t *testing.T) {
	fsys := tree()
	// Contents no other test compressed, so that this process has not
	// compressed them yet.
	fsys["js/app.js"] = &fstest.MapFile{Data: []byte(strings.Repeat("console.log('concurrent first requests');\n", 200))}
	a, b := newHandler(t, fsys), newHandler(t, fsys) // two handlers share one compression
	var wg sync.WaitGroup
	bodies := make([][]byte, 16)
	for i := range bodies {
		h := a
		if i%2 == 1 {
			h = b
		}
		wg.Go(func() {
			_, bodies[i] = get(h, "GET", h.AssetPrefix()+"js/app.js", "Accept-Encoding", "br")
		})
	}
	wg.Wait()
	for i, body := range bodies {
		if !bytes.Equal(body, bodies[0]) || !bytes.Equal(decode(t, "br", body), fsys["js/app.js"].Data) {
			t.Fatalf("request %d: %d bytes, the first got %d", i, len(body), len(bodies[0]))
		}
	}
}
