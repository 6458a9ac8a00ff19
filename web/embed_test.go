package web

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
)

// TestFSServesTheClient checks that the page, its styles and every module
// that a module imports are embedded, so nothing 404s once served.
func TestFSServesTheClient(t *testing.T) {
	f := FS()
	for _, name := range []string{"index.html", "css/app.css", "js/app.js", "js/solo/mode.js", "js/i18n/en.js", "js/i18n/es.js", "js/i18n/pl.js", "js/i18n/it.js", "favicon.svg"} {
		if _, err := fs.Stat(f, name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	imp := regexp.MustCompile(`(?m)(?:from|import)\s*\(?\s*['"](\.{1,2}/[^'"$]+)['"]`)
	err := fs.WalkDir(f, "js", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasSuffix(p, ".test.js") {
			t.Errorf("%s: tests must not be served", p)
		}
		b, err := fs.ReadFile(f, p)
		if err != nil {
			return err
		}
		for _, m := range imp.FindAllStringSubmatch(string(b), -1) {
			dep := path.Join(path.Dir(p), m[1])
			if _, err := fs.Stat(f, dep); err != nil {
				t.Errorf("%s imports %s: %v", p, m[1], err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	html, _ := fs.ReadFile(f, "index.html")
	for _, m := range regexp.MustCompile(`(?:src|href)="/([^"]+)"`).FindAllStringSubmatch(string(html), -1) {
		if _, err := fs.Stat(f, m[1]); err != nil {
			t.Errorf("index.html refers to %s: %v", m[1], err)
		}
	}
}
