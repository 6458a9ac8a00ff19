package docs

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// pages are the Markdown files whose links must hold, relative to the
// repository's root.
func pages(tb testing.TB) []string {
	tb.Helper()
	docs, err := filepath.Glob("*.md")
	if err != nil {
		tb.Fatal(err)
	}
	out := []string{"README.md", "web/README.md"}
	for _, d := range docs {
		out = append(out, "docs/"+d)
	}
	return out
}

// root is the repository's root, seen from this package's directory.
const root = ".."

var (
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	htmlLink = regexp.MustCompile(`(?:src|href)="([^"]+)"`)
	codeSpan = regexp.MustCompile("`[^`]*`")
)

// page is what the tests need of one Markdown file: its links, each with its
// line, and the anchors of its headings.
type page struct {
	links   []link
	anchors map[string]bool
}

type link struct {
	line   int
	target string
}

// mustRead reads a Markdown file of the repository, leaving out fenced code
// blocks and inline code, where brackets are not links.
func mustRead(tb testing.TB, name string) page {
	tb.Helper()
	f, err := os.Open(filepath.Join(root, name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	p := page{anchors: map[string]bool{}}
	seen := map[string]int{}
	fenced := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(text), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		text = codeSpan.ReplaceAllString(text, "")
		if strings.HasPrefix(text, "#") {
			a := slug(strings.TrimLeft(sc.Text(), "#"))
			if k := seen[a]; k > 0 {
				p.anchors[a+"-"+strconv.Itoa(k)] = true
			} else {
				p.anchors[a] = true
			}
			seen[a]++
		}
		for _, re := range []*regexp.Regexp{mdLink, htmlLink} {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				p.links = append(p.links, link{line: n, target: m[1]})
			}
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return p
}

// slug is the anchor GitHub gives a heading: lower case, letters, digits,
// hyphens and underscores kept, spaces turned into hyphens, the rest
// dropped (inline code counts by its text).
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestLinks checks that every relative link and image of the documentation
// names a file of the repository, and every fragment a heading of its page.
func TestLinks(t *testing.T) {
	read := map[string]page{}
	get := func(name string) page {
		if p, ok := read[name]; ok {
			return p
		}
		p := mustRead(t, name)
		read[name] = p
		return p
	}
	for _, name := range pages(t) {
		t.Run(name, func(t *testing.T) {
			p := get(name)
			for _, l := range p.links {
				if strings.Contains(l.target, "://") || strings.HasPrefix(l.target, "mailto:") {
					continue
				}
				file, frag, _ := strings.Cut(l.target, "#")
				target := name
				if file != "" {
					target = filepath.ToSlash(filepath.Join(filepath.Dir(name), file))
					if _, err := os.Stat(filepath.Join(root, target)); err != nil {
						t.Errorf("%s:%d: %s: no such file %s", name, l.line, l.target, target)
						continue
					}
				}
				if frag == "" || !strings.HasSuffix(target, ".md") {
					continue
				}
				if !get(target).anchors[frag] {
					t.Errorf("%s:%d: %s: %s has no heading #%s", name, l.line, l.target, target, frag)
				}
			}
		})
	}
}

// TestReadmeShort keeps README.md within MaxReadmeLines lines.
func TestReadmeShort(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > MaxReadmeLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to docs/", n, MaxReadmeLines)
	}
}
