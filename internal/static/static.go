// Package static serves a tree of files (the web client) so that a page
// loads fast and a second visit fetches next to nothing:
//
//   - Every file but index.html is also served under a prefix that holds a
//     hash of all their contents, /assets/<hash>/, with
//     "Cache-Control: public, max-age=31536000, immutable". index.html, served
//     at "/", names its scripts, styles and icon under that prefix, so the
//     relative imports of its ES modules resolve under it too. A change to any
//     file changes the prefix, hence every URL the new page uses.
//   - index.html and the files at their plain paths (which scripts may name,
//     and which old pages use) are served with "Cache-Control: no-cache" and a
//     strong ETag: the browser asks each time and a 304 answers when the file
//     has not changed.
//   - A file under an older prefix (a page loaded before a deploy asking for a
//     module after it) gets the current file, not cached.
//   - gzip and Brotli variants are made once per process, at a file's first
//     request, and only kept when they are smaller by at least a twentieth;
//     Accept-Encoding picks one by its q-values.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// Prefix is the start of the hashed paths: Prefix + hash + "/" + file.
const Prefix = "/assets/"

// hashLen is the length of the hash in the prefix, in hex digits.
const hashLen = 16

// Handler serves a tree of files.
type Handler struct {
	files  map[string]*file // by path inside the tree, "index.html" included
	hash   string           // of every file but index.html
	prefix string           // Prefix + hash + "/"
}

// file is one file of the tree with what is needed to answer for it.
type file struct {
	name  string // path inside the tree, for ServeContent
	ctype string
	raw   []byte
	sum   [sha256.Size]byte
	tag   string   // hex of sum, cut: the ETag's body
	enc   *encoded // shared by every file of this content in the process
}

// New reads every file of fsys. index.html, if there is one, is served at
// "/" with each root-relative src and href that names another file of the
// tree rewritten to its hashed path.
func New(fsys fs.FS) (*Handler, error) {
	h := &Handler{files: map[string]*file{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		h.files[p] = newFile(p, b)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("static: %w", err)
	}
	names := make([]string, 0, len(h.files))
	for p := range h.files {
		if p != "index.html" {
			names = append(names, p)
		}
	}
	sort.Strings(names)
	sum := sha256.New()
	for _, p := range names {
		f := h.files[p]
		fmt.Fprintf(sum, "%s\x00%x\n", p, f.sum)
	}
	h.hash = hex.EncodeToString(sum.Sum(nil))[:hashLen]
	h.prefix = Prefix + h.hash + "/"
	if idx := h.files["index.html"]; idx != nil {
		h.files["index.html"] = newFile("index.html", h.rewrite(idx.raw))
	}
	return h, nil
}

// AssetPrefix is the hashed prefix of this tree, "/assets/<hash>/".
func (h *Handler) AssetPrefix() string { return h.prefix }

// reference is a root-relative src or href attribute.
var reference = regexp.MustCompile(`((?:src|href)=")/([^"?#]+)"`)

// rewrite points the references of index.html to files of the tree at their
// hashed paths; others (the API, "/", another page) stay.
func (h *Handler) rewrite(html []byte) []byte {
	return reference.ReplaceAllFunc(html, func(m []byte) []byte {
		sub := reference.FindSubmatch(m)
		name := string(sub[2])
		if _, ok := h.files[name]; !ok || name == "index.html" {
			return m
		}
		return []byte(string(sub[1]) + h.prefix + name + `"`)
	})
}

func newFile(name string, b []byte) *file {
	f := &file{name: name, ctype: contentType(name, b), raw: b, sum: sha256.Sum256(b)}
	f.tag = hex.EncodeToString(f.sum[:])[:hashLen]
	v, _ := compressed.LoadOrStore(f.sum, &encoded{})
	f.enc = v.(*encoded)
	return f
}

// types are the content types of the files a web client has, fixed here
// rather than read from the machine's mime.types, which differ between
// systems (.js as application/javascript, or missing).
var types = map[string]string{
	".html":  "text/html; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".svg":   "image/svg+xml",
	".json":  "application/json",
	".txt":   "text/plain; charset=utf-8",
	".png":   "image/png",
	".ico":   "image/x-icon",
	".woff2": "font/woff2",
}

func contentType(name string, b []byte) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := types[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return http.DetectContentType(b)
}

// ServeHTTP answers GET and HEAD for the files of the tree.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	if p == "/index.html" {
		// As http.FileServer did: the page has one URL.
		to := "/"
		if r.URL.RawQuery != "" {
			to += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, to, http.StatusMovedPermanently)
		return
	}
	cache := "no-cache"
	name := strings.TrimPrefix(p, "/")
	if p == "/" {
		name = "index.html"
	} else if rest, ok := strings.CutPrefix(p, Prefix); ok {
		hash, file, _ := strings.Cut(rest, "/")
		if !isHash(hash) || file == "index.html" {
			http.NotFound(w, r)
			return
		}
		name = file
		if hash == h.hash {
			cache = "public, max-age=31536000, immutable"
		}
	} else if name == "index.html" {
		http.NotFound(w, r)
		return
	}
	f := h.files[name]
	if f == nil {
		http.NotFound(w, r)
		return
	}
	f.serve(w, r, cache)
}

