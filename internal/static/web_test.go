package static_test

import (
	"io"
	"io/fs"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"testing"

	"dsol/internal/static"
	"dsol/web"
)

// TestWebClient serves the embedded client: the page names its files under
// the hashed prefix, and every file a module imports (statically or by a
// literal dynamic import) resolves under the same prefix, cached for a
// year, with its type and the coding Chromium asks for.
func TestWebClient(t *testing.T) {
	h, err := static.New(web.FS())
	if err != nil {
		t.Fatal(err)
	}
	pre := h.AssetPrefix()
	fetch := func(target, ae string) (code int, hd map[string]string, n int) {
		req := httptest.NewRequest("GET", target, nil)
		req.Header.Set("Accept-Encoding", ae)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		b, _ := io.ReadAll(rec.Result().Body)
		hd = map[string]string{}
		for _, k := range []string{"Cache-Control", "Content-Type", "Content-Encoding", "ETag"} {
			hd[k] = rec.Header().Get(k)
		}
		return rec.Code, hd, len(b)
	}
	const chromium = "gzip, deflate, br, zstd"

	code, hd, _ := fetch("/?code=DS1-D1N-AAAAAAB", chromium)
	if code != 200 || hd["Cache-Control"] != "no-cache" || hd["ETag"] == "" || hd["Content-Encoding"] != "br" {
		t.Fatalf("the page: %d %v", code, hd)
	}
	req := httptest.NewRequest("GET", "/", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	page := rec.Body.String()
	refs := regexp.MustCompile(`(?:src|href)="(/[^"?#]+)"`).FindAllStringSubmatch(page, -1) // files, not links to the page itself
	if len(refs) < 3 {
		t.Fatalf("the page names %d files", len(refs))
	}
	for _, m := range refs {
		if !strings.HasPrefix(m[1], pre) {
			t.Errorf("the page names %s, not under %s", m[1], pre)
		}
	}

	types := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
	imp := regexp.MustCompile(`(?m)(?:from|import)\s*\(?\s*['"](\.{1,2}/[^'"$]+)['"]`)
	var raw, sent int
	err = fs.WalkDir(web.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "index.html" {
			return err
		}
		b, err := fs.ReadFile(web.FS(), p)
		if err != nil {
			return err
		}
		code, hd, n := fetch(pre+p, chromium)
		if code != 200 || hd["Cache-Control"] != "public, max-age=31536000, immutable" || hd["Content-Type"] != types[path.Ext(p)] {
			t.Errorf("%s: %d %v", pre+p, code, hd)
		}
		if len(b) > 1000 && hd["Content-Encoding"] != "br" {
			t.Errorf("%s (%d bytes) sent with Content-Encoding %q", p, len(b), hd["Content-Encoding"])
		}
		raw, sent = raw+len(b), sent+n
		if path.Ext(p) != ".js" {
			return nil
		}
		for _, m := range imp.FindAllStringSubmatch(string(b), -1) {
			// What the browser asks for: the import resolved against
			// the module's own URL.
			u := path.Join(path.Dir(pre+p), m[1])
			if code, hd, _ := fetch(u, chromium); code != 200 || hd["Cache-Control"] != "public, max-age=31536000, immutable" {
				t.Errorf("%s imports %s: %s answers %d %v", p, m[1], u, code, hd)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("every file but the page: %d bytes, %d sent to Chromium", raw, sent)
}
