package httpapi

import (
	"net/http"
	"strconv"
	"testing"

	"dsol/internal/static"
	"dsol/web"
)

// assetPrefix is the hashed prefix the server serves the web client under.
func assetPrefix(t *testing.T) string {
	t.Helper()
	site, err := static.New(web.FS())
	if err != nil {
		t.Fatal(err)
	}
	return site.AssetPrefix()
}

// TestWebClientCaching reads the web client through the whole server, over
// plain HTTP and TLS: the page revalidates, its files under the hashed
// prefix are cached for a year, a 304, a HEAD and a refused method carry the
// security headers too, and the API's paths stay the API's.
func TestWebClientCaching(t *testing.T) {
	pre := assetPrefix(t)
	for _, tr := range []transport{transports[0], transports[4]} {
		t.Run(tr.name, func(t *testing.T) {
			hs := startHeaderServer(t, tr)
			br := http.Header{"Accept-Encoding": {"gzip, deflate, br, zstd"}}
			with := func(k, v string) http.Header {
				h := br.Clone()
				h.Set(k, v)
				return h
			}
			for _, tc := range []struct {
				method, path string
				header       http.Header
				status       int
				cache        string
			}{
				{"GET", "/", br, 200, "no-cache"},
				{"GET", "/?code=DS1-D1N-AAAAAAB", br, 200, "no-cache"},
				{"HEAD", "/", br, 200, "no-cache"},
				{"GET", pre + "js/app.js", br, 200, "public, max-age=31536000, immutable"},
				{"HEAD", pre + "css/app.css", br, 200, "public, max-age=31536000, immutable"},
				{"GET", pre + "js/i18n/pl.js", br, 200, "public, max-age=31536000, immutable"},
				{"GET", "/css/race.css", br, 200, "no-cache"}, // named so by the race mode's script
				{"GET", "/assets/0000000000000000/js/app.js", br, 200, "no-cache"},
				{"POST", "/", br, 405, ""},
				{"GET", pre + "nope.js", br, 404, ""},
			} {
				res := hs.do(t, tc.method, tc.path, "", tc.header)
				what := tc.method + " " + tc.path
				if res.StatusCode != tc.status || res.Header.Get("Cache-Control") != tc.cache {
					t.Errorf("%s: %d, Cache-Control %q; want %d, %q", what, res.StatusCode, res.Header.Get("Cache-Control"), tc.status, tc.cache)
				}
				checkHeaders(t, what, res, tr.https)
				if res.StatusCode != 200 {
					continue
				}
				if res.Header.Get("Content-Encoding") != "br" || res.Header.Get("Vary") != "Accept-Encoding" {
					t.Errorf("%s: Content-Encoding %q, Vary %q", what, res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
				}
				if n, err := strconv.Atoi(res.Header.Get("Content-Length")); err != nil || n <= 0 {
					t.Errorf("%s: Content-Length %q", what, res.Header.Get("Content-Length"))
				}
				etag := res.Header.Get("ETag")
				again := hs.do(t, "GET", tc.path, "", with("If-None-Match", etag))
				if again.StatusCode != 304 || again.Header.Get("ETag") != etag || again.Header.Get("Cache-Control") != tc.cache {
					t.Errorf("%s with If-None-Match %s: %d, ETag %q, Cache-Control %q", what, etag, again.StatusCode, again.Header.Get("ETag"), again.Header.Get("Cache-Control"))
				}
				checkHeaders(t, what+" (304)", again, tr.https)
			}
			// The API keeps its JSON answers, whatever the client accepts.
			res := hs.do(t, "GET", "/api/v1/no/such/thing", "", br)
			if res.StatusCode != 404 || res.Header.Get("Content-Type") != "application/json" || res.Header.Get("Content-Encoding") != "" {
				t.Errorf("an unknown API path: %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Encoding"))
			}
		})
	}
}