func isHash(s string) bool {
	if len(s) != hashLen {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// serve answers with the representation Accept-Encoding prefers; ETag,
// If-None-Match (304), Range and HEAD are http.ServeContent's.
func (f *file) serve(w http.ResponseWriter, r *http.Request, cache string) {
	reps := f.representations()
	hd := w.Header()
	if len(reps) > 1 {
		hd.Add("Vary", "Accept-Encoding")
	}
	rep, ok := negotiate(r.Header.Values("Accept-Encoding"), reps)
	if !ok {
		http.Error(w, "406 not acceptable: the file has no content coding that Accept-Encoding allows", http.StatusNotAcceptable)
		return
	}
	hd.Set("Content-Type", f.ctype)
	hd.Set("Cache-Control", cache)
	etag := f.tag
	if rep.coding != identity {
		hd.Set("Content-Encoding", rep.coding)
		etag += "-" + rep.coding
	}
	hd.Set("ETag", `"`+etag+`"`)
	// ServeContent leaves Content-Length out once Content-Encoding is set
	// (for handlers that compress as they write); this body is whole.
	// A range, a 304 or an error replaces or drops it.
	hd.Set("Content-Length", strconv.Itoa(len(rep.body)))
	http.ServeContent(w, r, f.name, time.Time{}, bytes.NewReader(rep.body))
}

const identity = "identity"

// representation is a file's body in one content coding.
type representation struct {
	coding string // identity, gzip or br
	body   []byte
}

// representations returns the file as it is, then its gzip and Brotli
// variants that were worth keeping.
func (f *file) representations() []representation {
	e := f.encodings()
	reps := []representation{{identity, f.raw}}
	if e.gzip != nil {
		reps = append(reps, representation{"gzip", e.gzip})
	}
	if e.br != nil {
		reps = append(reps, representation{"br", e.br})
	}
	return reps
}

// encoded holds the compressed variants of one content.
type encoded struct {
	once     sync.Once
	gzip, br []byte // nil: not smaller by a twentieth
}

// compressed holds the variants of every content compressed in this
// process, by its SHA-256, so that the handlers of one process (a server
// and its tests build several over the same files) compress each file once.
var compressed sync.Map

// encodings compresses the file the first time it is asked for. Brotli at
// its best quality takes about 40 ms for 10 KB, too long for every start
// of every test server, and nothing for a file served for days.
func (f *file) encodings() *encoded {
	f.enc.once.Do(func() {
		f.enc.gzip = worth(f.raw, gzipped(f.raw))
		f.enc.br = worth(f.raw, brotlied(f.raw))
	})
	return f.enc
}

// worth returns enc if it saves at least a twentieth of raw, else nil: a
// file that hardly shrinks is cheaper to send as it is than to decode.
func worth(raw, enc []byte) []byte {
	if len(enc) > len(raw)-len(raw)/20 {
		return nil
	}
	return enc
}

func gzipped(b []byte) []byte {
	var out bytes.Buffer
	w, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

func brotlied(b []byte) []byte {
	var out bytes.Buffer
	w := brotli.NewWriterLevel(&out, brotli.BestCompression)
	w.Write(b)
	w.Close()
	return out.Bytes()
}
